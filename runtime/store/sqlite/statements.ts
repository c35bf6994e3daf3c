// Every SQL statement of the SQLite store, one named text each (rows read by column name). Stream keys
// are `refKey`s; a slot's request id is `slotRequestIdSql`, written beside `slotRequestId`, so the
// request-id format is defined in one place.
import type Database from "better-sqlite3";
import { slotRequestIdSql } from "../../model/request-ids.js";
import type { EventRow, ParkedEventRow, RequestColumns, TimerColumns } from "../sql-rows.js";
import { NamedRows } from "./named-rows.js";

/** The timer columns every timer read returns. */
export const TIMER_COLUMNS = "t.id, t.owner, t.spec, t.key, t.slot, t.due, t.fire_at, t.status, t.attempts, t.last_error, t.parked_at, t.target";

/**
 * Columns `version` (null: no events), `deleted` (0/1) and `snapshot_version` (null: none) of the
 * stream `stream` (an SQL expression).
 */
const streamState = (stream: string) => `(SELECT e.version FROM wow_events AS e WHERE e.stream = ${stream} ORDER BY e.version DESC LIMIT 1) AS version,
  EXISTS (SELECT 1 FROM wow_deleted AS d WHERE d.stream = ${stream}) AS deleted,
  (SELECT s.version FROM wow_snapshots AS s WHERE s.stream = ${stream}) AS snapshot_version`;

export const SQL = {
  /** A stream's version is its last event's (one index seek); a deleted stream has a `wow_deleted` row. */
  streamState: `SELECT ${streamState("k.stream")} FROM (SELECT ? AS stream) AS k`,
  streamEvents: "SELECT position, version, sequence, type, data FROM wow_events WHERE stream = ? ORDER BY version, sequence",
  streamEventsAfter: "SELECT position, version, sequence, type, data FROM wow_events WHERE stream = ? AND version > ? ORDER BY version, sequence",
  snapshot: "SELECT version, state FROM wow_snapshots WHERE stream = ?",
  /** A snapshot replaces an older one only. */
  saveSnapshot: `INSERT INTO wow_snapshots (stream, version, state) VALUES (?, ?, ?)
    ON CONFLICT (stream) DO UPDATE SET version = excluded.version, state = excluded.state WHERE excluded.version > wow_snapshots.version`,
  request: "SELECT version, error_code FROM wow_requests WHERE stream = ? AND request_id = ?",
  streamAndRequest: `SELECT ${streamState("k.stream")}, r.version AS request_version, r.error_code
    FROM (SELECT ? AS stream) AS k
    LEFT JOIN wow_requests AS r ON r.stream = k.stream AND r.request_id = ?`,
  insertRequest: "INSERT OR IGNORE INTO wow_requests (stream, request_id, version, error_code) VALUES (?, ?, ?, ?)",
  markDeleted: "INSERT OR IGNORE INTO wow_deleted (stream) VALUES (?)",
  insertEvent: "INSERT INTO wow_events (stream, version, sequence, type, data) VALUES (?, ?, ?, ?, ?)",
  lastPosition: "SELECT max(position) AS position FROM wow_events",
  readEvents: "SELECT position, version, sequence, type, data, stream FROM wow_events WHERE position > ? ORDER BY position LIMIT ?",
  /** Changes by this connection and by others: equal marks mean nothing was written in between. */
  writeMark: "SELECT total_changes() AS changes, (SELECT data_version FROM pragma_data_version()) AS data_version",

  /** Setting a key again replaces its timer (new id, spec and slot; pending, attempts reset) in one statement. */
  setTimer: `INSERT INTO wow_timers (id, owner, tenant_id, aggregate_id, key, target, spec, command_type, slot, due, fire_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (owner, key) DO UPDATE SET id = excluded.id, target = excluded.target, spec = excluded.spec, command_type = excluded.command_type, slot = excluded.slot, due = excluded.due,
      fire_at = excluded.fire_at, status = 0, attempts = 0, last_error = NULL, parked_at = NULL`,
  cancelTimer: "DELETE FROM wow_timers WHERE owner = ? AND key = ?",
  cancelTimersOf: "DELETE FROM wow_timers WHERE owner = ?",
  /**
   * Due timers, the earliest to fire first (not sorted by due: the claim does that, for less than SQLite's
   * sorter costs), each with what its current slot's command meets: its target stream's state and the
   * slot's request record.
   */
  dueWithInputs: `SELECT ${TIMER_COLUMNS}, t.rowid AS row, ${streamState("t.stream")}, r.version AS request_version, r.error_code
    FROM (SELECT *, rowid, coalesce(target, owner) AS stream FROM wow_timers WHERE status = 0 AND fire_at <= ? ORDER BY fire_at LIMIT ?) AS t
    LEFT JOIN wow_requests AS r ON r.request_id = ${slotRequestIdSql("t.id", "t.slot")} AND r.stream = t.stream`,
  nextDueAt: "SELECT MIN(fire_at) AS at FROM wow_timers WHERE status = 0",
  countDue: "SELECT count(*) AS n FROM wow_timers WHERE status = 0 AND fire_at <= ?",
  countParkedTimers: "SELECT count(*) AS n FROM wow_timers WHERE status = 1",
  // A tenant's counts (indexed: wow_timers_tenant, wow_timers_parked_tenant).
  countDueOf: "SELECT count(*) AS n FROM wow_timers WHERE tenant_id = ? AND status = 0 AND fire_at <= ?",
  countParkedTimersOf: "SELECT count(*) AS n FROM wow_timers WHERE tenant_id = ? AND status = 1",
  countParkedEvents: "SELECT count(*) AS n FROM wow_subscription_parked",
  countParkedEventsOf: "SELECT count(*) AS n FROM wow_subscription_parked WHERE json_extract(event, '$.aggregate.tenantId') = ?",
  /** Ends many slots at once: the parameter is a JSON array of [id, slot]. */
  settleDone: `DELETE FROM wow_timers WHERE rowid IN (
    SELECT t.rowid FROM json_each(?) AS j JOIN wow_timers AS t ON t.id = j.value ->> 0 AND t.slot = j.value ->> 1 AND t.status = 0)`,
  settleNext: "UPDATE wow_timers SET slot = ?, due = ?, fire_at = ?, attempts = 0, last_error = NULL WHERE id = ? AND slot = ? AND status = 0",
  settleRetry: "UPDATE wow_timers SET attempts = ?, fire_at = ?, last_error = ? WHERE id = ? AND slot = ? AND status = 0",
  settlePark: "UPDATE wow_timers SET status = 1, attempts = ?, last_error = ?, parked_at = ? WHERE id = ? AND slot = ? AND status = 0",
  timer: `SELECT ${TIMER_COLUMNS} FROM wow_timers AS t WHERE t.id = ?`,
  timersOf: `SELECT ${TIMER_COLUMNS} FROM wow_timers AS t WHERE t.owner = ? ORDER BY t.key`,
  redrive: "UPDATE wow_timers SET status = 0, attempts = 0, fire_at = ?, parked_at = NULL WHERE id = ? AND status = 1",

  checkpoint: "SELECT position FROM wow_subscription_checkpoints WHERE subscription = ?",
  saveCheckpoint: "INSERT INTO wow_subscription_checkpoints (subscription, position) VALUES (?, ?) ON CONFLICT (subscription) DO UPDATE SET position = excluded.position",
  park: `INSERT INTO wow_subscription_parked (id, subscription, position, event, attempts, error, parked_at) VALUES (?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (id) DO UPDATE SET attempts = excluded.attempts, error = excluded.error, parked_at = excluded.parked_at`,
  /** Parked events after a listed one (its parked_at and id; -1 and "" from the start), in parking order. */
  parkedEvents: "SELECT id, subscription, position, event, attempts, error, parked_at FROM wow_subscription_parked WHERE (parked_at, id) > (?, ?) ORDER BY parked_at, id LIMIT ?",
  parkedEventsOf: `SELECT id, subscription, position, event, attempts, error, parked_at FROM wow_subscription_parked
    WHERE json_extract(event, '$.aggregate.tenantId') = ? AND (parked_at, id) > (?, ?) ORDER BY parked_at, id LIMIT ?`,
  parkedEvent: "SELECT id, subscription, position, event, attempts, error, parked_at FROM wow_subscription_parked WHERE id = ?",
  unpark: "DELETE FROM wow_subscription_parked WHERE id = ?",
  rememberInstance: "INSERT OR IGNORE INTO wow_job_instances (key, ref) VALUES (?, ?)",
  instances: "SELECT ref FROM wow_job_instances ORDER BY key",
} as const;

/** A stream's state as `streamState` reads it. */
export interface StreamStateRow {
  readonly version: number | null;
  readonly deleted: number;
  readonly snapshot_version: number | null;
}

export interface StreamAndRequestRow extends StreamStateRow, RequestColumns {}

/** A due timer (`dueWithInputs`): its columns, its rowid, its target stream's state and its slot's request record. */
export interface DueRow extends TimerColumns, StreamAndRequestRow {
  readonly row: number;
}

/** The statements, prepared on one connection (their parameters and rows typed here). */
export interface Statements {
  readonly streamState: NamedRows<[string], StreamStateRow>;
  readonly streamEvents: NamedRows<[string], EventRow>;
  readonly streamEventsAfter: NamedRows<[string, number], EventRow>;
  readonly snapshot: NamedRows<[string], { version: number; state: string }>;
  readonly saveSnapshot: Database.Statement<[string, number, string]>;
  readonly request: NamedRows<[string, string], { version: number; error_code: string }>;
  readonly streamAndRequest: NamedRows<[string, string], StreamAndRequestRow>;
  readonly insertRequest: Database.Statement<[string, string, number, string]>;
  readonly markDeleted: Database.Statement<[string]>;
  readonly insertEvent: Database.Statement<[string, number, number, string, string]>;
  readonly lastPosition: NamedRows<[], { position: number | null }>;
  readonly readEvents: NamedRows<[number, number], EventRow & { stream: string }>;
  readonly writeMark: NamedRows<[], { changes: number; data_version: number }>;
  readonly setTimer: Database.Statement<[string, string, string, string, string, string | null, string, string, number, number, number]>;
  readonly cancelTimer: Database.Statement<[string, string]>;
  readonly cancelTimersOf: Database.Statement<[string]>;
  readonly dueWithInputs: NamedRows<[number, number], DueRow>;
  readonly nextDueAt: NamedRows<[], { at: number | null }>;
  readonly settleDone: Database.Statement<[string]>;
  readonly settleNext: Database.Statement<[number, number, number, string, number]>;
  readonly settleRetry: Database.Statement<[number, number, string, string, number]>;
  readonly settlePark: Database.Statement<[number, string, number, string, number]>;
  readonly timer: NamedRows<[string], TimerColumns>;
  readonly timersOf: NamedRows<[string], TimerColumns>;
  readonly redrive: Database.Statement<[number, string]>;
  readonly checkpoint: NamedRows<[string], { position: number }>;
  readonly saveCheckpoint: Database.Statement<[string, number]>;
  readonly park: Database.Statement<[string, string, number, string, number, string, number]>;
  readonly parkedEvents: NamedRows<[number, string, number], ParkedEventRow>;
  readonly countDue: NamedRows<[number], { n: number }>;
  readonly countParkedTimers: NamedRows<[], { n: number }>;
  readonly countDueOf: NamedRows<[string, number], { n: number }>;
  readonly countParkedTimersOf: NamedRows<[string], { n: number }>;
  readonly countParkedEvents: NamedRows<[], { n: number }>;
  readonly countParkedEventsOf: NamedRows<[string], { n: number }>;
  readonly parkedEventsOf: NamedRows<[string, number, string, number], ParkedEventRow>;
  readonly parkedEvent: NamedRows<[string], ParkedEventRow>;
  readonly unpark: Database.Statement<[string]>;
  readonly rememberInstance: Database.Statement<[string, string]>;
  readonly instances: NamedRows<[], { ref: string }>;
}

/** Prepares every statement of `SQL` on `db`; a reading one gives its rows as `NamedRows`. */
export function prepareStatements(db: Database.Database): Statements {
  const prepared: Record<string, Database.Statement | NamedRows<unknown[], unknown>> = {};
  for (const [name, sql] of Object.entries(SQL)) {
    const statement = db.prepare(sql);
    prepared[name] = statement.reader ? new NamedRows(statement) : statement;
  }
  return prepared as unknown as Statements;
}
