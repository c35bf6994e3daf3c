// The run log in memory, for tests. Stores copies.
import { FAILED_OUTCOMES, instanceKeyOf, readCursor, cursorOf, type InstanceKey, type JobRun, type Page, type RunQuery, type RunStore, type TimerAttempt } from "../run-store.js";

const newestFirst = <T extends { readonly id: string }>(at: (t: T) => number) => (a: T, b: T) => at(b) - at(a) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/** Items after the cursor (newest first), at most `limit`, and the next page's cursor. */
function page<T extends { readonly id: string }>(sorted: readonly T[], at: (t: T) => number, cursor: string | undefined, limit: number): Page<T> {
  const from = readCursor(cursor);
  if (cursor !== undefined && from === undefined) throw new RangeError("a cursor this store did not make");
  const after = from === undefined ? sorted : sorted.filter((t) => at(t) < from[0] || (at(t) === from[0] && t.id < from[1]));
  const items = after.slice(0, limit).map((t) => structuredClone(t));
  const last = items[items.length - 1];
  return after.length > limit && last !== undefined ? { items, next: cursorOf(at(last), last.id) } : { items };
}

export class MemoryRunStore implements RunStore {
  private jobRuns: JobRun[] = [];
  private timerAttempts: TimerAttempt[] = [];

  async record(run: JobRun): Promise<void> {
    this.jobRuns.push(structuredClone(run));
  }

  async runs(query: RunQuery): Promise<Page<JobRun>> {
    const key = instanceKeyOf(query);
    const matching = this.jobRuns
      .filter((r) => instanceKeyOf(r) === key)
      .filter((r) => query.outcome === undefined || r.outcome === query.outcome || r.kind === query.outcome)
      .filter((r) => (query.from === undefined || r.due >= query.from) && (query.to === undefined || r.due < query.to))
      .sort(newestFirst((r) => r.started));
    return page(matching, (r) => r.started, query.cursor, query.limit);
  }

  async lastRuns(instances: readonly InstanceKey[]): Promise<Map<string, JobRun>> {
    const wanted = new Set(instances.map(instanceKeyOf));
    const last = new Map<string, JobRun>();
    for (const run of this.jobRuns) {
      const key = instanceKeyOf(run);
      const seen = last.get(key);
      if (wanted.has(key) && (seen === undefined || run.started > seen.started || (run.started === seen.started && run.id > seen.id))) last.set(key, run);
    }
    return new Map([...last].map(([k, v]) => [k, structuredClone(v)]));
  }

  async ran(instance: InstanceKey, due: number): Promise<boolean> {
    const key = instanceKeyOf(instance);
    return this.jobRuns.some((r) => r.due === due && (r.outcome === "succeeded" || r.outcome === "failed") && instanceKeyOf(r) === key);
  }

  async failedSince(since: number, tenantId?: string): Promise<number> {
    return this.jobRuns.filter((r) => r.started >= since && FAILED_OUTCOMES.includes(r.outcome) && (tenantId === undefined || r.tenantId === tenantId)).length;
  }

  async recordAttempts(attempts: readonly TimerAttempt[]): Promise<void> {
    for (const attempt of attempts) this.timerAttempts.push(structuredClone(attempt));
  }

  async attempts(timer: string, query: { readonly cursor?: string; readonly limit: number }): Promise<Page<TimerAttempt>> {
    const matching = this.timerAttempts.filter((a) => a.timer === timer).sort(newestFirst((a) => a.at));
    return page(matching, (a) => a.at, query.cursor, query.limit);
  }

  async prune(before: number, perInstance: number): Promise<number> {
    const count = this.jobRuns.length + this.timerAttempts.length;
    const kept = new Map<string, number>();
    this.jobRuns = this.jobRuns
      .filter((r) => r.started >= before)
      .sort(newestFirst((r) => r.started))
      .filter((r) => {
        const key = instanceKeyOf(r);
        const n = (kept.get(key) ?? 0) + 1;
        kept.set(key, n);
        return n <= perInstance;
      });
    this.timerAttempts = this.timerAttempts.filter((a) => a.at >= before);
    return count - this.jobRuns.length - this.timerAttempts.length;
  }
}
