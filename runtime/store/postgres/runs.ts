// The run log in PostgreSQL (the store's schema). Each row keeps its run or attempt whole as JSON
// beside the columns it is found and ordered by.
import { cursorKeys, FAILED_OUTCOMES, instanceKeyOf, pageOf, type InstanceKey, type JobRun, type Page, type RunQuery, type RunStore, type TimerAttempt } from "../run-store.js";
import type { PgConnection } from "./connection.js";

export class PgRunStore implements RunStore {
  constructor(private readonly c: PgConnection) {}

  async record(run: JobRun): Promise<void> {
    const key = instanceKeyOf(run);
    const data = JSON.stringify(run);
    await this.c.transaction(async (tx) => {
      await tx.run(this.c.sql.insertRun, [run.id, key, run.due, run.started, run.outcome, run.kind, data]);
      await tx.run(this.c.sql.setLastRun, [key, run.started, run.id, data]);
    });
  }

  async runs(query: RunQuery): Promise<Page<JobRun>> {
    const from = cursorKeys(query.cursor);
    const rows = await this.c.query<{ data: string }>(this.c.sql.runs, [instanceKeyOf(query), query.outcome ?? null, from?.[0] ?? null, from?.[1] ?? null, query.from ?? null, query.to ?? null, query.limit + 1]);
    return pageOf(rows.map((r) => JSON.parse(r.data) as JobRun), query.limit, (run) => run.started);
  }

  async lastRuns(instances: readonly InstanceKey[]): Promise<Map<string, JobRun>> {
    const rows = await this.c.query<{ data: string }>(this.c.sql.lastRuns, [instances.map(instanceKeyOf)]);
    return new Map(rows.map((r) => JSON.parse(r.data) as JobRun).map((run) => [instanceKeyOf(run), run]));
  }

  async ran(instance: InstanceKey, due: number): Promise<boolean> {
    return (await this.c.query(this.c.sql.ran, [instanceKeyOf(instance), due])).length > 0;
  }

  async failedSince(since: number, tenantId?: string): Promise<number> {
    const [row] = await this.c.query<{ n: number }>(this.c.sql.failedSince, [FAILED_OUTCOMES, since, tenantId ?? null]);
    return row!.n;
  }

  async recordAttempts(attempts: readonly TimerAttempt[]): Promise<void> {
    if (attempts.length === 0) return;
    // One row per (at, id): the last of a repeated key wins, as the statement could not take it twice.
    const unique = [...new Map(attempts.map((a) => [`${a.at}\u0000${a.id}`, a])).values()];
    await this.c.query(this.c.sql.insertAttempts, [unique.map((a) => a.at), unique.map((a) => a.id), unique.map((a) => a.timer), unique.map((a) => JSON.stringify(a))]);
  }

  async attempts(timer: string, query: { readonly cursor?: string; readonly limit: number }): Promise<Page<TimerAttempt>> {
    const from = cursorKeys(query.cursor);
    const rows = await this.c.query<{ data: string }>(this.c.sql.attempts, [timer, from?.[0] ?? null, from?.[1] ?? null, query.limit + 1]);
    return pageOf(rows.map((r) => JSON.parse(r.data) as TimerAttempt), query.limit, (a) => a.at);
  }

  async prune(before: number, perInstance: number): Promise<number> {
    return this.c.transaction(async (tx) => (await tx.run(this.c.sql.pruneRuns, [before])) + (await tx.run(this.c.sql.pruneRunsBeyond, [perInstance])) + (await tx.run(this.c.sql.pruneAttempts, [before])));
  }
}
