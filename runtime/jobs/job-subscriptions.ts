// A job's handler as the durable subscription `<processor>.<function>` of its instances' ticks:
// the tick becomes a `ScheduleTick`, and the commands it derives get request ids from the tick
// event (`<tickEventId>-<index>`), so a tick handled again sends the same requests.
import type { CommandMessage, EventMessage } from "../model/messages.js";
import type { SagaJobRegistration, SagaRegistration, ScheduleTick } from "../model/saga-registration.js";
import { jobContext, requestOf } from "../sagas/saga-requests.js";
import { servicesFor } from "../model/registration.js";
import type { SagaRuntime } from "../sagas/saga-subscriptions.js";
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

export function jobSubscriptions(saga: SagaRegistration, runtime: JobRuntime): Subscription[] {
  return saga.jobs.map((job) => {
    const services = servicesFor(job.services, runtime.services, job.subscription);
    return {
      name: job.subscription,
      accepts: (event: EventMessage) => {
        if (!isTickOf(event, saga.context, job.name)) return false;
        const partition = (event.body as TickedBody).partition;
        return partition === undefined || runtime.ownership.owns(partition);
      },
      handle: async (event: EventMessage) => {
        const tick = tickOf(event);
        const outputs = await job.handle(tick, jobContext, services);
        const requests = outputs.map((output, index) => requestOf(output, event, index, runtime.clock.now()));
        runtime.onDerived?.(job, tick, requests);
        for (const request of requests) await runtime.send(request);
      },
    };
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
