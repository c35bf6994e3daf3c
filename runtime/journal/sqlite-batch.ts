import type Database from "better-sqlite3";
import type { AggregateRef } from "../model/aggregate-ref.js";
import type { EventMessage } from "../model/messages.js";
import { commitEntries } from "./batch-commit.js";
import { DuplicateRequestError, VersionConflictError, type AppendResult, type BatchEntry, type BatchOutcome, type Commit, type TimerSettlement } from "./journal.js";
import { eventData } from "./sqlite-rows.js";

/** What the set-based batch needs of the journal, inside its transaction. */
export interface SqliteBatchHost {
  keyOf(aggregate: AggregateRef): string;
  /** A commit's deletion mark and timer changes (rare in a batch of deliveries: statement by statement). */
  applyChanges(key: string, commit: Commit, wasDeleted: boolean): void;
  settle(settlements: readonly TimerSettlement[]): void;
}

/**
 * `Journal.commitBatch` for SQLite in a few statements per batch rather than a few per commit: one
 * read of the batch's stream versions and already-recorded requests, the checks in memory (the rules
 * of `commitEntries`), then one multi-row insert of all requests and one of all events (explicit
 * positions after the current last), then the settlements. Run inside one write transaction.
 */
export class SqliteBatch {
  private readonly stmt;

  constructor(db: Database.Database) {
    this.stmt = {
      streams: db
        .prepare<[string], [stream: string, version: number | null, deleted: number]>(
          `SELECT k.stream, (SELECT e.version FROM wow_events AS e WHERE e.stream = k.stream ORDER BY e.version DESC LIMIT 1),
             EXISTS (SELECT 1 FROM wow_deleted AS d WHERE d.stream = k.stream)
           FROM (SELECT value AS stream FROM json_each(?)) AS k`,
        )
        .raw(),
      recorded: db
        .prepare<[string], [stream: string, requestId: string]>(
          `SELECT r.stream, r.request_id FROM json_each(?) AS j JOIN wow_requests AS r ON r.stream = j.value ->> 0 AND r.request_id = j.value ->> 1`,
        )
        .raw(),
      lastPosition: db.prepare<[], [number | null]>("SELECT MAX(position) FROM wow_events").raw(),
      insertRequests: db.prepare(
        `INSERT INTO wow_requests (stream, request_id, version, error_code)
         SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3 FROM json_each(?)`,
      ),
      insertEvents: db.prepare(
        `INSERT INTO wow_events (position, stream, version, sequence, type, data)
         SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5 FROM json_each(?)`,
      ),
    };
  }

  commit(entries: readonly BatchEntry[], host: SqliteBatchHost): BatchOutcome[] {
    const keys = new Set<string>();
    const asked: [string, string][] = [];
    for (const { commit } of entries) {
      if (!commit) continue;
      const key = host.keyOf(commit.aggregate);
      keys.add(key);
      asked.push([key, commit.request.requestId]);
    }
    const streams = new Map<string, { version: number; deleted: boolean }>();
    for (const [stream, version, deleted] of this.stmt.streams.all(JSON.stringify([...keys]))) streams.set(stream, { version: version ?? 0, deleted: deleted === 1 });
    const recorded = new Set<string>();
    for (const [stream, requestId] of this.stmt.recorded.all(JSON.stringify(asked))) recorded.add(`${stream}\n${requestId}`);
    let position = this.stmt.lastPosition.get()![0] ?? 0;
    const requests: unknown[] = [];
    const events: unknown[] = [];
    const changes: { key: string; commit: Commit; wasDeleted: boolean }[] = [];

    const append = (commit: Commit): AppendResult => {
      const key = host.keyOf(commit.aggregate);
      const stream = streams.get(key)!;
      if (commit.expectedVersion !== undefined && stream.version !== commit.expectedVersion) {
        throw new VersionConflictError(commit.aggregate, commit.expectedVersion, stream.version);
      }
      const { request } = commit;
      const requestKey = `${key}\n${request.requestId}`;
      if (recorded.has(requestKey)) throw new DuplicateRequestError(commit.aggregate, request.requestId);
      recorded.add(requestKey);
      requests.push([key, request.requestId, request.version, request.errorCode]);
      const committed: EventMessage[] = commit.events.map((event) => {
        events.push([++position, key, event.version, event.sequence, event.type, eventData(event)]);
        return { ...event, position };
      });
      const wasDeleted = stream.deleted;
      if (committed.length > 0) stream.version = committed[0]!.version;
      if (commit.deleted) stream.deleted = true;
      if (commit.deleted || commit.timers.length > 0) changes.push({ key, commit, wasDeleted });
      return { version: stream.version, events: committed };
    };

    return commitEntries(entries, {
      keyOf: (ref) => host.keyOf(ref),
      append,
      settle: (settlements) => {
        if (requests.length > 0) this.stmt.insertRequests.run(JSON.stringify(requests));
        if (events.length > 0) this.stmt.insertEvents.run(JSON.stringify(events));
        for (const { key, commit, wasDeleted } of changes) host.applyChanges(key, commit, wasDeleted);
        host.settle(settlements);
      },
    });
  }
}
