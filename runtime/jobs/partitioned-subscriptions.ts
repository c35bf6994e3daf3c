// On a journal of several partitions (hosts sharing a store), a subscription is consumed per partition
// by the partition's owner: `<name>#<partition>` takes the events of the aggregates hashed into it,
// with a checkpoint of its own. On one partition (one host) it stays as it is.
import type { EventMessage } from "../model/messages.js";
import { partitionOf } from "../model/partition-of.js";
import type { Subscription } from "../subscriptions/subscription-service.js";
import { partitionSubscription } from "./job-subscriptions.js";
import type { PartitionOwnership } from "./partition-ownership.js";

export function byPartition(subscription: Subscription, ownership: PartitionOwnership): Subscription[] {
  const { partitions } = ownership;
  if (partitions <= 1 || subscription.active !== undefined) return [subscription];
  return Array.from({ length: partitions }, (_, partition) => ({
    ...subscription,
    name: partitionSubscription(subscription.name, partition),
    accepts: (event: EventMessage) => partitionOf(event.aggregate, partitions) === partition && subscription.accepts(event),
    active: () => ownership.owns(partition),
  }));
}

/** The subscription a partition's subscription is of (`a.b#3` → `a.b`). */
export function unpartitioned(name: string): string {
  return name.replace(/#(0|[1-9][0-9]*)$/, "");
}
