// One SQLite connection and the writes every commit path shares: a commit checked then written, its
// schedule changes, and slot settlements, each inside the caller's transaction.
import Database from "better-sqlite3";
import { refOfKey, sameRef, type AggregateRef } from "../../model/aggregate-ref.js";
import { RefKeys } from "../ref-keys.js";
import type { EventMessage } from "../../model/messages.js";
import { DuplicateRequestError, StoreDamagedError, UnstorableCommitError, VersionConflictError } from "../errors.js";
import type { AppendResult, Commit, StoredStream, TimerChange } from "../event-store.js";
import { atPosition, toEvent, type CommitData } from "../stored-json.js";
import type { TimerSettlement } from "../timer-store.js";
import { Checkpointer } from "./checkpointer.js";
import { checkOptions, configure, DEFAULT_CHECKPOINT_INTERVAL, type SqliteStoreOptions } from "./options.js";
import { checkIntegrity, checkMarker, damageOf, holdsStore, writeMarker } from "./file-checks.js";
import { ensureStoreId, migrate, storeIdOf } from "./schema.js";
import { prepareStatements, type Statements, type StreamStateRow } from "./statements.js";

/** A stream's state as read: its version (0: none) and whether it is deleted. */
export interface StreamState {
  version: number;
  deleted: boolean;
}

export class SqliteConnection extends RefKeys {
  readonly db: Database.Database;
  readonly schemaVersion: number;
  readonly stmt: Statements;

  /** Set by the first sign of damage: every later use of the file is refused with it. */
  private damage: StoreDamagedError | undefined;
  /** Checkpoints off the event loop (none for an in-memory database, or when the option turns them off). */
  readonly checkpointer: Checkpointer | undefined;
  /** The last background checkpoint's failure other than damage (the next one tries again). */
  checkpointFailure: Error | undefined;

  constructor(readonly path: string, options: SqliteStoreOptions) {
    super();
    checkOptions(options);
    this.db = new Database(path);
    try {
      configure(this.db, options);
      const existing = holdsStore(this.db);
      if (existing && options.integrityCheck !== false) checkIntegrity(this.db, path);
      checkMarker(path, existing ? storeIdOf(this.db) : undefined);
      this.schemaVersion = migrate(this.db);
      writeMarker(path, ensureStoreId(this.db));
      this.stmt = prepareStatements(this.db);
      const interval = options.checkpointInterval ?? DEFAULT_CHECKPOINT_INTERVAL;
      if (interval > 0 && !this.db.memory) this.checkpointer = new Checkpointer(path, interval, (error) => this.checkpointFailed(error));
    } catch (error) {
      this.db.close();
      throw damageOf(error, path) ?? error;
    }
  }

  /**
   * Runs `work` on the file, unless it is known to be damaged; SQLite's corruption error marks it so
   * (StoreDamagedError, naming the file), and every later use is refused without touching the file.
   */
  guard<T>(work: () => T): T {
    if (this.damage !== undefined) throw this.damage;
    try {
      return work();
    } catch (error) {
      const damage = damageOf(error, this.path);
      if (damage === undefined) throw error;
      throw this.markDamaged(damage);
    } finally {
      this.checkpointer?.used();
    }
  }

  /** Refuses every later use, the checkpoint thread's too; the first damage found is the one reported. */
  private markDamaged(damage: StoreDamagedError): StoreDamagedError {
    this.damage ??= damage;
    void this.checkpointer?.stop();
    return this.damage;
  }

  private checkpointFailed(error: Error): void {
    const damage = damageOf(error, this.path);
    if (damage === undefined) {
      this.checkpointFailure = error;
      return;
    }
    this.markDamaged(damage);
  }

  /** Why the file is refused, if it is. */
  get damaged(): StoreDamagedError | undefined {
    return this.damage;
  }

  streamState(key: string): StreamState {
    const row = this.stmt.streamState.get(key)!;
    return { version: row.version ?? 0, deleted: row.deleted === 1 };
  }

  /**
   * The stream `key` whose state was read as `row`: its events are read only when it has any; from its
   * latest snapshot on when `latest` and it has one (a decision), else all of them. `known`: `key` already
   * parsed into its ref (a claimed timer's target), which the events then share.
   */
  streamOf(key: string, row: StreamStateRow, latest: boolean, known?: AggregateRef): StoredStream {
    const deleted = row.deleted === 1;
    if (row.version === null) return { version: 0, deleted, events: [] };
    const aggregate = known ?? refOfKey(key);
    const snapshot = latest && row.snapshot_version !== null ? this.stmt.snapshot.get(key) : undefined;
    if (snapshot === undefined) return { version: row.version, deleted, events: this.stmt.streamEvents.all(key).map((e) => toEvent(e, aggregate)) };
    const events = this.stmt.streamEventsAfter.all(key, snapshot.version).map((e) => toEvent(e, aggregate));
    return { version: row.version, deleted, events, snapshot: { version: snapshot.version, state: JSON.parse(snapshot.state) } };
  }

  /**
   * Checks first, then writes: a refused commit has written nothing. `data`: its JSON, or why it has
   * none (thrown). `known`: stream states current in this transaction (nothing written since they were
   * read but by this transaction, which keeps them up to date); a stream not in it is read.
   */
  writeCommit(commit: Commit, data: CommitData | UnstorableCommitError, known?: Map<string, StreamState>): AppendResult {
    if (data instanceof UnstorableCommitError) throw data;
    const key = this.keyOf(commit.aggregate);
    const stream = known?.get(key) ?? this.streamState(key);
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
    if (data.snapshot !== undefined) this.stmt.saveSnapshot.run(key, commit.snapshot!.version, data.snapshot);
    known?.set(key, { version: newVersion, deleted: stream.deleted || commit.deleted === true });
    return { version: newVersion, events: committed };
  }

  /** A commit's schedule changes, in order, for its stream `key`; `specs[i]`: change i's spec JSON (`commitData`). */
  applyTimerChanges(key: string, changes: readonly TimerChange[], specs: CommitData["specs"]): void {
    changes.forEach((change, i) => {
      if (change.kind === "cancelAll") this.stmt.cancelTimersOf.run(key);
      else if (change.kind === "cancel") this.stmt.cancelTimer.run(key, change.key);
      else {
        const t = change.timer;
        const target = sameRef(t.target, t.owner) ? null : this.keyOf(t.target);
        this.stmt.setTimer.run(t.id, key, t.owner.tenantId, t.owner.id, t.key, target, specs[i]!, t.command.type, t.slot, t.due, t.due);
      }
    });
  }

  /** Settles inside the caller's transaction: ended slots together, the others one by one. */
  settle(settlements: readonly TimerSettlement[]): void {
    const done: [string, number][] = [];
    for (const { id, slot, outcome } of settlements) {
      switch (outcome.kind) {
        case "done":
          done.push([id, slot]);
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
    if (done.length > 0) this.stmt.settleDone.run(JSON.stringify(done));
  }

  /** Ends the checkpoint thread first: it has a connection of its own to the file. */
  async close(): Promise<void> {
    await this.checkpointer?.stop();
    if (this.db.open) this.db.close();
  }
}
