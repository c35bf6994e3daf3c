// The run log in the store's SQLite file (same connection). Each row keeps its run or attempt whole
// as JSON beside the columns it is found and ordered by.
import type Database from "better-sqlite3";
import { cursorKeys, FAILED_OUTCOMES, instanceKeyOf, pageOf, type InstanceKey, type JobRun, type Page, type RunQuery, type RunStore, type TimerAttempt } from "../run-store.js";
import type { SqliteConnection } from "./connection.js";
import { MultiRowStatement } from "./multi-row.js";

const SQL = {
  insertRun: "INSERT OR REPLACE INTO wow_job_runs (id, instance_key, due, started, outcome, kind, data) VALUES (?, ?, ?, ?, ?, ?, ?)",
  setLastRun: `INSERT INTO wow_job_last_runs (instance_key, started, id, data) VALUES (?, ?, ?, ?)
    ON CONFLICT (instance_key) DO UPDATE SET started = excluded.started, id = excluded.id, data = excluded.data
    WHERE excluded.started > wow_job_last_runs.started OR (excluded.started = wow_job_last_runs.started AND excluded.id > wow_job_last_runs.id)`,
  /** Newest first, after the cursor's (started, id) when given; the outcome may name a kind; due in [from, to). */
  runs: `SELECT data FROM wow_job_runs
    WHERE instance_key = @key AND (@outcome IS NULL OR outcome = @outcome OR kind = @outcome)
      AND (@at IS NULL OR started < @at OR (started = @at AND id < @id))
      AND (@from IS NULL OR due >= @from) AND (@to IS NULL OR due < @to)
    ORDER BY started DESC, id DESC LIMIT @limit`,
  lastRuns: "SELECT l.data FROM json_each(?) AS j JOIN wow_job_last_runs AS l ON l.instance_key = j.value",
  ran: "SELECT 1 FROM wow_job_runs WHERE instance_key = ? AND due = ? AND outcome IN ('succeeded', 'failed') LIMIT 1",
  /** Over wow_job_runs_outcome; the instance key is instanceKeyOf's JSON array, the tenant its second element. */
  failedSince: `SELECT count(*) AS n FROM json_each(?) AS o JOIN wow_job_runs AS r ON r.outcome = o.value AND r.started >= ?
    WHERE ? IS NULL OR json_extract(r.instance_key, '$[1]') = ?`,
  attempts: `SELECT data FROM wow_timer_attempts WHERE timer = @timer AND (@at IS NULL OR at < @at OR (at = @at AND id < @id))
    ORDER BY at DESC, id DESC LIMIT @limit`,
  pruneRuns: "DELETE FROM wow_job_runs WHERE started < ?",
  pruneRunsBeyond: `DELETE FROM wow_job_runs WHERE id IN (
    SELECT id FROM (SELECT id, row_number() OVER (PARTITION BY instance_key ORDER BY started DESC, id DESC) AS n FROM wow_job_runs) WHERE n > ?)`,
  pruneAttempts: "DELETE FROM wow_timer_attempts WHERE at < ?",
} as const;

interface RunsParams {
  key: string;
  outcome: string | null;
  at: number | null;
  id: string | null;
  from: number | null;
  to: number | null;
  limit: number;
}

export class SqliteRunStore implements RunStore {
  private readonly stmt;
  private readonly insertAttempts: MultiRowStatement;
  private readonly recordTx;
  private readonly attemptsTx;
  private readonly pruneTx;

  constructor(private readonly c: SqliteConnection) {
    const db: Database.Database = c.db;
    this.stmt = {
      insertRun: db.prepare<[string, string, number, number, string, string, string]>(SQL.insertRun),
      setLastRun: db.prepare<[string, number, string, string]>(SQL.setLastRun),
      runs: db.prepare<[RunsParams], { data: string }>(SQL.runs),
      lastRuns: db.prepare<[string], { data: string }>(SQL.lastRuns),
      ran: db.prepare<[string, number], number>(SQL.ran),
      failedSince: db.prepare<[string, number, string | null, string | null], { n: number }>(SQL.failedSince),
      attempts: db.prepare<[{ timer: string; at: number | null; id: string | null; limit: number }], { data: string }>(SQL.attempts),
      pruneRuns: db.prepare<[number]>(SQL.pruneRuns),
      pruneRunsBeyond: db.prepare<[number]>(SQL.pruneRunsBeyond),
      pruneAttempts: db.prepare<[number]>(SQL.pruneAttempts),
    };
    this.insertAttempts = MultiRowStatement.insert(db, "INSERT OR REPLACE INTO wow_timer_attempts (at, id, timer, data)", 4);
    this.recordTx = db.transaction((run: JobRun) => {
      const key = instanceKeyOf(run);
      const data = JSON.stringify(run);
      this.stmt.insertRun.run(run.id, key, run.due, run.started, run.outcome, run.kind, data);
      this.stmt.setLastRun.run(key, run.started, run.id, data);
    });
    this.attemptsTx = db.transaction((attempts: readonly TimerAttempt[]) => this.insertAttempts.run(attempts.flatMap((a) => [a.at, a.id, a.timer, JSON.stringify(a)])));
    this.pruneTx = db.transaction((before: number, perInstance: number) => {
      return this.stmt.pruneRuns.run(before).changes + this.stmt.pruneRunsBeyond.run(perInstance).changes + this.stmt.pruneAttempts.run(before).changes;
    });
  }

  async record(run: JobRun): Promise<void> {
    this.c.guard(() => this.recordTx.immediate(run));
  }

  async runs(query: RunQuery): Promise<Page<JobRun>> {
    const from = cursorKeys(query.cursor);
    const rows = this.c.guard(() =>
      this.stmt.runs.all({ key: instanceKeyOf(query), outcome: query.outcome ?? null, at: from?.[0] ?? null, id: from?.[1] ?? null, from: query.from ?? null, to: query.to ?? null, limit: query.limit + 1 }),
    );
    return pageOf(rows.map((r) => JSON.parse(r.data) as JobRun), query.limit, (run) => run.started);
  }

  async lastRuns(instances: readonly InstanceKey[]): Promise<Map<string, JobRun>> {
    const rows = this.c.guard(() => this.stmt.lastRuns.all(JSON.stringify(instances.map(instanceKeyOf))));
    return new Map(rows.map((r) => JSON.parse(r.data) as JobRun).map((run) => [instanceKeyOf(run), run]));
  }

  async ran(instance: InstanceKey, due: number): Promise<boolean> {
    return this.c.guard(() => this.stmt.ran.pluck().get(instanceKeyOf(instance), due) !== undefined);
  }

  async failedSince(since: number, tenantId?: string): Promise<number> {
    return this.c.guard(() => this.stmt.failedSince.get(JSON.stringify(FAILED_OUTCOMES), since, tenantId ?? null, tenantId ?? null)!.n);
  }

  async recordAttempts(attempts: readonly TimerAttempt[]): Promise<void> {
    if (attempts.length > 0) this.c.guard(() => this.attemptsTx.immediate(attempts));
  }

  async attempts(timer: string, query: { readonly cursor?: string; readonly limit: number }): Promise<Page<TimerAttempt>> {
    const from = cursorKeys(query.cursor);
    const rows = this.c.guard(() => this.stmt.attempts.all({ timer, at: from?.[0] ?? null, id: from?.[1] ?? null, limit: query.limit + 1 }));
    return pageOf(rows.map((r) => JSON.parse(r.data) as TimerAttempt), query.limit, (a) => a.at);
  }

  async prune(before: number, perInstance: number): Promise<number> {
    return this.c.guard(() => this.pruneTx.immediate(before, perInstance));
  }
}
