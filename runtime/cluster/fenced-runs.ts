// The run log of a cluster's host: a job's run is recorded only under the lease of the partition whose
// subscription ran it (`partitionOf`, which the host gives: a sharded job's tick partition, else the
// partition its instance's stream hashes into), at the epoch this host holds it by. A host that lost
// the lease and wakes has the record refused: the partition's new owner runs that tick and records it.
import { FencedWriteError, type ClusterStore, type Fence } from "../store/cluster-store.js";
import type { InstanceKey, JobRun, Page, RunQuery, RunStore, TimerAttempt } from "../store/run-store.js";

export class FencedRuns implements RunStore {
  constructor(
    private readonly inner: RunStore,
    private readonly cluster: ClusterStore,
    private readonly fence: (partition: number) => Fence | undefined,
    private readonly member: string,
    /** The partition whose lease a run is recorded under; undefined: not fenced (its subscription is not split). */
    private readonly partitionOf: (run: JobRun) => number | undefined,
  ) {}

  async record(run: JobRun): Promise<void> {
    const partition = this.partitionOf(run);
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
