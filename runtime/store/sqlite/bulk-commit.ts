// A timer batch's commits written in multi-row statements, when what the claim read is still current:
// each commit is checked in JS against the streams as read, then each table is written a chunk of rows
// per statement.
import type Database from "better-sqlite3";
import type { EventMessage } from "../../model/messages.js";
import { UnstorableCommitError } from "../errors.js";
import type { CommitData } from "../stored-json.js";
import { atPosition } from "../stored-json.js";
import type { BatchEntry, BatchOutcome, DueBatch, TimerSettlement } from "../timer-store.js";
import type { SqliteConnection, StreamState } from "./connection.js";
import { MultiRowStatement } from "./multi-row.js";

/** A batch entry's JSON (`commitData`), or why it cannot be stored; undefined without a commit. */
export type EntryData = CommitData | UnstorableCommitError | undefined;

/** `total_changes()` (rows this connection changed) and `data_version` (moves when another connection commits). */
export type WriteMark = [changes: number, dataVersion: number];

/** What the claim read, current in this transaction. */
export interface ReadStreams {
  /** Stream states by key. */
  readonly streams: ReadonlyMap<string, StreamState>;
  /** Each request the claim found not yet recorded: its request id → its stream. */
  readonly undecided: ReadonlyMap<string, string>;
  readonly batch: DueBatch;
  /** `rows[i]`: the rowid of `batch.timers[i]`. */
  readonly rows: readonly number[];
}

/** The many-row statements of a bulk commit. */
export interface BulkStatements {
  readonly requests: MultiRowStatement;
  readonly events: MultiRowStatement;
  readonly endTimers: MultiRowStatement;
}

export function bulkStatements(db: Database.Database): BulkStatements {
  // OR FAIL: a row that breaks a constraint ends the statement without undoing its earlier rows (the batch's
  // transaction is rolled back anyway), so SQLite keeps no statement journal for these many-row statements.
  return {
    requests: MultiRowStatement.insert(db, "INSERT OR FAIL INTO wow_requests (stream, request_id, version, error_code)", 4),
    events: MultiRowStatement.insert(db, "INSERT OR FAIL INTO wow_events (position, stream, version, sequence, type, data)", 6),
    endTimers: new MultiRowStatement(db, 1, (rows) => `DELETE FROM wow_timers WHERE rowid IN (${new Array<string>(rows).fill("?").join(", ")})`),
  };
}

/**
 * The outcomes, or `undefined` having written nothing: a commit would be refused (its version, or a
 * request id twice in the batch), or the claim did not read its stream and request (it might be
 * recorded), or one cannot be stored; the one-by-one path then decides each commit's fate.
 */
export function commitBulk(c: SqliteConnection, s: BulkStatements, entries: readonly BatchEntry[], data: readonly EntryData[], read: ReadStreams): BatchOutcome[] | undefined {
  const keys = new Array<string | undefined>(entries.length);
  const versions = new Array<number>(entries.length);
  const states = new Map<string, StreamState>();
  /** Request ids this batch records: a second is refused. */
  const requests = new Set<string>();
  let timersChanged = false;
  for (let i = 0; i < entries.length; i++) {
    const commit = entries[i]!.commit;
    if (commit === undefined) continue;
    if (data[i] instanceof UnstorableCommitError) return undefined;
    timersChanged ||= commit.timers.length > 0;
    const key = c.keyOf(commit.aggregate);
    const state = states.get(key) ?? read.streams.get(key);
    if (state === undefined || (commit.expectedVersion !== undefined && commit.expectedVersion !== state.version)) return undefined;
    const requestId = commit.request.requestId;
    if (read.undecided.get(requestId) !== key || requests.has(requestId)) return undefined;
    requests.add(requestId);
    const version = commit.events.length > 0 ? commit.events[0]!.version : state.version;
    states.set(key, { version, deleted: state.deleted || commit.deleted === true });
    keys[i] = key;
    versions[i] = version;
  }
  // (No entry's data is an UnstorableCommitError: checked above.)
  return writeBulk(c, s, entries, data as readonly (CommitData | undefined)[], keys, versions, timersChanged ? undefined : read);
}

/** The writes; `keys[i]`: entry i's stream, if it commits; `read`: given when no commit changed a timer (the claimed rows are as read). */
function writeBulk(
  c: SqliteConnection,
  s: BulkStatements,
  entries: readonly BatchEntry[],
  data: readonly (CommitData | undefined)[],
  keys: readonly (string | undefined)[],
  versions: readonly number[],
  read: ReadStreams | undefined,
): BatchOutcome[] {
  const requests: unknown[] = [];
  const events: unknown[] = [];
  const outcomes = new Array<BatchOutcome>(entries.length);
  let position = c.stmt.lastPosition.get()?.position ?? 0;
  for (let i = 0; i < entries.length; i++) {
    const commit = entries[i]!.commit;
    if (commit === undefined) {
      outcomes[i] = { ok: true };
      continue;
    }
    const key = keys[i]!;
    const { request } = commit;
    requests.push(key, request.requestId, request.version, request.errorCode);
    const committed: EventMessage[] = [];
    const json = data[i]!.events;
    commit.events.forEach((event, e) => {
      events.push(++position, key, event.version, event.sequence, event.type, json[e]!);
      committed.push(atPosition(event, position));
    });
    outcomes[i] = { ok: true, appended: { version: versions[i]!, events: committed } };
  }
  s.requests.run(requests);
  s.events.run(events);
  for (let i = 0; i < entries.length; i++) {
    const commit = entries[i]!.commit;
    if (commit === undefined) continue;
    if (commit.deleted) c.stmt.markDeleted.run(keys[i]!);
    if (commit.timers.length > 0) c.applyTimerChanges(keys[i]!, commit.timers, data[i]!.specs);
    const snapshot = data[i]!.snapshot;
    if (snapshot !== undefined) c.stmt.saveSnapshot.run(keys[i]!, commit.snapshot!.version, snapshot);
  }
  const settlements = entries.map((entry) => entry.settlement);
  if (read === undefined) c.settle(settlements);
  else {
    // Ended slots of timers as claimed are deleted by rowid; the rest settle by id and slot.
    const rowOf = new Map<string, { row: number; slot: number }>();
    read.batch.timers.forEach((t, i) => rowOf.set(t.id, { row: read.rows[i]!, slot: t.slot }));
    const ended: number[] = [];
    const others: TimerSettlement[] = [];
    for (const settlement of settlements) {
      const claimed = settlement.outcome.kind === "done" ? rowOf.get(settlement.id) : undefined;
      if (claimed !== undefined && claimed.slot === settlement.slot) ended.push(claimed.row);
      else others.push(settlement);
    }
    s.endTimers.run(ended);
    c.settle(others);
  }
  return outcomes;
}
