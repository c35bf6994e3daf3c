// The run log of a cluster's host: a job's run is recorded only under the lease of the partition whose
// subscription ran it (a sharded job's tick partition; else the partition its instance's stream hashes
// into), at the epoch this host holds it by. A host that lost the lease and wakes has the record
// refused: the partition's new owner runs that tick and records it.
import { aggregateRef } from "../model/aggregate-ref.js";
import { partitionOf } from "../model/partition-of.js";
import { SCHEDULE_AGGREGATE } from "../jobs/job-messages.js";
import { FencedWriteError, type ClusterStore, type Fence } from "../store/cluster-store.js";
import type { InstanceKey, JobRun, Page, RunQuery, RunStore, TimerAttempt } from "../store/run-store.js";

/**
 * The partition whose subscription runs `run`'s ticks, as `jobSubscriptions` and `byPartition` split
 * them; undefined on one partition, where the job's subscription is not split (nor fenced).
 */
export function runPartition(run: JobRun, partitions: number): number | undefined {
  if (run.partition !== undefined) return run.partition;
  if (partitions <= 1) return undefined;
  return partitionOf(aggregateRef(run.context, SCHEDULE_AGGREGATE, run.instance, run.tenantId), partitions);
}

export class FencedRuns implements RunStore {
  constructor(
    private readonly inner: RunStore,
    private readonly cluster: ClusterStore,
    private readonly fence: (partition: number) => Fence | undefined,
    private readonly member: string,
    private readonly partitions: number,
  ) {}

  async record(run: JobRun): Promise<void> {
    const partition = runPartition(run, this.partitions);
    if (partition === undefined) return this.inner.record(run);
    const fence = this.fence(partition) ?? { partition, member: this.member, epoch: -1 };
    if (!(await this.cluster.recordRun(run, fence))) throw new FencedWriteError(`the run ${run.id} of ${run.context}.${run.instance} (slot ${run.slot}, ${run.outcome})`, fence, "run");
  }

  runs(query: RunQuery): Promise<Page<JobRun>> {
    return this.inner.runs(query);
  }

  lastRuns(instances: readonly InstanceKey[]): Promise<Map<string, JobRun>> {
    return this.inner.lastRuns(instances);
  }

  ran(instance: InstanceKey, due: number): Promise<boolean> {
    return this.inner.ran(instance, due);
  }

  failedSince(since: number, tenantId?: string): Promise<number> {
    return this.inner.failedSince(since, tenantId);
  }

  recordAttempts(attempts: readonly TimerAttempt[]): Promise<void> {
    return this.inner.recordAttempts(attempts);
  }

  attempts(timer: string, query: { readonly cursor?: string; readonly limit: number }): Promise<Page<TimerAttempt>> {
    return this.inner.attempts(timer, query);
  }

  prune(before: number, perInstance: number): Promise<number> {
    return this.inner.prune(before, perInstance);
  }
}
