// Events and request ids in SQLite. Appends issued together share one transaction (group commit).
import Database from "better-sqlite3";
import type { AggregateRef } from "../../model/aggregate-ref.js";
import type { EventMessage } from "../../model/messages.js";
import { isCommitRefusal, StoreDamagedError } from "../errors.js";
import type { AppendResult, Commit, DecisionInput, EventStore, RequestRecord, StoredStream } from "../event-store.js";
import { commitData, toEvent, type CommitData } from "../stored-json.js";
import { cachedRef } from "../sql-rows.js";
import type { SqliteConnection } from "./connection.js";

/** An append waiting for its group's transaction, its JSON made (`commitData`). */
interface PendingAppend {
  readonly commit: Commit;
  readonly data: CommitData;
  readonly resolve: (r: AppendResult) => void;
  readonly reject: (e: unknown) => void;
}


export class SqliteEventStore implements EventStore {
  private readonly groupTx;
  private pending: PendingAppend[] = [];

  constructor(private readonly c: SqliteConnection) {
    this.groupTx = c.db.transaction((run: () => void) => run());
  }

  async load(aggregate: AggregateRef): Promise<StoredStream> {
    return this.c.guard(() => {
      const key = this.c.keyOf(aggregate);
      return this.c.streamOf(key, this.c.stmt.streamState.get(key)!, false);
    });
  }

  async loadLatest(aggregate: AggregateRef): Promise<StoredStream> {
    return this.c.guard(() => {
      const key = this.c.keyOf(aggregate);
      return this.c.streamOf(key, this.c.stmt.streamState.get(key)!, true);
    });
  }

  async findRequest(aggregate: AggregateRef, requestId: string): Promise<RequestRecord | undefined> {
    return this.c.guard(() => {
      const row = this.c.stmt.request.get(this.c.keyOf(aggregate), requestId);
      return row && { requestId, version: row.version, errorCode: row.error_code };
    });
  }

  async loadForDecision(aggregate: AggregateRef, requestId: string): Promise<DecisionInput> {
    return this.c.guard(() => {
      const key = this.c.keyOf(aggregate);
      const row = this.c.stmt.streamAndRequest.get(key, requestId)!;
      if (row.request_version !== null) return { decided: { requestId, version: row.request_version, errorCode: row.error_code! } };
      return { stream: this.c.streamOf(key, row, true) };
    });
  }

  /**
   * Group commit: appends issued together (e.g. the commands of concurrent HTTP requests) share one
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
      // The group closes once the I/O callbacks of this turn of the event loop have run: the commands of
      // HTTP requests read together share a transaction, as concurrent in-process sends do.
      if (this.pending.length === 1) setImmediate(() => this.flush());
    });
  }

  async read(after: number, limit: number): Promise<EventMessage[]> {
    return this.c.guard(() => {
      const refs = new Map<string, AggregateRef>();
      return this.c.stmt.readEvents.all(after, limit).map((row) => toEvent(row, cachedRef(row.stream, refs)));
    });
  }

  async lastPosition(): Promise<number> {
    return this.c.guard(() => this.c.stmt.lastPosition.get()?.position ?? 0);
  }

  private flush(): void {
    const group = this.pending;
    this.pending = [];
    this.commitGroup(group);
  }

  private commitGroup(group: readonly PendingAppend[]): void {
    const outcomes: ({ ok: true; value: AppendResult } | { ok: false; error: unknown })[] = [];
    try {
      this.c.guard(() => this.groupTx.immediate(() => {
        for (const { commit, data } of group) {
          try {
            outcomes.push({ ok: true, value: this.c.writeCommit(commit, data) });
          } catch (error) {
            if (!isCommitRefusal(error)) throw error;
            outcomes.push({ ok: false, error });
          }
        }
      }));
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
}

/** An error a single commit can cause (its rows), as opposed to the store's (busy, locked, full, I/O, corrupt). */
function mayBeOneCommitsError(error: unknown): boolean {
  if (error instanceof StoreDamagedError) return false;
  if (!(error instanceof Database.SqliteError)) return true;
  return /^SQLITE_(CONSTRAINT|TOOBIG|MISMATCH|RANGE)/.test(error.code);
}
