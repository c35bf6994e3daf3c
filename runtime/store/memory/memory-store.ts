import { slotRequestId } from "../../model/request-ids.js";
import { refKey, type AggregateRef } from "../../model/aggregate-ref.js";
import type { EventMessage } from "../../model/messages.js";
import { commitEntries } from "../batch-rules.js";
import { ClaimFence, claimNumbersOf } from "../claim-fence.js";
import { DuplicateRequestError, VersionConflictError } from "../errors.js";
import type { AppendResult, Commit, DecisionInput, EventStore, RequestRecord, StoredStream, TimerChange, TimerSpec } from "../event-store.js";
import type { Store } from "../store.js";
import { atPosition, commitData, toEvent } from "../stored-json.js";
import { timerOrderKey, type BatchEntry, type BatchOutcome, type ClaimLease, type DueBatch, type TimerQuery, type TimerRow, type TimerSettlement, type TimerStore } from "../timer-store.js";
import { MinHeap } from "./min-heap.js";
import { MemoryRunStore } from "./runs.js";
import { MemorySubscriptionStore } from "./subscriptions.js";

interface Stream {
  version: number;
  deleted: boolean;
  events: EventMessage[];
  requests: Map<string, RequestRecord>;
  /** The latest snapshot: its version and its state's JSON. */
  snapshot?: { version: number; json: string };
}

/**
 * A store in memory, for tests: events, timers and subscription state of one host. Stores copies, and
 * keeps exactly what the SQLite store's JSON would give back.
 */
export class MemoryStore implements Store, EventStore, TimerStore {
  readonly kind = "memory";
  readonly events: EventStore = this;
  readonly timers: TimerStore = this;
  readonly subscriptions = new MemorySubscriptionStore();
  readonly runs = new MemoryRunStore();
  private readonly streams = new Map<string, Stream>();
  private readonly log: EventMessage[] = [];
  private readonly timers_ = new Map<string, TimerRow>();
  private readonly timersByOwner = new Map<string, Map<string, string>>();
  /** Pending timers by fireAt; stale entries (fireAt moved, timer gone) are skipped lazily. */
  private readonly due = new MinHeap<string>();
  private readonly fence = new ClaimFence();

  async load(aggregate: AggregateRef): Promise<StoredStream> {
    const stream = this.streams.get(refKey(aggregate));
    if (!stream) return { version: 0, deleted: false, events: [] };
    return { version: stream.version, deleted: stream.deleted, events: structuredClone(stream.events) };
  }

  async loadLatest(aggregate: AggregateRef): Promise<StoredStream> {
    const stream = this.streams.get(refKey(aggregate));
    if (!stream) return { version: 0, deleted: false, events: [] };
    const snapshot = stream.snapshot;
    if (snapshot === undefined) return this.load(aggregate);
    const after = stream.events.filter((e) => e.version > snapshot.version);
    return { version: stream.version, deleted: stream.deleted, events: structuredClone(after), snapshot: { version: snapshot.version, state: JSON.parse(snapshot.json) } };
  }

  async findRequest(aggregate: AggregateRef, requestId: string): Promise<RequestRecord | undefined> {
    const record = this.streams.get(refKey(aggregate))?.requests.get(requestId);
    return record && { ...record };
  }

  async loadForDecision(aggregate: AggregateRef, requestId: string): Promise<DecisionInput> {
    const decided = await this.findRequest(aggregate, requestId);
    return decided ? { decided } : { stream: await this.loadLatest(aggregate) };
  }

  async append(commit: Commit): Promise<AppendResult> {
    return this.appendNow(commit);
  }

  /** Synchronous, so nothing interleaves: all or nothing as one transaction is. */
  async commitBatch(batch: DueBatch, entries: readonly BatchEntry[]): Promise<BatchOutcome[]> {
    const claims = claimNumbersOf(batch);
    return commitEntries(entries, {
      keyOf: refKey,
      append: (c) => this.appendNow(c),
      lost: (s) => this.fence.lost(claims, s),
      settle: (s) => {
        this.fence.release(s);
        this.settleNow(s);
      },
    });
  }

  /**
   * Everything is computed first — the checks and the copies — and only then written, so a refused commit
   * leaves no trace. The copies are what the SQLite journal gives back: its JSON of the commit (made by
   * `commitData`, which refuses with UnstorableCommitError what it cannot store), parsed.
   */
  private appendNow(commit: Commit): AppendResult {
    const data = commitData(commit);
    const key = refKey(commit.aggregate);
    const existing = this.streams.get(key);
    const version = existing?.version ?? 0;
    if (commit.expectedVersion !== undefined && version !== commit.expectedVersion) {
      throw new VersionConflictError(commit.aggregate, commit.expectedVersion, version);
    }
    if (existing?.requests.has(commit.request.requestId)) throw new DuplicateRequestError(commit.aggregate, commit.request.requestId);
    const first = this.log.length + 1;
    const committed = commit.events.map((event, i) =>
      toEvent({ position: first + i, version: event.version, sequence: event.sequence, type: event.type, data: data.events[i]! }, structuredClone(event.aggregate)),
    );
    const specs = commit.timers.map((change, i) => (change.kind === "set" ? storedSpec(change.timer, data.specs[i]!) : undefined));
    const request: RequestRecord = { ...commit.request };
    // The committed events as the SQLite journal returns them: the commit's own, at their positions.
    const result: AppendResult = { version: committed.length > 0 ? committed[0]!.version : version, events: commit.events.map((event, i) => atPosition(event, first + i)) };

    const stream: Stream = existing ?? { version: 0, deleted: false, events: [], requests: new Map() };
    for (const event of committed) {
      this.log.push(event);
      stream.events.push(event);
    }
    stream.version = result.version;
    if (commit.deleted) stream.deleted = true;
    stream.requests.set(request.requestId, request);
    if (data.snapshot !== undefined && (stream.snapshot === undefined || stream.snapshot.version < commit.snapshot!.version)) {
      stream.snapshot = { version: commit.snapshot!.version, json: data.snapshot };
    }
    this.streams.set(key, stream);
    commit.timers.forEach((change, i) => this.applyChange(commit.aggregate, change, specs[i]));
    return result;
  }

  async read(after: number, limit: number): Promise<EventMessage[]> {
    return structuredClone(this.log.slice(Math.max(0, after), Math.max(0, after) + limit));
  }

  async lastPosition(): Promise<number> {
    return this.log.length;
  }

  /** Claims by reading (one host: its poller is the only claimer); the timers stay due until settled, each claim numbered for fencing. */
  async claimDue(now: number, limit: number, _lease: ClaimLease): Promise<DueBatch> {
    const due: TimerRow[] = [];
    while (due.length < limit) {
      const top = this.due.peek();
      if (!top || top.key > now) break;
      this.due.pop();
      const row = this.timers_.get(top.value);
      if (row && row.status === "pending" && row.fireAt === top.key) due.push(row);
    }
    for (const row of due) this.due.push(row.fireAt, row.id);
    const timers = structuredClone(due).sort((a, b) => a.due - b.due);
    const inputs: DecisionInput[] = [];
    for (const timer of timers) inputs.push(await this.loadForDecision(timer.target, slotRequestId(timer.id, timer.slot)));
    return { timers, inputs, token: { claims: this.fence.claim(timers.map((t) => t.id)) } };
  }

  async nextDueAt(): Promise<number | undefined> {
    for (;;) {
      const top = this.due.peek();
      if (!top) return undefined;
      const row = this.timers_.get(top.value);
      if (row && row.status === "pending" && row.fireAt === top.key) return top.key;
      this.due.pop();
    }
  }

  async counts(now: number, tenantId?: string): Promise<{ readonly due: number; readonly parked: number }> {
    let due = 0;
    let parked = 0;
    for (const row of this.timers_.values()) {
      if (tenantId !== undefined && row.owner.tenantId !== tenantId) continue;
      if (row.status === "parked") parked++;
      else if (row.status === "pending" && row.fireAt <= now) due++;
    }
    return { due, parked };
  }

  async settle(batch: DueBatch, settlements: readonly TimerSettlement[]): Promise<readonly string[]> {
    const { held, lost } = this.fence.split(claimNumbersOf(batch), settlements);
    this.settleNow(held);
    this.fence.release(held);
    return lost;
  }

  private settleNow(settlements: readonly TimerSettlement[]): void {
    for (const { id, slot, outcome } of settlements) {
      const row = this.timers_.get(id);
      if (!row || row.slot !== slot || row.status !== "pending") continue;
      switch (outcome.kind) {
        case "done":
          this.remove(id);
          break;
        case "next": {
          const { lastError: _error, ...rest } = row;
          this.put({ ...rest, slot: outcome.slot, due: outcome.due, fireAt: outcome.due, attempts: 0 });
          break;
        }
        case "retry":
          this.put({ ...row, attempts: outcome.attempts, fireAt: outcome.fireAt, lastError: outcome.error });
          break;
        case "park":
          this.put({ ...row, status: "parked", attempts: outcome.attempts, lastError: outcome.error, parkedAt: outcome.at });
          break;
      }
    }
  }

  async timer(id: string): Promise<TimerRow | undefined> {
    const row = this.timers_.get(id);
    return row && structuredClone(row);
  }

  async timersOf(owner: AggregateRef): Promise<TimerRow[]> {
    const ids = this.timersByOwner.get(refKey(owner));
    return ids ? [...ids.values()].map((id) => structuredClone(this.timers_.get(id)!)) : [];
  }

  async list(query: TimerQuery): Promise<TimerRow[]> {
    const { status, tenantId, aggregateId, key, command, after } = query;
    const order = (a: TimerRow, b: TimerRow) => {
      const [x, y] = [timerOrderKey(a), timerOrderKey(b)];
      return x[0] - y[0] || compare(x[1], y[1]);
    };
    const isAfter = (row: TimerRow) => {
      if (after === undefined) return true;
      const [at, id] = timerOrderKey(row);
      return at > after[0] || (at === after[0] && id > after[1]);
    };
    return [...this.timers_.values()]
      .filter(
        (row) =>
          row.status === status &&
          (tenantId === undefined || row.owner.tenantId === tenantId) &&
          (aggregateId === undefined || row.owner.id === aggregateId) &&
          (key === undefined || row.key === key) &&
          (command === undefined || row.command.type === command) &&
          isAfter(row),
      )
      .sort(order)
      .slice(0, query.limit ?? 1000)
      .map((row) => structuredClone(row));
  }

  async redrive(id: string, now: number): Promise<boolean> {
    const row = this.timers_.get(id);
    if (!row || row.status !== "parked") return false;
    const { parkedAt: _parked, ...rest } = row;
    this.put({ ...rest, status: "pending", attempts: 0, fireAt: now });
    return true;
  }

  async close(): Promise<void> {}

  /** `spec`: a set's timer as stored (`storedSpec`). */
  private applyChange(owner: AggregateRef, change: TimerChange, spec: TimerSpec | undefined): void {
    const keys = this.timersByOwner.get(refKey(owner));
    if (change.kind === "cancelAll") {
      for (const id of keys?.values() ?? []) this.remove(id);
      return;
    }
    const key = change.kind === "set" ? change.timer.key : change.key;
    const existing = keys?.get(key);
    if (existing !== undefined) this.remove(existing);
    if (spec !== undefined) this.put({ ...spec, status: "pending", fireAt: spec.due, attempts: 0 });
  }

  private put(row: TimerRow): void {
    this.timers_.set(row.id, row);
    const ownerKey = refKey(row.owner);
    const keys = this.timersByOwner.get(ownerKey) ?? new Map<string, string>();
    keys.set(row.key, row.id);
    this.timersByOwner.set(ownerKey, keys);
    if (row.status === "pending") this.due.push(row.fireAt, row.id);
  }

  private remove(id: string): void {
    const row = this.timers_.get(id);
    if (!row) return;
    this.timers_.delete(id);
    const ownerKey = refKey(row.owner);
    const keys = this.timersByOwner.get(ownerKey);
    keys?.delete(row.key);
    if (keys?.size === 0) this.timersByOwner.delete(ownerKey);
  }
}

/** A set timer as the SQLite journal gives it back: its rule and command from its spec JSON (`commitData`), the rest copied. */
function storedSpec(timer: TimerSpec, json: string): TimerSpec {
  const { rule, command } = JSON.parse(json) as Pick<TimerSpec, "rule" | "command">;
  return { ...structuredClone({ ...timer, rule: undefined, command: undefined }), rule, command };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
