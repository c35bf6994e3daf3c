// The subscription store of a cluster's host: a partition's subscription (`<name>#<partition>`)
// writes its checkpoint only under the partition's lease, at the epoch this host holds it by. A host
// that lost the lease (paused, cut off from the store) and wakes has its write refused: the
// partition's new owner has moved on from there, and the events after it are handled by that owner.
import type { AggregateRef } from "../model/aggregate-ref.js";
import { FencedWriteError, type ClusterStore, type Fence } from "../store/cluster-store.js";
import type { ParkedEvent, SubscriptionStore } from "../store/subscription-store.js";

/** The partition a subscription's name ends with (`…#3` → 3), if any. */
export function subscriptionPartition(subscription: string): number | undefined {
  const match = /#(0|[1-9][0-9]*)$/.exec(subscription);
  return match === null ? undefined : Number(match[1]);
}

export class FencedCheckpoints implements SubscriptionStore {
  constructor(
    private readonly inner: SubscriptionStore,
    private readonly cluster: ClusterStore,
    private readonly fence: (partition: number) => Fence | undefined,
    private readonly member: string,
  ) {}

  checkpoint(subscription: string): Promise<number> {
    return this.inner.checkpoint(subscription);
  }

  async saveCheckpoint(subscription: string, position: number): Promise<void> {
    const partition = subscriptionPartition(subscription);
    if (partition === undefined) return this.inner.saveCheckpoint(subscription, position);
    const fence = this.fence(partition) ?? { partition, member: this.member, epoch: -1 };
    if (!(await this.cluster.saveCheckpoint(subscription, position, fence))) throw new FencedWriteError(`the checkpoint of ${subscription} at ${position}`, fence);
  }

  park(entry: ParkedEvent): Promise<void> {
    return this.inner.park(entry);
  }

  parked(limit?: number, tenantId?: string): Promise<ParkedEvent[]> {
    return this.inner.parked(limit, tenantId);
  }

  parkedEvent(id: string): Promise<ParkedEvent | undefined> {
    return this.inner.parkedEvent(id);
  }

  countParked(): Promise<number> {
    return this.inner.countParked();
  }

  unpark(id: string): Promise<boolean> {
    return this.inner.unpark(id);
  }

  rememberInstance(ref: AggregateRef): Promise<void> {
    return this.inner.rememberInstance(ref);
  }

  instances(): Promise<AggregateRef[]> {
    return this.inner.instances();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
