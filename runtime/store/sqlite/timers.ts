// Timers in SQLite. The store serves one host, whose one poller is the only claimer: a claim reads the
// due timers with what their slots' commands meet, without writing; the batch's commits and
// settlements are then written in one transaction, fenced by each claim's number (a later claim of a
// timer voids the earlier one's commits and settlements for it).
import type { AggregateRef } from "../../model/aggregate-ref.js";
import { slotRequestId } from "../../model/request-ids.js";
import { UnstorableCommitError } from "../errors.js";
import type { DecisionInput } from "../event-store.js";
import { commitEntries } from "../batch-rules.js";
import { ClaimFence, type ClaimNumbers } from "../claim-fence.js";
import { commitData } from "../stored-json.js";
import type { BatchEntry, BatchOutcome, ClaimLease, DueBatch, TimerQuery, TimerRow, TimerSettlement, TimerStore } from "../timer-store.js";
import { bulkStatements, commitBulk, type BulkStatements, type EntryData, type WriteMark } from "./bulk-commit.js";
import type { SqliteConnection, StreamState } from "./connection.js";
import { toTimer, type TimerColumns } from "../sql-rows.js";
import { timerListStatement } from "./timer-list.js";
import { NamedRows } from "./named-rows.js";

/** What a claim read, for `commitBatch`: the file's write mark before the read, each timer's rowid, and its claim number. */
export interface SqliteClaim {
  readonly mark: WriteMark;
  readonly rows: readonly number[];
  readonly claims: ClaimNumbers;
}

const DEFAULT_LIST_LIMIT = 1000;

export class SqliteTimerStore implements TimerStore {
  private readonly settleTx;
  private readonly batchTx;
  private readonly bulk: BulkStatements;
  private readonly fence = new ClaimFence();
  /** The listing statements prepared so far, by their text (one per combination of filters: at most 64). */
  private readonly listings = new Map<string, NamedRows<unknown[], TimerColumns>>();

  constructor(private readonly c: SqliteConnection) {
    this.bulk = bulkStatements(c.db);
    this.settleTx = c.db.transaction((settlements: readonly TimerSettlement[]) => c.settle(settlements));
    this.batchTx = c.db.transaction((batch: DueBatch, entries: readonly BatchEntry[], data: readonly EntryData[]) => this.commitBatchNow(batch, entries, data));
  }

  async claimDue(now: number, limit: number, _lease: ClaimLease): Promise<DueBatch> {
    return this.c.guard(() => {
      // The mark first: a write after it (even one the read sees) voids what is read for `commitBatch`.
      const mark = this.writeMark();
      const refs = new Map<string, AggregateRef>();
      const timers: TimerRow[] = [];
      const inputs: DecisionInput[] = [];
      const rows: number[] = [];
      /** The streams read so far: timers of one target share its events. */
      const streams = new Map<string, DecisionInput>();
      // In due order (a stable sort: timers due together stay in the order they fire).
      for (const row of this.c.stmt.dueWithInputs.all(now, limit).sort(byDue)) {
        const timer = toTimer(row, refs);
        const key = row.target ?? row.owner;
        this.c.knowKey(timer.target, key);
        timers.push(timer);
        rows.push(row.row);
        if (row.request_version !== null) {
          inputs.push({ decided: { requestId: slotRequestId(timer.id, timer.slot), version: row.request_version, errorCode: row.error_code! } });
          continue;
        }
        let input = streams.get(key);
        if (input === undefined) streams.set(key, (input = { stream: this.c.streamOf(key, row, true, timer.target) }));
        inputs.push(input);
      }
      const claim: SqliteClaim = { mark, rows, claims: this.fence.claim(timers.map((t) => t.id)) };
      return { timers, inputs, token: claim };
    });
  }

  async commitBatch(batch: DueBatch, entries: readonly BatchEntry[]): Promise<BatchOutcome[]> {
    if (entries.length === 0) return [];
    // The JSON first, outside the transaction: an entry that cannot be stored is refused alone.
    const data = entries.map(({ commit }): EntryData => {
      if (commit === undefined) return undefined;
      try {
        return commitData(commit);
      } catch (error) {
        if (error instanceof UnstorableCommitError) return error;
        throw error;
      }
    });
    const outcomes = this.c.guard(() => this.batchTx.immediate(batch, entries, data));
    // Once written, the settled slots' claims end.
    this.fence.release(entries.filter((_, i) => outcomes[i]!.ok).map((e) => e.settlement));
    return outcomes;
  }

  async settle(batch: DueBatch, settlements: readonly TimerSettlement[]): Promise<readonly string[]> {
    const { held, lost } = this.fence.split((batch.token as SqliteClaim | undefined)?.claims, settlements);
    this.c.guard(() => {
      if (held.length > 0) this.settleTx.immediate(held);
    });
    this.fence.release(held);
    return lost;
  }

  async counts(now: number, tenantId?: string): Promise<{ readonly due: number; readonly parked: number }> {
    return this.c.guard(() => {
      const s = this.c.stmt;
      if (tenantId !== undefined) return { due: s.countDueOf.get(tenantId, now)!.n, parked: s.countParkedTimersOf.get(tenantId)!.n };
      return { due: s.countDue.get(now)!.n, parked: s.countParkedTimers.get()!.n };
    });
  }

  async nextDueAt(): Promise<number | undefined> {
    return this.c.guard(() => {
      return this.c.stmt.nextDueAt.get()?.at ?? undefined;
    });
  }

  async timer(id: string): Promise<TimerRow | undefined> {
    return this.c.guard(() => {
      const row = this.c.stmt.timer.get(id);
      return row && toTimer(row);
    });
  }

  async timersOf(owner: AggregateRef): Promise<TimerRow[]> {
    return this.c.guard(() => {
      return this.c.stmt.timersOf.all(this.c.keyOf(owner)).map((row) => toTimer(row));
    });
  }

  async list(query: TimerQuery): Promise<TimerRow[]> {
    return this.c.guard(() => {
      const { sql, params } = timerListStatement(query, query.limit ?? DEFAULT_LIST_LIMIT);
      let statement = this.listings.get(sql);
      if (statement === undefined) this.listings.set(sql, (statement = new NamedRows(this.c.db.prepare<unknown[], TimerColumns>(sql))));
      const refs = new Map<string, AggregateRef>();
      return statement.all(...params).map((row) => toTimer(row, refs));
    });
  }

  async redrive(id: string, now: number): Promise<boolean> {
    return this.c.guard(() => {
      return this.c.stmt.redrive.run(now, id).changes === 1;
    });
  }

  private writeMark(): WriteMark {
    const { changes, data_version } = this.c.stmt.writeMark.get()!;
    return [changes, data_version];
  }

  /**
   * `commitBatch` inside its transaction. When nothing was written since the claim read the batch (its
   * mark is unchanged, and the write lock now keeps it so), the streams are as the batch's inputs hold
   * them: the commits are checked against those and written in multi-row statements. Otherwise, or when
   * a commit would not pass, each commit is checked against the store, one by one.
   */
  private commitBatchNow(batch: DueBatch, entries: readonly BatchEntry[], data: readonly EntryData[]): BatchOutcome[] {
    const claim = batch.token as SqliteClaim | undefined;
    const lost = (s: TimerSettlement) => this.fence.lost(claim?.claims, s);
    // A lost claim's entry is skipped one by one, by the rules every store shares.
    const current = claim !== undefined && sameMark(claim.mark, this.writeMark()) && !entries.some((e) => lost(e.settlement));
    let known: Map<string, StreamState> | undefined;
    if (current) {
      known = new Map();
      const undecided = new Map<string, string>();
      batch.timers.forEach((timer, i) => {
        const stream = batch.inputs[i]!.stream;
        if (stream === undefined) return;
        const key = this.c.keyOf(timer.target);
        if (!known!.has(key)) known!.set(key, { version: stream.version, deleted: stream.deleted });
        undecided.set(slotRequestId(timer.id, timer.slot), key);
      });
      const bulk = commitBulk(this.c, this.bulk, entries, data, { streams: known, undecided, batch, rows: claim.rows });
      if (bulk !== undefined) return bulk;
    }
    return commitEntries(entries, {
      keyOf: (ref) => this.c.keyOf(ref),
      append: (commit, i) => this.c.writeCommit(commit, data[i]!, known),
      lost,
      settle: (s) => this.c.settle(s),
    });
  }
}

const byDue = (a: { readonly due: number }, b: { readonly due: number }): number => a.due - b.due;

function sameMark(a: WriteMark, b: WriteMark): boolean {
  return a[0] === b[0] && a[1] === b[1];
}
