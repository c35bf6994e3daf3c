// Events and request ids in PostgreSQL. Appends issued together share one transaction (group commit);
// the global order is gapless because positions are reserved under a lock held to the commit (see
// schema.ts), so a reader never sees a position above one that is not yet visible.
import { refOfKey, type AggregateRef } from "../../model/aggregate-ref.js";
import type { EventMessage } from "../../model/messages.js";
import type { AppendResult, Commit, DecisionInput, EventStore, RequestRecord, StoredStream } from "../event-store.js";
import { commitData, toEvent } from "../stored-json.js";
import type { BatchOutcome } from "../timer-store.js";
import { cachedRef, type EventRow } from "../sql-rows.js";
import { writeEntries, type EntryData } from "./commit-writer.js";
import type { PgConnection } from "./connection.js";
import type { StreamAndRequestRow, StreamStateRow } from "./statements.js";

/** An append waiting for its group's transaction. */
interface PendingAppend {
  readonly commit: Commit;
  readonly data: EntryData;
  readonly resolve: (r: AppendResult) => void;
  readonly reject: (e: unknown) => void;
}

/** An append settles no timer slot. */
const NO_SLOT = { id: "", slot: 0, outcome: { kind: "done" } } as const;

/** Each error a commit's own rows can cause (data exceptions, constraints): the group goes again one by one. */
const ONE_COMMITS = /^(22|23)/;

export class PgEventStore implements EventStore {
  private pending: PendingAppend[] = [];
  private flushing = false;

  constructor(private readonly c: PgConnection) {}

  async load(aggregate: AggregateRef): Promise<StoredStream> {
    const key = this.c.keyOf(aggregate);
    const [row] = await this.c.query<StreamStateRow>(this.c.sql.streamState, [key]);
    return readStream(this.c, key, row!, false);
  }

  async loadLatest(aggregate: AggregateRef): Promise<StoredStream> {
    const key = this.c.keyOf(aggregate);
    const [row] = await this.c.query<StreamStateRow>(this.c.sql.streamState, [key]);
    return readStream(this.c, key, row!, true);
  }

  async findRequest(aggregate: AggregateRef, requestId: string): Promise<RequestRecord | undefined> {
    const [row] = await this.c.query<{ version: number; error_code: string }>(this.c.sql.request, [this.c.keyOf(aggregate), requestId]);
    return row && { requestId, version: row.version, errorCode: row.error_code };
  }

  async loadForDecision(aggregate: AggregateRef, requestId: string): Promise<DecisionInput> {
    const key = this.c.keyOf(aggregate);
    const [row] = await this.c.query<StreamAndRequestRow>(this.c.sql.streamAndRequest, [key, requestId]);
    if (row!.request_version !== null) return { decided: { requestId, version: row!.request_version, errorCode: row!.error_code! } };
    return { stream: await readStream(this.c, key, row!, true) };
  }

  /**
   * Group commit: appends issued while a transaction runs (or in the same turn of the event loop) share
   * the next one. A commit's refusals are found before anything is written, so they fail that commit
   * alone; any other error of a group goes again one commit per transaction, so only the one that fails
   * fails. Every promise settles after its COMMIT.
   */
  append(commit: Commit): Promise<AppendResult> {
    return new Promise((resolve, reject) => {
      const data = commitData(commit);
      this.pending.push({ commit, data, resolve, reject });
      if (this.pending.length === 1 && !this.flushing) setImmediate(() => void this.flush());
    });
  }

  async read(after: number, limit: number): Promise<EventMessage[]> {
    const refs = new Map<string, AggregateRef>();
    const rows = await this.c.query<EventRow & { stream: string }>(this.c.sql.readEvents, [after, limit]);
    return rows.map((row) => toEvent(row, cachedRef(row.stream, refs)));
  }

  async lastPosition(): Promise<number> {
    const [row] = await this.c.query<{ position: number }>(this.c.sql.lastPosition);
    return row!.position;
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    try {
      while (this.pending.length > 0) {
        const group = this.pending;
        this.pending = [];
        await this.commitGroup(group);
      }
    } finally {
      this.flushing = false;
    }
  }

  private async commitGroup(group: readonly PendingAppend[]): Promise<void> {
    let outcomes: BatchOutcome[];
    try {
      outcomes = await this.c.write((tx) =>
        writeEntries(
          this.c,
          tx,
          group.map(({ commit }) => ({ commit, settlement: NO_SLOT })),
          group.map((p) => p.data),
          false,
        ),
      );
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (group.length > 1 && typeof code === "string" && ONE_COMMITS.test(code)) for (const append of group) await this.commitGroup([append]);
      else for (const { reject } of group) reject(error);
      return;
    }
    group.forEach(({ resolve, reject }, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) resolve(outcome.appended!);
      else reject("error" in outcome ? outcome.error : new Error("an append has no claim to lose"));
    });
  }
}

/**
 * The stream `key` whose state was read as `row`: its events are read only when it has any; from its
 * latest snapshot on when `latest` and it has one (a decision), else all of them.
 */
export async function readStream(c: PgConnection, key: string, row: StreamStateRow, latest: boolean): Promise<StoredStream> {
  const deleted = row.deleted === true;
  if (row.version === null || row.version === 0) return { version: 0, deleted, events: [] };
  const aggregate = refOfKey(key);
  if (latest && row.snapshot_version !== null) {
    const [snapshot] = await c.query<{ stream: string; version: number; state: string }>(c.sql.snapshots, [[key]]);
    if (snapshot !== undefined) {
      const events = (await c.query<EventRow>(c.sql.streamEvents, [key, snapshot.version])).map((e) => toEvent(e, aggregate));
      return { version: row.version, deleted, events, snapshot: { version: snapshot.version, state: JSON.parse(snapshot.state) } };
    }
  }
  const events = (await c.query<EventRow>(c.sql.streamEvents, [key, 0])).map((e) => toEvent(e, aggregate));
  return { version: row.version, deleted, events };
}
