import type { AggregateRef } from "../model/aggregate-ref.js";
import type { Causation, CommandDraft, EventMessage } from "../model/messages.js";
import type { ScheduleRule } from "../model/schedule-rule.js";

/** An aggregate's committed history. */
export interface StoredStream {
  /** 0 when the aggregate does not exist. */
  readonly version: number;
  readonly deleted: boolean;
  readonly events: readonly EventMessage[];
}

/** A request id recorded for an aggregate, with how it was decided. */
export interface RequestRecord {
  readonly requestId: string;
  readonly version: number;
  /** "Ok" when decided, else the rejection code. */
  readonly errorCode: string;
}

/** What a command meets before it is decided: its request id's record if already decided, else the aggregate's stream. */
export type DecisionInput = { readonly decided: RequestRecord; readonly stream?: undefined } | { readonly decided?: undefined; readonly stream: StoredStream };

/** A pending schedule as set by a commit. */
export interface TimerSpec {
  /** Unique per ScheduleSet (the ScheduleSet event id). */
  readonly id: string;
  readonly owner: AggregateRef;
  readonly key: string;
  readonly rule: ScheduleRule;
  readonly command: CommandDraft;
  readonly target: AggregateRef;
  readonly causation: Causation;
  /** 1-based slot to deliver next, and its due time (epoch ms). */
  readonly slot: number;
  readonly due: number;
}

export type TimerStatus = "pending" | "parked";

/** A stored timer: its spec plus delivery bookkeeping. */
export interface TimerRow extends TimerSpec {
  readonly status: TimerStatus;
  /** When the poller may next claim it: the due time, a retry's backoff, or a claim's lease end. */
  readonly fireAt: number;
  /** Failed attempts for the current slot. */
  readonly attempts: number;
  readonly lastError?: string;
  readonly parkedAt?: number;
}

export type TimerChange =
  | { readonly kind: "set"; readonly timer: TimerSpec }
  | { readonly kind: "cancel"; readonly key: string }
  | { readonly kind: "cancelAll" };

/** One atomic append: events, the request id, schedule changes, deletion — all or nothing. */
export interface Commit {
  readonly aggregate: AggregateRef;
  /** Optimistic concurrency: the version the decision saw; omitted to record a request without a version check. */
  readonly expectedVersion?: number;
  /** Versioned `expectedVersion + 1`; none → the version does not move. */
  readonly events: readonly EventMessage[];
  readonly request: RequestRecord;
  readonly timers: readonly TimerChange[];
  readonly deleted?: boolean;
}

export interface AppendResult {
  readonly version: number;
  /** Committed events with their global positions. */
  readonly events: readonly EventMessage[];
}

/** How a claimed timer's slot ended. Applied only if the timer still is at `slot` (else it was replaced or moved on). */
export interface TimerSettlement {
  readonly id: string;
  readonly slot: number;
  readonly outcome:
    | { readonly kind: "done" }
    | { readonly kind: "next"; readonly slot: number; readonly due: number }
    | { readonly kind: "retry"; readonly attempts: number; readonly fireAt: number; readonly error: string }
    | { readonly kind: "park"; readonly attempts: number; readonly error: string; readonly at: number };
}

export class VersionConflictError extends Error {
  constructor(readonly aggregate: AggregateRef, readonly expected: number, readonly actual: number) {
    super(`version conflict on ${aggregate.context}.${aggregate.aggregate}/${aggregate.id}: expected ${expected}, found ${actual}`);
    this.name = "VersionConflictError";
  }
}

export class DuplicateRequestError extends Error {
  constructor(readonly aggregate: AggregateRef, readonly requestId: string) {
    super(`request ${requestId} was already decided for ${aggregate.context}.${aggregate.aggregate}/${aggregate.id}`);
    this.name = "DuplicateRequestError";
  }
}

/**
 * A commit holding a value the journal cannot store. What is stored is exactly what a JSON round trip of
 * it gives back (SQLite keeps bodies as JSON), so an event body or a scheduled command holding anything
 * that would not come back as it is — a Date, Map, Set, RegExp, class instance, function, symbol, BigInt,
 * NaN or ±Infinity, `undefined` in an array, a cycle — is refused, as is an event whose type is not a
 * non-empty string. (An `undefined` object property is not refused: it is left out, as JSON leaves it out
 * and as an optional field reads; -0 is stored as 0.) Found before anything is written, so it fails that
 * commit alone, never the transaction it would have shared; the memory journal refuses the same commits.
 * `where`: the event (its number in the commit and type) or the schedule; `problem`: the offending value's
 * path and what it is, e.g. `body.since: a Date`.
 */
export class UnstorableCommitError extends Error {
  constructor(
    readonly aggregate: AggregateRef,
    readonly requestId: string,
    readonly where: string,
    readonly problem: string,
    cause?: unknown,
  ) {
    super(`cannot store the commit of request ${requestId} on ${aggregate.context}.${aggregate.aggregate}/${aggregate.id}: ${where}: ${problem}`, cause === undefined ? undefined : { cause });
    this.name = "UnstorableCommitError";
  }
}

/** One delivery of a timer batch for `Journal.commitBatch`: its commit (none for a duplicate) and how its slot ends. */
export interface BatchEntry {
  readonly commit?: Commit;
  readonly settlement: TimerSettlement;
}

/** A batch entry's fate: its commit's result (none without a commit), or its refusal (then nothing of the entry was applied). */
export type BatchOutcome =
  | { readonly ok: true; readonly appended?: AppendResult }
  | {
      readonly ok: false;
      readonly error: VersionConflictError | DuplicateRequestError | UnstorableCommitError;
      /** Refused only because an earlier commit of its aggregate in the batch was: never tried. */
      readonly untried?: true;
    };

/** What a command of a batch is decided against, as `loadForDecision` asks it. */
export interface DecisionRequest {
  readonly aggregate: AggregateRef;
  readonly requestId: string;
}

/** The store of events, request ids and timers. Both implementations pass one contract suite. */
export interface Journal {
  load(aggregate: AggregateRef): Promise<StoredStream>;
  findRequest(aggregate: AggregateRef, requestId: string): Promise<RequestRecord | undefined>;
  /** `findRequest`, then (if not decided) `load`, in one read. */
  loadForDecision(aggregate: AggregateRef, requestId: string): Promise<DecisionInput>;
  /** Throws VersionConflictError, DuplicateRequestError or UnstorableCommitError, committing nothing. */
  append(commit: Commit): Promise<AppendResult>;
  /** Committed events in global order, with position > `after`. */
  read(after: number, limit: number): Promise<EventMessage[]>;

  /** Claims up to `limit` pending timers with fireAt <= now, earliest first, leasing them until `leaseUntil`. */
  claimDue(now: number, limit: number, leaseUntil: number, owner: string): Promise<TimerRow[]>;
  /** The earliest fireAt of a pending timer. */
  nextFireAt(): Promise<number | undefined>;
  settle(settlements: readonly TimerSettlement[]): Promise<void>;
  timer(id: string): Promise<TimerRow | undefined>;
  /** Pending and parked timers an aggregate owns. */
  timersOf(owner: AggregateRef): Promise<TimerRow[]>;
  /** Pending timers, earliest due first (operators' listings); of the owners in `tenantId` only, when given. */
  pendingTimers(limit?: number, tenantId?: string): Promise<TimerRow[]>;
  /** Parked timers, in parking order; of the owners in `tenantId` only, when given. */
  parked(limit?: number, tenantId?: string): Promise<TimerRow[]>;
  /** Puts a parked timer back to pending, due now, attempts reset. False if it is not parked. */
  redrive(id: string, now: number): Promise<boolean>;
  close(): Promise<void>;

  /**
   * Optional (the set-based batch path): pending timers with fireAt <= now, earliest first, at most
   * `limit`, read without leasing them — for a poller that commits their deliveries and settlements in
   * one `commitBatch`. A crash before it leaves them due; another poller delivering one meanwhile is
   * safe (its request id is decided once; a settlement for a slot already moved on is ignored).
   */
  dueTimers?(now: number, limit: number): Promise<TimerRow[]>;
  /** Optional (the set-based batch path of the timer service): `loadForDecision` of many requests in one read, in order. */
  loadForDecisions?(requests: readonly DecisionRequest[]): Promise<DecisionInput[]>;
  /**
   * Optional (with `loadForDecisions`): appends the entries' commits in order and settles their slots, in ONE
   * transaction. A refused commit (VersionConflictError, DuplicateRequestError, UnstorableCommitError) writes
   * nothing and its settlement is not applied; every later commit of the same aggregate in the batch is refused too (it was
   * decided on top of the refused one). Any other error rolls the whole batch back.
   */
  commitBatch?(entries: readonly BatchEntry[]): Promise<BatchOutcome[]>;
  /**
   * Optional: housekeeping for a moment with nothing due (the timer poller calls it when it has
   * caught up), e.g. SQLite's WAL checkpoint, so that it does not stall a burst of deliveries.
   */
  idle?(): Promise<void>;
}
