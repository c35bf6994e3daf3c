// Every SQL statement of the PostgreSQL store, one named text each, for the store's (quoted) schema;
// rows are read by column name. Each is prepared once per connection (by its name). Many-row writes
// take one array per column and `unnest` them: one statement per table per batch.
import type { RequestColumns } from "../sql-rows.js";

/** A statement: its text and the name it is prepared under. */
export interface Statement {
  readonly name: string;
  readonly text: string;
}

/** The timer columns every timer read returns. */
export const TIMER = "t.id, t.owner, t.spec, t.key, t.slot, t.due, t.fire_at, t.status, t.attempts, t.last_error, t.parked_at, t.target";

/** A timer's tenant, a column written with the timer (indexed). */
export const TENANT_OF_TIMER = "t.tenant_id";
/** A parked event's tenant (indexed). */
const TENANT_OF_EVENT = "(event::jsonb -> 'aggregate' ->> 'tenantId')";

function texts(s: string) {
  return {
    /** A stream's state (no row: version 0, not deleted) and its snapshot's version. */
    streamState: `SELECT s.version, s.deleted, sn.version AS snapshot_version
      FROM (SELECT $1::text AS stream) AS k LEFT JOIN ${s}.wow_streams AS s ON s.stream = k.stream LEFT JOIN ${s}.wow_snapshots AS sn ON sn.stream = k.stream`,
    streamAndRequest: `SELECT s.version, s.deleted, sn.version AS snapshot_version, r.version AS request_version, r.error_code
      FROM (SELECT $1::text AS stream) AS k LEFT JOIN ${s}.wow_streams AS s ON s.stream = k.stream LEFT JOIN ${s}.wow_snapshots AS sn ON sn.stream = k.stream
      LEFT JOIN ${s}.wow_requests AS r ON r.stream = k.stream AND r.request_id = $2`,
    /** Many streams' states with a request each (`$2[i]` for `$1[i]`): what due timers' slots meet. */
    streamsAndRequests: `SELECT k.i, s.version, s.deleted, sn.version AS snapshot_version, r.version AS request_version, r.error_code
      FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS k(stream, request_id, i)
      LEFT JOIN ${s}.wow_streams AS s ON s.stream = k.stream LEFT JOIN ${s}.wow_snapshots AS sn ON sn.stream = k.stream
      LEFT JOIN ${s}.wow_requests AS r ON r.stream = k.stream AND r.request_id = k.request_id`,
    streamEvents: `SELECT position, version, sequence, type, data FROM ${s}.wow_events WHERE stream = $1 AND version > $2 ORDER BY version, sequence`,
    /** The events of many streams, each after its own version (`$2[i]` for `$1[i]`). */
    streamsEvents: `SELECT e.stream, e.position, e.version, e.sequence, e.type, e.data
      FROM unnest($1::text[], $2::integer[]) AS k(stream, after) JOIN ${s}.wow_events AS e ON e.stream = k.stream AND e.version > k.after
      ORDER BY e.stream, e.version, e.sequence`,
    snapshots: `SELECT stream, version, state FROM ${s}.wow_snapshots WHERE stream = ANY($1::text[])`,
    request: `SELECT version, error_code FROM ${s}.wow_requests WHERE stream = $1 AND request_id = $2`,
    lastPosition: `SELECT coalesce(max(position), 0) AS position FROM ${s}.wow_events`,
    readEvents: `SELECT position, version, sequence, type, data, stream FROM ${s}.wow_events WHERE position > $1 ORDER BY position LIMIT $2`,

    // The writes of a commit (or a batch of them), in the order `writeEntries` runs them.
    /** Every stream a commit writes has a row to lock. */
    ensureStreams: `INSERT INTO ${s}.wow_streams (stream) SELECT unnest($1::text[]) ORDER BY 1 ON CONFLICT (stream) DO NOTHING`,
    /** Locks the streams (in key order: concurrent batches lock in one order) and reads them as they are now. */
    lockStreams: `SELECT stream, version, deleted FROM ${s}.wow_streams WHERE stream = ANY($1::text[]) ORDER BY stream FOR UPDATE`,
    /** Which of the (stream, request id) pairs are recorded. */
    recordedRequests: `SELECT r.stream, r.request_id FROM unnest($1::text[], $2::text[]) AS k(stream, request_id)
      JOIN ${s}.wow_requests AS r ON r.stream = k.stream AND r.request_id = k.request_id`,
    insertRequests: `INSERT INTO ${s}.wow_requests (stream, request_id, version, error_code)
      SELECT * FROM unnest($1::text[], $2::text[], $3::integer[], $4::text[])`,
    cancelTimersOf: `DELETE FROM ${s}.wow_timers WHERE owner = ANY($1::text[])`,
    cancelTimers: `DELETE FROM ${s}.wow_timers AS t USING unnest($1::text[], $2::text[]) AS k(owner, key) WHERE t.owner = k.owner AND t.key = k.key`,
    /** Setting a key again replaces its timer (new id, spec and slot; pending, attempts reset). */
    setTimers: `INSERT INTO ${s}.wow_timers (id, owner, key, target, spec, slot, due, fire_at, command_type, tenant_id, aggregate_id)
      SELECT id, owner, key, target, spec, slot, due, due, command_type, tenant_id, aggregate_id
        FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::integer[], $7::bigint[], $8::text[], $9::text[], $10::text[])
        AS k(id, owner, key, target, spec, slot, due, command_type, tenant_id, aggregate_id)
      ON CONFLICT (owner, key) DO UPDATE SET id = excluded.id, target = excluded.target, spec = excluded.spec, command_type = excluded.command_type, slot = excluded.slot, due = excluded.due,
        fire_at = excluded.fire_at, status = 0, attempts = 0, last_error = NULL, parked_at = NULL, claimed_by = NULL`,
    settleDone: `DELETE FROM ${s}.wow_timers AS t USING unnest($1::text[], $2::integer[]) AS k(id, slot) WHERE t.id = k.id AND t.slot = k.slot AND t.status = 0`,
    settleNext: `UPDATE ${s}.wow_timers AS t SET slot = k.next, due = k.due, fire_at = k.due, attempts = 0, last_error = NULL, claimed_by = NULL
      FROM unnest($1::text[], $2::integer[], $3::integer[], $4::bigint[]) AS k(id, slot, next, due) WHERE t.id = k.id AND t.slot = k.slot AND t.status = 0`,
    settleRetry: `UPDATE ${s}.wow_timers AS t SET attempts = k.attempts, fire_at = k.fire_at, last_error = k.error, claimed_by = NULL
      FROM unnest($1::text[], $2::integer[], $3::integer[], $4::bigint[], $5::text[]) AS k(id, slot, attempts, fire_at, error) WHERE t.id = k.id AND t.slot = k.slot AND t.status = 0`,
    settlePark: `UPDATE ${s}.wow_timers AS t SET status = 1, attempts = k.attempts, last_error = k.error, parked_at = k.at, claimed_by = NULL
      FROM unnest($1::text[], $2::integer[], $3::integer[], $4::text[], $5::bigint[]) AS k(id, slot, attempts, error, at) WHERE t.id = k.id AND t.slot = k.slot AND t.status = 0`,
    /** A snapshot replaces an older one only. */
    saveSnapshots: `INSERT INTO ${s}.wow_snapshots (stream, version, state) SELECT * FROM unnest($1::text[], $2::integer[], $3::text[])
      ON CONFLICT (stream) DO UPDATE SET version = excluded.version, state = excluded.state WHERE excluded.version > ${s}.wow_snapshots.version`,
    updateStreams: `UPDATE ${s}.wow_streams AS t SET version = k.version, deleted = k.deleted
      FROM unnest($1::text[], $2::integer[], $3::boolean[]) AS k(stream, version, deleted) WHERE t.stream = k.stream`,
    /** Reserves `$1` positions: the row stays locked until the transaction ends, so the next one numbers after it, once it is visible. */
    reservePositions: `UPDATE ${s}.wow_positions SET last = last + $1 RETURNING last`,
    insertEvents: `INSERT INTO ${s}.wow_events (position, stream, version, sequence, type, data)
      SELECT * FROM unnest($1::bigint[], $2::text[], $3::integer[], $4::integer[], $5::text[], $6::text[])`,

    /**
     * Run before `claimDue` in its transaction: the claim walks the pending index by fire_at and stops at
     * its limit. Without it, on a table whose statistics predate a burst of timers (a bulk load, before
     * autovacuum analyzes it), the planner takes every due row and sorts them (130 ms a claim at 100,000
     * due instead of under 1 ms).
     */
    claimPlan: "SET LOCAL enable_sort = off",
    /** Claims due timers: leased to `$4` until `$3` (a claimer skips rows another is claiming), earliest due first; each claim counts up `claims`, its fencing token. */
    claimDue: `WITH due AS (
        SELECT id FROM ${s}.wow_timers WHERE status = 0 AND fire_at <= $1 ORDER BY fire_at LIMIT $2 FOR UPDATE SKIP LOCKED
      )
      UPDATE ${s}.wow_timers AS t SET fire_at = $3, claimed_by = $4, claims = t.claims + 1 FROM due WHERE t.id = due.id
      RETURNING ${TIMER}, t.claims`,
    /**
     * Locks the claimed timers (`$1[i]` claimed with token `$2[i]` by `$3`) that still exist, in id order,
     * and tells which another claim has taken since (lost): a settlement or commit under those writes nothing.
     */
    holdClaims: `SELECT t.id, (t.claims <> k.claims OR t.claimed_by IS DISTINCT FROM $3) AS lost
      FROM unnest($1::text[], $2::bigint[]) AS k(id, claims) JOIN ${s}.wow_timers AS t ON t.id = k.id
      ORDER BY t.id FOR UPDATE OF t`,
    nextDueAt: `SELECT min(fire_at) AS at FROM ${s}.wow_timers WHERE status = 0`,
    countDue: `SELECT count(*)::integer AS n FROM ${s}.wow_timers WHERE status = 0 AND fire_at <= $1`,
    countParkedTimers: `SELECT count(*)::integer AS n FROM ${s}.wow_timers WHERE status = 1`,
    countDueOf: `SELECT count(*)::integer AS n FROM ${s}.wow_timers AS t WHERE ${TENANT_OF_TIMER} = $1 AND t.status = 0 AND t.fire_at <= $2`,
    countParkedTimersOf: `SELECT count(*)::integer AS n FROM ${s}.wow_timers AS t WHERE ${TENANT_OF_TIMER} = $1 AND t.status = 1`,
    timer: `SELECT ${TIMER} FROM ${s}.wow_timers AS t WHERE t.id = $1`,
    timersOf: `SELECT ${TIMER} FROM ${s}.wow_timers AS t WHERE t.owner = $1 ORDER BY t.key`,
    redrive: `UPDATE ${s}.wow_timers SET status = 0, attempts = 0, fire_at = $1, parked_at = NULL, claimed_by = NULL WHERE id = $2 AND status = 1`,

    checkpoint: `SELECT position FROM ${s}.wow_subscription_checkpoints WHERE subscription = $1`,
    /** Commits without waiting for the WAL flush (`ASYNC_COMMIT`): a checkpoint lost to a server crash only means events handled again. */
    saveCheckpoint: `INSERT INTO ${s}.wow_subscription_checkpoints (subscription, position) SELECT $1, $2 WHERE ${ASYNC_COMMIT}
      ON CONFLICT (subscription) DO UPDATE SET position = excluded.position`,
    park: `INSERT INTO ${s}.wow_subscription_parked (id, subscription, position, event, attempts, error, parked_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
      ON CONFLICT (id) DO UPDATE SET attempts = excluded.attempts, error = excluded.error, parked_at = excluded.parked_at`,
    /** Parked events after a listed one (its parked_at and id; -1 and "" from the start), in parking order. */
    parkedEvents: `SELECT id, subscription, position, event, attempts, error, parked_at FROM ${s}.wow_subscription_parked
      WHERE (parked_at, id) > ($1, $2) ORDER BY parked_at, id LIMIT $3`,
    parkedEventsOf: `SELECT id, subscription, position, event, attempts, error, parked_at FROM ${s}.wow_subscription_parked
      WHERE ${TENANT_OF_EVENT} = $1 AND (parked_at, id) > ($2, $3) ORDER BY parked_at, id LIMIT $4`,
    countParkedEventsOf: `SELECT count(*)::integer AS n FROM ${s}.wow_subscription_parked WHERE ${TENANT_OF_EVENT} = $1`,
    parkedEvent: `SELECT id, subscription, position, event, attempts, error, parked_at FROM ${s}.wow_subscription_parked WHERE id = $1`,
    countParkedEvents: `SELECT count(*)::integer AS n FROM ${s}.wow_subscription_parked`,
    unpark: `DELETE FROM ${s}.wow_subscription_parked WHERE id = $1`,
    rememberInstance: `INSERT INTO ${s}.wow_job_instances (key, ref) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING`,
    instances: `SELECT ref FROM ${s}.wow_job_instances ORDER BY key`,

    insertRun: `INSERT INTO ${s}.wow_job_runs (id, instance_key, due, started, outcome, kind, data) VALUES ($1, $2, $3, $4, $5, $6, $7)
      ON CONFLICT (id) DO UPDATE SET instance_key = excluded.instance_key, due = excluded.due, started = excluded.started, outcome = excluded.outcome,
        kind = excluded.kind, data = excluded.data`,
    setLastRun: `INSERT INTO ${s}.wow_job_last_runs AS l (instance_key, started, id, data) VALUES ($1, $2, $3, $4)
      ON CONFLICT (instance_key) DO UPDATE SET started = excluded.started, id = excluded.id, data = excluded.data
      WHERE excluded.started > l.started OR (excluded.started = l.started AND excluded.id > l.id)`,
    /** Newest first, after the cursor's (started, id) when given; the outcome may name a kind; due in [from, to). */
    runs: `SELECT data FROM ${s}.wow_job_runs
      WHERE instance_key = $1 AND ($2::text IS NULL OR outcome = $2 OR kind = $2)
        AND ($3::bigint IS NULL OR started < $3 OR (started = $3 AND id < $4))
        AND ($5::bigint IS NULL OR due >= $5) AND ($6::bigint IS NULL OR due < $6)
      ORDER BY started DESC, id DESC LIMIT $7`,
    lastRuns: `SELECT data FROM ${s}.wow_job_last_runs WHERE instance_key = ANY($1::text[])`,
    /** Runs that failed since `$2` (of one tenant's instances, when `$3`): the instance key is instanceKeyOf's JSON array, the tenant its second element. */
    failedSince: `SELECT count(*)::integer AS n FROM ${s}.wow_job_runs
      WHERE outcome = ANY($1::text[]) AND started >= $2 AND ($3::text IS NULL OR (instance_key::jsonb ->> 1) = $3)`,
    ran: `SELECT 1 AS ran FROM ${s}.wow_job_runs WHERE instance_key = $1 AND due = $2 AND outcome IN ('succeeded', 'failed') LIMIT 1`,
    insertAttempts: `INSERT INTO ${s}.wow_timer_attempts (at, id, timer, data) SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[])
      ON CONFLICT (at, id) DO UPDATE SET timer = excluded.timer, data = excluded.data`,
    attempts: `SELECT data FROM ${s}.wow_timer_attempts WHERE timer = $1 AND ($2::bigint IS NULL OR at < $2 OR (at = $2 AND id < $3))
      ORDER BY at DESC, id DESC LIMIT $4`,
    pruneRuns: `DELETE FROM ${s}.wow_job_runs WHERE started < $1`,
    pruneRunsBeyond: `DELETE FROM ${s}.wow_job_runs WHERE id IN (
      SELECT id FROM (SELECT id, row_number() OVER (PARTITION BY instance_key ORDER BY started DESC, id DESC) AS n FROM ${s}.wow_job_runs) AS ranked WHERE n > $1)`,
    pruneAttempts: `DELETE FROM ${s}.wow_timer_attempts WHERE at < $1`,

    /** What readiness asks: the server answers. */
    probe: "SELECT 1",
  } as const;
}

export type StatementName = keyof ReturnType<typeof texts>;
export type Statements = { readonly [K in StatementName]: Statement };

/**
 * A condition that is always true and turns off `synchronous_commit` for the statement's own
 * transaction: its commit returns without waiting for the WAL to reach the disk (a server crash may
 * lose the last few hundred milliseconds of such writes). For writes whose loss is harmless.
 */
export const ASYNC_COMMIT = "set_config('synchronous_commit', 'off', true) IS NOT NULL";

/** The statements for the quoted schema `s`. */
export function statements(s: string): Statements {
  const named: Partial<Record<StatementName, Statement>> = {};
  for (const [name, text] of Object.entries(texts(s)) as [StatementName, string][]) named[name] = { name: `wow_${name}`, text };
  return named as Statements;
}

/** A stream's state as `streamState` reads it (no row: nulls). */
export interface StreamStateRow {
  readonly version: number | null;
  readonly deleted: boolean | null;
  readonly snapshot_version: number | null;
}

export interface StreamAndRequestRow extends StreamStateRow, RequestColumns {}

