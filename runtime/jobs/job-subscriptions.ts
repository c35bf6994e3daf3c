// A job's handler as the durable subscription `<processor>.<function>` of its instances' ticks (a
// sharded job: one per partition, `<processor>.<function>#<partition>`), each tick run by the job's
// runner (overlap, jitter, timeout, run log) and retried by the job's policy; the commands a run
// derives go to their targets, and their rejections to the saga's `@OnRejected` handler.
import type { EventMessage } from "../model/messages.js";
import type { SagaJobRegistration, SagaRegistration } from "../model/saga-registration.js";
import { blockingOf } from "../sagas/saga-subscriptions.js";
import type { Subscription } from "../subscriptions/subscription-service.js";
import { JobEvents, SCHEDULE_AGGREGATE, type TickedBody } from "./job-messages.js";
import type { JobPolicy } from "./job-policy.js";
import { JobRunner, type JobRunnerRuntime } from "./job-runner.js";
import type { PartitionOwnership } from "./partition-ownership.js";

export function isTickOf(event: EventMessage, context: string, job: string): boolean {
  return (
    event.type === JobEvents.Ticked &&
    event.aggregate.context === context &&
    event.aggregate.aggregate === SCHEDULE_AGGREGATE &&
    (event.body as TickedBody).job === job
  );
}

export interface JobRuntime extends JobRunnerRuntime {
  readonly ownership: PartitionOwnership;
  /** Each job's policy (declaration and config). */
  readonly policy: (job: SagaJobRegistration) => JobPolicy;
}

/** The subscription of one partition of a sharded job: `<processor>.<function>#<partition>`. */
export function partitionSubscription(subscription: string, partition: number): string {
  return `${subscription}#${partition}`;
}

export function jobSubscriptions(saga: SagaRegistration, runtime: JobRuntime): Subscription[] {
  return saga.jobs.flatMap((job): Subscription[] => {
    const policy = runtime.policy(job);
    const runner = new JobRunner(saga, job, policy, runtime);
    const isTick = (event: EventMessage) => isTickOf(event, saga.context, job.name);
    const common = {
      retry: { maxAttempts: policy.maxAttempts, backoff: policy.backoff },
      ...blockingOf(job, runtime),
      handle: (event: EventMessage, attempt: Parameters<Subscription["handle"]>[1]) => runner.run(event, attempt),
    };
    if (!job.sharded) return [{ name: job.subscription, accepts: isTick, ...common }];
    // Sharded: progress is kept per partition (a checkpoint each, in the store the hosts share), as
    // Kafka consumer groups or Akka projections by slice do. Only the partition's owner runs it, and
    // an owner that gains a partition resumes from that partition's checkpoint. One checkpoint for
    // all partitions would let a host move it past ticks of partitions it does not own: lost on hand-over.
    return Array.from({ length: runtime.ownership.partitions }, (_, partition) => ({
      name: partitionSubscription(job.subscription, partition),
      accepts: (event: EventMessage) => isTick(event) && (event.body as TickedBody).partition === partition,
      active: () => runtime.ownership.owns(partition),
      ...common,
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
