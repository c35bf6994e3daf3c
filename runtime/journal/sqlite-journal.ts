import Database from "better-sqlite3";
import { refKey, sameRef, type AggregateRef } from "../model/aggregate-ref.js";
import type { EventMessage } from "../model/messages.js";
import {
  DuplicateRequestError,
  UnstorableCommitError,
  VersionConflictError,
  type AppendResult,
  type BatchEntry,
  type BatchOutcome,
  type Commit,
  type DecisionRequest,
  type DecisionInput,
  type Journal,
  type RequestRecord,
  type StoredStream,
  type TimerChange,
  type TimerRow,
  type TimerSettlement,
} from "./journal.js";
import { commitEntries } from "./batch-commit.js";
import { MultiRowStatement } from "./sqlite-multi-row.js";
import { migrate } from "./sqlite-schema.js";
import { slotRequestId } from "../timers/scheduled-command.js";
import { TIMER_COLUMNS, atPosition, commitData, refOfKey, toEvent, toTimer, type CommitData, type EventRecord, type TimerRecord } from "./sqlite-rows.js";

export interface SqliteJournalOptions {
  /**
   * `NORMAL` (default): in WAL mode a commit survives the death of the process (it is in the OS
   * before `append` returns), not necessarily a power loss. `FULL` also survives a power loss.
   */
  readonly synchronous?: "NORMAL" | "FULL";
  /** Milliseconds to wait for another process's write lock (default 5000). */
  readonly busyTimeout?: number;
  /** SQLite page cache per connection, in MB (default 64). */
  readonly cacheMb?: number;
  /**
   * WAL pages after which a commit checkpoints the WAL into the database file (default 100,000 ≈ 400 MB;
   * SQLite's own default is 1,000). A checkpoint syncs both files and writes each page once however
   * often it was re-written, and it holds up the commit that runs it: the timer poller checkpoints
   * whenever nothing is due before its next poll (`idle`), so this bound is reached only under load
   * that never lets it rest, and a burst of deliveries is not stalled by checkpoints.
   */
  readonly walAutocheckpoint?: number;
  /**
   * The size in MB that the WAL file is cut back to once a checkpoint has copied it into the database
   * file. Default: none (SQLite's own default): the file keeps the size of the largest burst since it was
   * opened (at most about `walAutocheckpoint` pages, plus one transaction), and the next burst overwrites
   * it in place. Extending the file as it is written costs the kernel more per WAL page: with a 64 MB
   * limit, draining 100k timers with scattered target ids took 5.1–5.7 µs of system time per delivery,
   * against 3.3–3.4 writing over a WAL left at its size.
   */
  readonly walSizeLimitMb?: number;
  /**
   * SQLite page size in bytes for a journal file created now (a power of two, 512 to 65536; default
   * 4096); an existing file keeps the size it was created with.
   */
  readonly pageSize?: number;
}

/** Columns `version` (null: no events) and `deleted` (0/1) of the stream `stream` (an SQL expression). */
const streamState = (stream: string) => `(SELECT e.version FROM wow_events AS e WHERE e.stream = ${stream} ORDER BY e.version DESC LIMIT 1) AS version,
  EXISTS (SELECT 1 FROM wow_deleted AS d WHERE d.stream = ${stream}) AS deleted`;
const STREAM_STATE = streamState("k.stream");

/** A due timer's row, then what its slot's command meets: its target stream's state and its request's record (`DueRecord`). */
const DUE_WITH_INPUTS = `SELECT ${TIMER_COLUMNS}, ${streamState("t.stream")}, r.version, r.error_code, t.row
  FROM (SELECT ${TIMER_COLUMNS}, rowid AS row, coalesce(target, owner) AS stream, id || '#' || slot AS request_id -- slotRequestId
        FROM wow_timers WHERE status = 0 AND fire_at <= ? ORDER BY fire_at LIMIT ?) AS t
  LEFT JOIN wow_requests AS r ON r.stream = t.stream AND r.request_id = t.request_id`;

type DueRecord = [...TimerRecord, version: number | null, deleted: number, requestVersion: number | null, errorCode: string | null, row: number];

/** A stream's state as read: its version (0: none) and whether it is deleted. */
interface StreamState {
  version: number;
  deleted: boolean;
}

/**
 * Stream states as `loadForDecisions` read them, with the file's write mark at that moment: while the
 * mark is unchanged nothing was written since, so `commitBatch` checks versions against them instead of
 * re-reading each stream.
 */
interface LoadedStreams {
  readonly mark: WriteMark;
  readonly streams: Map<string, StreamState>;
  /** Each request the load found not yet recorded: its request id → its stream. */
  readonly undecided: Map<string, string>;
  /** The timers `dueTimers` read before the load (if nothing was written in between): id → their row. */
  readonly timers: ReadonlyMap<string, DueTimer> | undefined;
}

/** A timer as `dueTimers` read it: its rowid and slot. */
interface DueTimer {
  readonly row: number;
  readonly slot: number;
}

/** A slot's decision input as `dueTimers` read it (for its stream `key`), with the stream's state (also when the request is decided). */
interface Prefetched {
  readonly key: string;
  readonly input: DecisionInput;
  readonly state: StreamState;
}

/** `total_changes()` (rows this connection changed) and `data_version` (moves when another connection commits). */
type WriteMark = [changes: number, dataVersion: number];

/** An append waiting for its group's transaction, its JSON made (`commitData`). */
interface PendingAppend {
  readonly commit: Commit;
  readonly data: CommitData;
  readonly resolve: (r: AppendResult) => void;
  readonly reject: (e: unknown) => void;
}

/** A batch entry's JSON (`commitData`), or why it cannot be stored; undefined without a commit. */
type EntryData = CommitData | UnstorableCommitError | undefined;

/** The embedded default journal: one SQLite file (WAL), schema created and versioned by the runtime. */
export class SqliteJournal implements Journal {
  readonly db: Database.Database;
  readonly schemaVersion: number;
  private readonly stmt;
  private readonly settleTx;
  private readonly batchTx;
  private readonly groupTx;
  private readonly insertRequests: MultiRowStatement;
  private readonly insertEvents: MultiRowStatement;
  private readonly deleteTimerRows: MultiRowStatement;
  private readonly keys = new WeakMap<AggregateRef, string>();
  private loaded: LoadedStreams | undefined;
  /** What the last `dueTimers` read of its timers' slots' commands (by request id), valid while its mark is. */
  private prefetched: { readonly mark: WriteMark; readonly inputs: Map<string, Prefetched>; readonly timers: Map<string, DueTimer> } | undefined;
  private pending: PendingAppend[] = [];

  constructor(readonly path: string, options: SqliteJournalOptions = {}) {
    checkOptions(options);
    this.db = new Database(path);
    // Only an empty file takes a new page size, and only before WAL mode is on.
    if (options.pageSize !== undefined) this.db.pragma(`page_size = ${options.pageSize}`);
    this.db.pragma("journal_mode = WAL");
    this.db.pragma(`synchronous = ${options.synchronous ?? "NORMAL"}`);
    this.db.pragma(`busy_timeout = ${options.busyTimeout ?? 5000}`);
    this.db.pragma(`cache_size = -${options.cacheMb ?? 64}000`);
    this.db.pragma("temp_store = MEMORY");
    // Checkpoints run when the timer poller has nothing due soon (`idle`); the automatic one is the bound
    // under load that never lets it rest (100,000 pages, ~400 MB of WAL).
    this.db.pragma(`wal_autocheckpoint = ${options.walAutocheckpoint ?? 100_000}`);
    this.db.pragma(`journal_size_limit = ${options.walSizeLimitMb === undefined ? -1 : Math.round(options.walSizeLimitMb * 1024 * 1024)}`);
    this.schemaVersion = migrate(this.db);
    const db = this.db;
    this.stmt = {
      /** A stream's version is its last event's (one index seek); a deleted stream has a `wow_deleted` row. */
      stream: db.prepare<[string], { version: number | null; deleted: number }>(
        `SELECT ${STREAM_STATE} FROM (SELECT ? AS stream) AS k`,
      ),
      events: db.prepare<[string], EventRecord>("SELECT position, version, sequence, type, data FROM wow_events WHERE stream = ? ORDER BY version, sequence").raw(),
      request: db.prepare<[string, string], { version: number; error_code: string }>(
        "SELECT version, error_code FROM wow_requests WHERE stream = ? AND request_id = ?",
      ),
      streamAndRequest: db.prepare<[string, string], { version: number | null; deleted: number; request_version: number | null; error_code: string | null }>(
        `SELECT ${STREAM_STATE}, r.version AS request_version, r.error_code
         FROM (SELECT ? AS stream) AS k
         LEFT JOIN wow_requests AS r ON r.stream = k.stream AND r.request_id = ?`,
      ),
      /** `streamAndRequest` for many: the parameter is a JSON array of [stream key, request id]; rows in its order. */
      streamsAndRequests: db
        .prepare<[string], [version: number | null, deleted: number, requestVersion: number | null, errorCode: string | null]>(
          `SELECT ${STREAM_STATE}, r.version AS request_version, r.error_code
           FROM (SELECT j.key AS i, j.value ->> 0 AS stream, j.value ->> 1 AS request_id FROM json_each(?) AS j) AS k
           LEFT JOIN wow_requests AS r ON r.stream = k.stream AND r.request_id = k.request_id
           ORDER BY k.i`,
        )
        .raw(),
      /** Changes by this connection and by others: equal marks mean nothing was written in between. */
      writeMark: db.prepare<[], WriteMark>("SELECT total_changes(), (SELECT data_version FROM pragma_data_version())").raw(),
      insertRequest: db.prepare("INSERT OR IGNORE INTO wow_requests (stream, request_id, version, error_code) VALUES (?, ?, ?, ?)"),
      markDeleted: db.prepare("INSERT OR IGNORE INTO wow_deleted (stream) VALUES (?)"),
      insertEvent: db.prepare("INSERT INTO wow_events (stream, version, sequence, type, data) VALUES (?, ?, ?, ?, ?)"),
      lastPosition: db.prepare<[], number | null>("SELECT max(position) FROM wow_events").pluck(),
      readAll: db
        .prepare<[number, number], [...EventRecord, string]>("SELECT position, version, sequence, type, data, stream FROM wow_events WHERE position > ? ORDER BY position LIMIT ?")
        .raw(),
      /** Setting a key again replaces its timer (new id, spec and slot; pending, attempts reset) in one statement. */
      setTimer: db.prepare(
        `INSERT INTO wow_timers (id, owner, key, target, spec, slot, due, fire_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (owner, key) DO UPDATE SET id = excluded.id, target = excluded.target, spec = excluded.spec, slot = excluded.slot, due = excluded.due,
           fire_at = excluded.fire_at, status = 0, attempts = 0, last_error = NULL, parked_at = NULL`,
      ),
      deleteTimerByKey: db.prepare("DELETE FROM wow_timers WHERE owner = ? AND key = ?"),
      deleteTimersOf: db.prepare("DELETE FROM wow_timers WHERE owner = ?"),
      claim: db
        .prepare<[number, number, number], TimerRecord>(
          `UPDATE wow_timers SET fire_at = ?
           WHERE rowid IN (SELECT rowid FROM wow_timers WHERE status = 0 AND fire_at <= ? ORDER BY fire_at LIMIT ?)
           RETURNING ${TIMER_COLUMNS}`,
        )
        .raw(),
      due: db.prepare<[number, number], DueRecord>(DUE_WITH_INPUTS).raw(),
      nextFireAt: db.prepare<[], { at: number | null }>("SELECT MIN(fire_at) AS at FROM wow_timers WHERE status = 0"),
      /** Ends many slots at once: the parameter is a JSON array of [id, slot]. */
      settleDone: db.prepare(
        `DELETE FROM wow_timers WHERE rowid IN (
           SELECT t.rowid FROM json_each(?) AS j JOIN wow_timers AS t ON t.id = j.value ->> 0 AND t.slot = j.value ->> 1 AND t.status = 0)`,
      ),
      settleNext: db.prepare(
        "UPDATE wow_timers SET slot = ?, due = ?, fire_at = ?, attempts = 0, last_error = NULL WHERE id = ? AND slot = ? AND status = 0",
      ),
      settleRetry: db.prepare(
        "UPDATE wow_timers SET attempts = ?, fire_at = ?, last_error = ? WHERE id = ? AND slot = ? AND status = 0",
      ),
      settlePark: db.prepare(
        "UPDATE wow_timers SET status = 1, attempts = ?, last_error = ?, parked_at = ? WHERE id = ? AND slot = ? AND status = 0",
      ),
      timer: db.prepare<[string], TimerRecord>(`SELECT ${TIMER_COLUMNS} FROM wow_timers WHERE id = ?`).raw(),
      timersOf: db.prepare<[string], TimerRecord>(`SELECT ${TIMER_COLUMNS} FROM wow_timers WHERE owner = ? ORDER BY key`).raw(),
      pendingTimers: db.prepare<[number], TimerRecord>(`SELECT ${TIMER_COLUMNS} FROM wow_timers WHERE status = 0 ORDER BY due, id LIMIT ?`).raw(),
      parked: db.prepare<[number], TimerRecord>(`SELECT ${TIMER_COLUMNS} FROM wow_timers WHERE status = 1 ORDER BY parked_at, id LIMIT ?`).raw(),
      // A tenant's listings: the owner key is refKey's JSON array, the tenant its third element.
      pendingTimersOf: db.prepare<[string, number], TimerRecord>(`SELECT ${TIMER_COLUMNS} FROM wow_timers WHERE status = 0 AND json_extract(owner, '$[2]') = ? ORDER BY due, id LIMIT ?`).raw(),
      parkedOf: db.prepare<[string, number], TimerRecord>(`SELECT ${TIMER_COLUMNS} FROM wow_timers WHERE status = 1 AND json_extract(owner, '$[2]') = ? ORDER BY parked_at, id LIMIT ?`).raw(),
      redrive: db.prepare("UPDATE wow_timers SET status = 0, attempts = 0, fire_at = ?, parked_at = NULL WHERE id = ? AND status = 1"),
    };
    this.groupTx = db.transaction((run: () => void) => run());
    this.settleTx = db.transaction((settlements: readonly TimerSettlement[]) => this.settleNow(settlements));
    this.batchTx = db.transaction((entries: readonly BatchEntry[], data: readonly EntryData[]) => this.commitBatchNow(entries, data));
    // OR FAIL: a row that breaks a constraint ends the statement without undoing its earlier rows (the batch's
    // transaction is rolled back anyway), so SQLite keeps no statement journal for these many-row statements.
    this.insertRequests = MultiRowStatement.insert(db, "INSERT OR FAIL INTO wow_requests (stream, request_id, version, error_code)", 4);
    this.insertEvents = MultiRowStatement.insert(db, "INSERT OR FAIL INTO wow_events (position, stream, version, sequence, type, data)", 6);
    this.deleteTimerRows = new MultiRowStatement(db, 1, (rows) => `DELETE FROM wow_timers WHERE rowid IN (${new Array<string>(rows).fill("?").join(", ")})`);
  }

  async load(aggregate: AggregateRef): Promise<StoredStream> {
    const key = this.keyOf(aggregate);
    const { version, deleted } = this.stmt.stream.get(key)!;
    return this.streamOf(key, version, deleted);
  }

  async findRequest(aggregate: AggregateRef, requestId: string): Promise<RequestRecord | undefined> {
    const row = this.stmt.request.get(this.keyOf(aggregate), requestId);
    return row && { requestId, version: row.version, errorCode: row.error_code };
  }

  async loadForDecision(aggregate: AggregateRef, requestId: string): Promise<DecisionInput> {
    const key = this.keyOf(aggregate);
    const row = this.stmt.streamAndRequest.get(key, requestId)!;
    if (row.request_version !== null) return { decided: { requestId, version: row.request_version, errorCode: row.error_code! } };
    return { stream: this.streamOf(key, row.version, row.deleted) };
  }

  private streamOf(key: string, version: number | null, deleted: number): StoredStream {
    return { version: version ?? 0, deleted: deleted === 1, events: version === null ? [] : this.eventsOf(key) };
  }

  private eventsOf(key: string): EventMessage[] {
    const aggregate = refOfKey(key);
    return this.stmt.events.all(key).map((row) => toEvent(row, aggregate));
  }

  /** `refKey`, computed once per ref object (a delivery's target is looked up, loaded and appended to). */
  private keyOf(ref: AggregateRef): string {
    let key = this.keys.get(ref);
    if (key === undefined) {
      key = refKey(ref);
      this.keys.set(ref, key);
    }
    return key;
  }

  /**
   * Group commit: appends issued together (e.g. the deliveries of one timer batch) share one SQLite
   * transaction. A commit's own refusals are found before it writes anything, so they fail that commit
   * alone: its JSON is made before it joins a group (UnstorableCommitError), its version and request id
   * are checked first in the transaction. Any other error rolls the group back, and its commits go again
   * one transaction each, so only the one that fails fails. Every promise settles after its COMMIT:
   * nothing is acknowledged before it is durable.
   */
  append(commit: Commit): Promise<AppendResult> {
    return new Promise((resolve, reject) => {
      const data = commitData(commit);
      this.pending.push({ commit, data, resolve, reject });
      if (this.pending.length === 1) void deferMicrotasks(GROUP_WINDOW_MICROTASKS).then(() => this.flush());
    });
  }

  private flush(): void {
    const group = this.pending;
    this.pending = [];
    this.commitGroup(group);
  }

  private commitGroup(group: readonly PendingAppend[]): void {
    const outcomes: ({ ok: true; value: AppendResult } | { ok: false; error: unknown })[] = [];
    try {
      this.groupTx.immediate(() => {
        for (const { commit, data } of group) {
          try {
            outcomes.push({ ok: true, value: this.appendNow(commit, data) });
          } catch (error) {
            if (!(error instanceof VersionConflictError || error instanceof DuplicateRequestError)) throw error;
            outcomes.push({ ok: false, error });
          }
        }
      });
    } catch (error) {
      // Not a refusal, but maybe one member's error (a constraint, a row too big): each goes alone, so the
      // others land. A store-wide one (busy, full, I/O) would only fail again, each after its busy timeout.
      if (group.length > 1 && mayBeOneCommitsError(error)) for (const append of group) this.commitGroup([append]);
      else for (const { reject } of group) reject(error);
      return;
    }
    group.forEach(({ resolve, reject }, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) resolve(outcome.value);
      else reject(outcome.error);
    });
  }

  /**
   * What `dueTimers` read with the timers serves the requests it covers (the slots as read) if nothing was
   * written since; the others are read here, in one statement.
   */
  async loadForDecisions(requests: readonly DecisionRequest[]): Promise<DecisionInput[]> {
    const keys = requests.map((r) => this.keyOf(r.aggregate));
    // The mark first: a write after it (even one the read below already sees) voids the states for `commitBatch`.
    const mark = this.stmt.writeMark.get()!;
    const prefetched = this.prefetched;
    this.prefetched = undefined;
    const current = prefetched !== undefined && sameMark(prefetched.mark, mark) ? prefetched : undefined;
    const known = current?.inputs;
    const inputs = new Array<DecisionInput>(requests.length);
    const streams = new Map<string, StreamState>();
    const undecided = new Map<string, string>();
    const missing: number[] = [];
    for (let i = 0; i < requests.length; i++) {
      const hit = known?.get(requests[i]!.requestId);
      if (hit === undefined || hit.key !== keys[i]) missing.push(i);
      else {
        inputs[i] = hit.input;
        streams.set(keys[i]!, hit.state);
        if (hit.input.decided === undefined) undecided.set(requests[i]!.requestId, keys[i]!);
      }
    }
    if (missing.length > 0) {
      const rows = this.stmt.streamsAndRequests.all(JSON.stringify(missing.map((i) => [keys[i], requests[i]!.requestId])));
      rows.forEach(([version, deleted, requestVersion, errorCode], m) => {
        const i = missing[m]!;
        const key = keys[i]!;
        streams.set(key, { version: version ?? 0, deleted: deleted === 1 });
        if (requestVersion !== null) inputs[i] = { decided: { requestId: requests[i]!.requestId, version: requestVersion, errorCode: errorCode! } };
        else {
          inputs[i] = { stream: this.streamOf(key, version, deleted) };
          undecided.set(requests[i]!.requestId, key);
        }
      });
    }
    this.loaded = { mark, streams, undecided, timers: current?.timers };
    return inputs;
  }

  async commitBatch(entries: readonly BatchEntry[]): Promise<BatchOutcome[]> {
    if (entries.length === 0) return [];
    // The JSON first, outside the transaction: an entry that cannot be stored is refused alone (in `appendNow`).
    const data = entries.map(({ commit }): EntryData => {
      if (commit === undefined) return undefined;
      try {
        return commitData(commit);
      } catch (error) {
        if (error instanceof UnstorableCommitError) return error;
        throw error;
      }
    });
    return this.batchTx.immediate(entries, data);
  }

  async read(after: number, limit: number): Promise<EventMessage[]> {
    const refs = new Map<string, AggregateRef>();
    return this.stmt.readAll.all(after, limit).map((row) => {
      const key = row[5];
      let ref = refs.get(key);
      if (ref === undefined) refs.set(key, (ref = refOfKey(key)));
      return toEvent(row as unknown as EventRecord, ref);
    });
  }

  /** The lease is the new fireAt alone (`owner` is not stored: no reader needs it, and it would grow every claimed row). */
  async claimDue(now: number, limit: number, leaseUntil: number): Promise<TimerRow[]> {
    const refs = new Map<string, AggregateRef>();
    return this.stmt.claim
      .all(leaseUntil, now, limit)
      .map((row) => toTimer(row, refs))
      .sort((a, b) => a.due - b.due);
  }

  async dueTimers(now: number, limit: number): Promise<TimerRow[]> {
    // The mark first: a write after it voids what is read with the timers (see `loadForDecisions`).
    const mark = this.stmt.writeMark.get()!;
    const refs = new Map<string, AggregateRef>();
    const inputs = new Map<string, Prefetched>();
    const streams = new Map<string, StoredStream>();
    const rows = new Map<string, DueTimer>();
    const timers = this.stmt.due.all(now, limit).map((row) => {
      const timer = toTimer(row as unknown as TimerRecord, refs);
      const key = row[11] ?? row[1];
      this.keys.set(timer.target, key);
      const requestId = slotRequestId(timer.id, timer.slot);
      const version = row[12];
      const deleted = row[13];
      const requestVersion = row[14];
      const state = { version: version ?? 0, deleted: deleted === 1 };
      let input: DecisionInput;
      if (requestVersion !== null) input = { decided: { requestId, version: requestVersion, errorCode: row[15]! } };
      else {
        let stream = streams.get(key);
        if (stream === undefined) streams.set(key, (stream = this.streamOf(key, version, deleted)));
        input = { stream };
      }
      inputs.set(requestId, { key, input, state });
      rows.set(timer.id, { row: row[16], slot: timer.slot });
      return timer;
    });
    this.prefetched = { mark, inputs, timers: rows };
    return timers.sort((a, b) => a.due - b.due);
  }

  async nextFireAt(): Promise<number | undefined> {
    return this.stmt.nextFireAt.get()?.at ?? undefined;
  }

  async settle(settlements: readonly TimerSettlement[]): Promise<void> {
    if (settlements.length > 0) this.settleTx.immediate(settlements);
  }

  async timer(id: string): Promise<TimerRow | undefined> {
    const row = this.stmt.timer.get(id);
    return row && toTimer(row);
  }

  async timersOf(owner: AggregateRef): Promise<TimerRow[]> {
    return this.stmt.timersOf.all(this.keyOf(owner)).map((row) => toTimer(row));
  }

  async pendingTimers(limit = 1000, tenantId?: string): Promise<TimerRow[]> {
    const rows = tenantId === undefined ? this.stmt.pendingTimers.all(limit) : this.stmt.pendingTimersOf.all(tenantId, limit);
    return rows.map((row) => toTimer(row));
  }

  async parked(limit = 1000, tenantId?: string): Promise<TimerRow[]> {
    const rows = tenantId === undefined ? this.stmt.parked.all(limit) : this.stmt.parkedOf.all(tenantId, limit);
    return rows.map((row) => toTimer(row));
  }

  async redrive(id: string, now: number): Promise<boolean> {
    return this.stmt.redrive.run(now, id).changes === 1;
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }

  /** Copies the WAL into the database file (a PASSIVE checkpoint: it never waits for other connections). */
  async idle(): Promise<void> {
    this.db.pragma("wal_checkpoint(PASSIVE)");
  }

  /**
   * Checks first, then writes: a refused commit has written nothing (see `append`). `data`: its JSON, or
   * why it has none (thrown). `known`: stream states current in this transaction (nothing written since
   * they were read but by this batch, which keeps them up to date); a stream not in it is read.
   */
  private appendNow(commit: Commit, data: CommitData | UnstorableCommitError, known?: Map<string, StreamState>): AppendResult {
    if (data instanceof UnstorableCommitError) throw data;
    const key = this.keyOf(commit.aggregate);
    let stream = known?.get(key);
    if (stream === undefined) {
      const row = this.stmt.stream.get(key)!;
      stream = { version: row.version ?? 0, deleted: row.deleted === 1 };
    }
    const version = stream.version;
    if (commit.expectedVersion !== undefined && version !== commit.expectedVersion) {
      throw new VersionConflictError(commit.aggregate, commit.expectedVersion, version);
    }
    const { request } = commit;
    if (this.stmt.insertRequest.run(key, request.requestId, request.version, request.errorCode).changes === 0) {
      throw new DuplicateRequestError(commit.aggregate, request.requestId);
    }
    const committed: EventMessage[] = [];
    commit.events.forEach((event, i) => {
      const position = Number(this.stmt.insertEvent.run(key, event.version, event.sequence, event.type, data.events[i]!).lastInsertRowid);
      committed.push(atPosition(event, position));
    });
    const newVersion = committed.length > 0 ? committed[0]!.version : version;
    if (commit.deleted && !stream.deleted) this.stmt.markDeleted.run(key);
    this.applyTimerChanges(key, commit.timers, data.specs);
    known?.set(key, { version: newVersion, deleted: stream.deleted || commit.deleted === true });
    return { version: newVersion, events: committed };
  }

  /** A commit's schedule changes, in order, for its stream `key`; `specs[i]`: change i's spec JSON (`commitData`). */
  private applyTimerChanges(key: string, changes: readonly TimerChange[], specs: CommitData["specs"]): void {
    changes.forEach((change, i) => {
      if (change.kind === "cancelAll") {
        this.stmt.deleteTimersOf.run(key);
        return;
      }
      if (change.kind === "cancel") {
        this.stmt.deleteTimerByKey.run(key, change.key);
        return;
      }
      const t = change.timer;
      this.stmt.setTimer.run(t.id, key, t.key, sameRef(t.target, t.owner) ? null : this.keyOf(t.target), specs[i]!, t.slot, t.due, t.due);
    });
  }

  /**
   * `commitBatch` when what the load read is current (`loaded`, its mark unchanged): every commit is
   * checked against it first, in JS, then each table is written in multi-row statements
   * (`MultiRowStatement`). `undefined`, having written nothing: a commit would be refused (its version, or a
   * request id twice in the batch), or the load did not read its stream and request (it might be
   * recorded), or one cannot be stored; the one-by-one path then decides each commit's fate.
   */
  private commitBulk(entries: readonly BatchEntry[], data: readonly EntryData[], loaded: LoadedStreams): BatchOutcome[] | undefined {
    const known = loaded.streams;
    const keys = new Array<string | undefined>(entries.length);
    const versions = new Array<number>(entries.length);
    const states = new Map<string, StreamState>();
    /** Request ids this batch records (by the load's `undecided`, each on one stream): a second is refused. */
    const requests = new Set<string>();
    let timersChanged = false;
    for (let i = 0; i < entries.length; i++) {
      const commit = entries[i]!.commit;
      if (commit === undefined) continue;
      if (data[i] instanceof UnstorableCommitError) return undefined;
      timersChanged ||= commit.timers.length > 0;
      const key = this.keyOf(commit.aggregate);
      const state = states.get(key) ?? known.get(key);
      if (state === undefined || (commit.expectedVersion !== undefined && commit.expectedVersion !== state.version)) return undefined;
      const requestId = commit.request.requestId;
      if (loaded.undecided.get(requestId) !== key || requests.has(requestId)) return undefined;
      requests.add(requestId);
      const version = commit.events.length > 0 ? commit.events[0]!.version : state.version;
      states.set(key, { version, deleted: state.deleted || commit.deleted === true });
      keys[i] = key;
      versions[i] = version;
    }
    // No commit changed a timer: the due timers' rows are as read, so their ended slots are deleted by rowid.
    // (No entry's data is an UnstorableCommitError: checked above.)
    return this.writeBulk(entries, data as readonly (CommitData | undefined)[], keys, versions, timersChanged ? undefined : loaded.timers);
  }

  /** `commitBulk`'s writes; `data[i]`, `keys[i]`: entry i's JSON and stream, if it commits; `timers`: the due timers' rows, as they are now. */
  private writeBulk(
    entries: readonly BatchEntry[],
    data: readonly (CommitData | undefined)[],
    keys: readonly (string | undefined)[],
    versions: readonly number[],
    timers: ReadonlyMap<string, DueTimer> | undefined,
  ): BatchOutcome[] {
    const requests: unknown[] = [];
    const events: unknown[] = [];
    const outcomes = new Array<BatchOutcome>(entries.length);
    let position = this.stmt.lastPosition.get() ?? 0;
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
    this.insertRequests.run(requests);
    this.insertEvents.run(events);
    for (let i = 0; i < entries.length; i++) {
      const commit = entries[i]!.commit;
      if (commit === undefined) continue;
      if (commit.deleted) this.stmt.markDeleted.run(keys[i]!);
      if (commit.timers.length > 0) this.applyTimerChanges(keys[i]!, commit.timers, data[i]!.specs);
    }
    const settlements = entries.map((entry) => entry.settlement);
    if (timers === undefined) this.settleNow(settlements);
    else {
      const ended: number[] = [];
      const others: TimerSettlement[] = [];
      for (const s of settlements) {
        const timer = s.outcome.kind === "done" ? timers.get(s.id) : undefined;
        if (timer !== undefined && timer.slot === s.slot) ended.push(timer.row);
        else others.push(s);
      }
      this.deleteTimerRows.run(ended);
      this.settleNow(others);
    }
    return outcomes;
  }

  /** `commitBatch` inside its transaction. */
  private commitBatchNow(entries: readonly BatchEntry[], data: readonly EntryData[]): BatchOutcome[] {
    const loaded = this.loaded;
    this.loaded = undefined;
    // Read before this transaction writes: unchanged since the load, the loaded states are current (the write lock keeps them so).
    const known = loaded !== undefined && sameMark(loaded.mark, this.stmt.writeMark.get()!) ? loaded.streams : undefined;
    const bulk = known === undefined ? undefined : this.commitBulk(entries, data, loaded!);
    if (bulk !== undefined) return bulk;
    return commitEntries(entries, { keyOf: (ref) => this.keyOf(ref), append: (c, i) => this.appendNow(c, data[i]!, known), settle: (s) => this.settleNow(s) });
  }

  /** Settles inside the caller's transaction: "done" slots together, the others one by one. */
  private settleNow(settlements: readonly TimerSettlement[]): void {
    const done: [string, number][] = [];
    for (const s of settlements) {
      if (s.outcome.kind === "done") done.push([s.id, s.slot]);
      else this.settleOne(s);
    }
    if (done.length > 0) this.stmt.settleDone.run(JSON.stringify(done));
  }

  /** A slot that does not simply end ("done" slots are ended together by `settleTx`). */
  private settleOne({ id, slot, outcome }: TimerSettlement): void {
    switch (outcome.kind) {
      case "done":
        this.stmt.settleDone.run(JSON.stringify([[id, slot]]));
        break;
      case "next":
        this.stmt.settleNext.run(outcome.slot, outcome.due, outcome.due, id, slot);
        break;
      case "retry":
        this.stmt.settleRetry.run(outcome.attempts, outcome.fireAt, outcome.error, id, slot);
        break;
      case "park":
        this.stmt.settlePark.run(outcome.attempts, outcome.error, outcome.at, id, slot);
        break;
    }
  }
}

/**
 * Refuses an option SQLite would not take as meant (it ignores a page size that is not a power of two,
 * reads a negative size limit as none, and `NaN` is not SQL), before any file is opened.
 */
function checkOptions(options: SqliteJournalOptions): void {
  const check = <T>(name: keyof SqliteJournalOptions, ok: (value: T) => boolean, expected: string): void => {
    const value = options[name] as T | undefined;
    if (value !== undefined && !ok(value)) throw new RangeError(`SqliteJournal: ${name} must be ${expected}, got ${String(value)}`);
  };
  const integerFrom = (min: number) => (v: number) => Number.isInteger(v) && v >= min;
  check<string>("synchronous", (v) => v === "NORMAL" || v === "FULL", '"NORMAL" or "FULL"');
  check("busyTimeout", integerFrom(0), "an integer ≥ 0 (milliseconds)");
  check<number>("cacheMb", (v) => Number.isFinite(v) && v > 0, "a number > 0 (MB)");
  check("walAutocheckpoint", integerFrom(0), "an integer ≥ 0 (pages; 0 turns automatic checkpoints off)");
  check<number>("walSizeLimitMb", (v) => Number.isFinite(v) && v >= 0, "a number ≥ 0 (MB)");
  check<number>("pageSize", (v) => integerFrom(512)(v) && v <= 65536 && (v & (v - 1)) === 0, "a power of two from 512 to 65536 (bytes)");
}

/** An error a single commit can cause (its rows), as opposed to the store's (busy, locked, full, I/O, corrupt). */
function mayBeOneCommitsError(error: unknown): boolean {
  if (!(error instanceof Database.SqliteError)) return true;
  return /^SQLITE_(CONSTRAINT|TOOBIG|MISMATCH|RANGE)/.test(error.code);
}

function sameMark(a: WriteMark, b: WriteMark): boolean {
  return a[0] === b[0] && a[1] === b[1];
}

/** Appends arriving within this many microtask hops of the first share its transaction (no macrotask: virtual clocks stay exact). */
const GROUP_WINDOW_MICROTASKS = 32;

async function deferMicrotasks(hops: number): Promise<void> {
  for (let i = 0; i < hops; i++) await undefined;
}
