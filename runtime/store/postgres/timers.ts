// Timers in PostgreSQL. A claim leases the due timers to its claimer until the lease ends (rows another
// claimer is taking are skipped, so claimers sharing the database never take the same timer), then
// reads what their slots' commands meet; the batch's commits and settlements are written in one
// transaction, checked there against the streams as they are then, and fenced: each claim counts up the
// timer's `claims`, and a batch writes nothing for a timer claimed again since (its lease lapsed).
import { refOfKey, type AggregateRef } from "../../model/aggregate-ref.js";
import { slotRequestId } from "../../model/request-ids.js";
import type { DecisionInput, StoredStream } from "../event-store.js";
import { toEvent } from "../stored-json.js";
import type { BatchEntry, BatchOutcome, ClaimLease, DueBatch, TimerQuery, TimerRow, TimerSettlement, TimerStore } from "../timer-store.js";
import { toTimer, type EventRow, type TimerColumns } from "../sql-rows.js";
import { entriesData, lostClaims, settle, writeEntries, type PgClaim } from "./commit-writer.js";
import { timerListStatement } from "./timer-list.js";
import type { PgConnection } from "./connection.js";
import type { StreamAndRequestRow } from "./statements.js";

const DEFAULT_LIST_LIMIT = 1000;

export class PgTimerStore implements TimerStore {
  constructor(private readonly c: PgConnection) {}

  async claimDue(now: number, limit: number, lease: ClaimLease): Promise<DueBatch> {
    const rows = await this.c.transaction(async (tx) => {
      await tx.run(this.c.sql.claimPlan);
      return tx.query<TimerColumns & { claims: number }>(this.c.sql.claimDue, [now, limit, lease.until, lease.owner]);
    });
    if (rows.length === 0) return { timers: [], inputs: [] };
    const claim: PgClaim = { owner: lease.owner, claims: new Map(rows.map((row) => [row.id, row.claims])) };
    rows.sort((a, b) => a.due - b.due || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const refs = new Map<string, AggregateRef>();
    const timers = rows.map((row) => {
      const timer = toTimer(row, refs);
      this.c.knowKey(timer.target, row.target ?? row.owner);
      return timer;
    });
    const keys = rows.map((row) => row.target ?? row.owner);
    return { timers, inputs: await this.inputsOf(timers, keys), token: claim };
  }

  /** What each timer's current slot meets: its request record, or its target's stream (read once per stream). */
  private async inputsOf(timers: readonly TimerRow[], keys: readonly string[]): Promise<DecisionInput[]> {
    const states = await this.c.query<StreamAndRequestRow & { i: number }>(this.c.sql.streamsAndRequests, [keys, timers.map((t) => slotRequestId(t.id, t.slot))]);
    states.sort((a, b) => a.i - b.i);
    /** Streams to read, each with the version its events start after (its snapshot's, or 0). */
    const wanted = new Map<string, { row: StreamAndRequestRow; after: number }>();
    states.forEach((row, i) => {
      if (row.request_version !== null || row.version === null || row.version === 0) return;
      wanted.set(keys[i]!, { row, after: 0 });
    });
    const withSnapshot = [...wanted].filter(([, w]) => w.row.snapshot_version !== null).map(([key]) => key);
    const snapshots = new Map<string, { version: number; state: unknown }>();
    if (withSnapshot.length > 0) {
      for (const s of await this.c.query<{ stream: string; version: number; state: string }>(this.c.sql.snapshots, [withSnapshot])) {
        snapshots.set(s.stream, { version: s.version, state: JSON.parse(s.state) });
        wanted.get(s.stream)!.after = s.version;
      }
    }
    const events = new Map<string, EventRow[]>();
    if (wanted.size > 0) {
      const entries = [...wanted];
      for (const row of await this.c.query<EventRow & { stream: string }>(this.c.sql.streamsEvents, [entries.map(([k]) => k), entries.map(([, w]) => w.after)])) {
        let list = events.get(row.stream);
        if (list === undefined) events.set(row.stream, (list = []));
        list.push(row);
      }
    }
    const streams = new Map<string, DecisionInput>();
    return states.map((row, i) => {
      const timer = timers[i]!;
      if (row.request_version !== null) return { decided: { requestId: slotRequestId(timer.id, timer.slot), version: row.request_version, errorCode: row.error_code! } };
      const key = keys[i]!;
      let input = streams.get(key);
      if (input === undefined) {
        const deleted = row.deleted === true;
        let stream: StoredStream;
        if (row.version === null || row.version === 0) stream = { version: 0, deleted, events: [] };
        else {
          const aggregate = refOfKey(key);
          const list = (events.get(key) ?? []).map((e) => toEvent(e, aggregate));
          const snapshot = snapshots.get(key);
          stream = snapshot === undefined ? { version: row.version, deleted, events: list } : { version: row.version, deleted, events: list, snapshot };
        }
        streams.set(key, (input = { stream }));
      }
      return input;
    });
  }

  async commitBatch(batch: DueBatch, entries: readonly BatchEntry[]): Promise<BatchOutcome[]> {
    if (entries.length === 0) return [];
    const data = entriesData(entries);
    return this.c.write((tx) => writeEntries(this.c, tx, entries, data, true, batch.token as PgClaim | undefined));
  }

  async settle(batch: DueBatch, settlements: readonly TimerSettlement[]): Promise<readonly string[]> {
    if (settlements.length === 0) return [];
    const claim = batch.token as PgClaim | undefined;
    return this.c.write(async (tx) => {
      const lost = claim === undefined ? new Set<string>() : await lostClaims(this.c, tx, claim, settlements);
      await settle(this.c, tx, lost.size === 0 ? settlements : settlements.filter((s) => !lost.has(s.id)));
      return [...lost];
    });
  }

  async counts(now: number, tenantId?: string): Promise<{ readonly due: number; readonly parked: number }> {
    const s = this.c.sql;
    const [[due], [parked]] =
      tenantId === undefined
        ? await Promise.all([this.c.query<{ n: number }>(s.countDue, [now]), this.c.query<{ n: number }>(s.countParkedTimers)])
        : await Promise.all([this.c.query<{ n: number }>(s.countDueOf, [tenantId, now]), this.c.query<{ n: number }>(s.countParkedTimersOf, [tenantId])]);
    return { due: due!.n, parked: parked!.n };
  }

  async nextDueAt(): Promise<number | undefined> {
    const [row] = await this.c.query<{ at: number | null }>(this.c.sql.nextDueAt);
    return row?.at ?? undefined;
  }

  async timer(id: string): Promise<TimerRow | undefined> {
    const [row] = await this.c.query<TimerColumns>(this.c.sql.timer, [id]);
    return row && toTimer(row);
  }

  async timersOf(owner: AggregateRef): Promise<TimerRow[]> {
    return (await this.c.query<TimerColumns>(this.c.sql.timersOf, [this.c.keyOf(owner)])).map((row) => toTimer(row));
  }

  async list(query: TimerQuery): Promise<TimerRow[]> {
    const { statement, params } = timerListStatement(this.c.schema, query, query.limit ?? DEFAULT_LIST_LIMIT);
    const refs = new Map<string, AggregateRef>();
    return (await this.c.query<TimerColumns>(statement, params)).map((row) => toTimer(row, refs));
  }

  async redrive(id: string, now: number): Promise<boolean> {
    return (await this.c.write((tx) => tx.run(this.c.sql.redrive, [now, id]))) === 1;
  }
}
