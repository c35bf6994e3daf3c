// A job's handler as the durable subscription `<processor>.<function>` of its instances' ticks (a
// sharded job: one per partition, `<processor>.<function>#<partition>`):
// the tick becomes a `ScheduleTick`, and the commands it derives get request ids from the tick
// event (`<tickEventId>-<index>`), so a tick handled again sends the same requests; their
// rejections go to the saga's `@OnRejected` handler, as an event handler's do.
import type { CommandMessage, EventMessage } from "../model/messages.js";
import type { SagaJobRegistration, SagaRegistration, ScheduleTick } from "../model/saga-registration.js";
import { jobContext, requestOf } from "../sagas/saga-requests.js";
import { UndeclaredOutputError } from "../model/errors.js";
import { servicesFor } from "../model/registration.js";
import { sendDerived, type SagaRuntime } from "../sagas/saga-subscriptions.js";
import type { Subscription } from "../subscriptions/subscription-service.js";
import { JobEvents, SCHEDULE_AGGREGATE, type TickedBody } from "./job-messages.js";
import type { PartitionOwnership } from "./partition-ownership.js";

export function tickOf(event: EventMessage): ScheduleTick {
  const b = event.body as TickedBody;
  const tick: ScheduleTick = { tenantId: event.aggregate.tenantId, job: b.job, slot: b.slot, due: b.due, skipped: b.skipped };
  return b.partition === undefined ? tick : { ...tick, partition: b.partition };
}

export function isTickOf(event: EventMessage, context: string, job: string): boolean {
  return (
    event.type === JobEvents.Ticked &&
    event.aggregate.context === context &&
    event.aggregate.aggregate === SCHEDULE_AGGREGATE &&
    (event.body as TickedBody).job === job
  );
}

export interface JobRuntime extends SagaRuntime {
  readonly ownership: PartitionOwnership;
  /** Observes each tick's derived commands (the test kit records them). */
  readonly onDerived?: (job: SagaJobRegistration, tick: ScheduleTick, commands: readonly CommandMessage[]) => void;
}

/** The subscription of one partition of a sharded job: `<processor>.<function>#<partition>`. */
export function partitionSubscription(subscription: string, partition: number): string {
  return `${subscription}#${partition}`;
}

export function jobSubscriptions(saga: SagaRegistration, runtime: JobRuntime): Subscription[] {
  return saga.jobs.flatMap((job): Subscription[] => {
    const services = servicesFor(job.services, runtime.services, job.subscription);
    const isTick = (event: EventMessage) => isTickOf(event, saga.context, job.name);
    const handle = async (event: EventMessage) => {
      const tick = tickOf(event);
      const outputs = await job.handle(tick, jobContext, services);
      for (const output of outputs) {
        if (!job.commands.includes(output.command.type)) throw new UndeclaredOutputError("UndeclaredCommand", job.subscription, String(output.command.type), job.commands);
      }
      const requests = outputs.map((output, index) => requestOf(output, event, index, runtime.clock.now()));
      runtime.onDerived?.(job, tick, requests);
      // As an event handler's: a rejected command reaches the saga's @OnRejected handler.
      for (const request of requests) await sendDerived(saga, request, runtime);
    };
    if (!job.sharded) return [{ name: job.subscription, accepts: isTick, handle }];
    // Sharded: progress is kept per partition (a checkpoint each, in the store the hosts share), as
    // Kafka consumer groups or Akka projections by slice do. Only the partition's owner runs it, and
    // an owner that gains a partition resumes from that partition's checkpoint. One checkpoint for
    // all partitions would let a host move it past ticks of partitions it does not own: lost on hand-over.
    return Array.from({ length: runtime.ownership.partitions }, (_, partition) => ({
      name: partitionSubscription(job.subscription, partition),
      accepts: (event: EventMessage) => isTick(event) && (event.body as TickedBody).partition === partition,
      active: () => runtime.ownership.owns(partition),
      handle,
    }));
  });
}

/** Keeps the index of job instances (for listings): every instance that was ever enabled. */
export function jobIndexSubscription(remember: (event: EventMessage) => Promise<void>): Subscription {
  return {
    name: "wow.schedule.index",
    accepts: (event) => event.type === JobEvents.Enabled && event.aggregate.aggregate === SCHEDULE_AGGREGATE,
    handle: remember,
  };
}
