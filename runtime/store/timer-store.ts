// The store of timers: the schedules commits set, claimed when due, settled after delivery (done,
// next slot, retry, park), listed and re-driven by operators.
import type { AggregateRef } from "../model/aggregate-ref.js";
import type { CommitRefusal } from "./errors.js";
import type { AppendResult, Commit, DecisionInput, TimerSpec } from "./event-store.js";

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

/** Who claims due timers, and until when the claim holds them. */
export interface ClaimLease {
  readonly owner: string;
  readonly until: number;
}

/**
 * Timers claimed together, with what each one's current slot (`timer#slot`) meets as read with the
 * claim: the slot's request record if it was decided, else the target's stream. Handed back to
 * `commitBatch`, which checks on commit that the streams are still as read.
 */
export interface DueBatch {
  /** Earliest due first. */
  readonly timers: readonly TimerRow[];
  /** `inputs[i]`: what the command of `timers[i]`'s current slot meets. */
  readonly inputs: readonly DecisionInput[];
  /** The store's own note of the read, for `commitBatch` (callers pass the batch back as it is). */
  readonly token?: unknown;
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

/** One delivery of a batch: its commit (none for a duplicate or a failure) and how its slot ends. */
export interface BatchEntry {
  readonly commit?: Commit;
  readonly settlement: TimerSettlement;
}

/**
 * A batch entry's fate: its commit's result (none without a commit), its refusal, or its claim lost (then
 * nothing of the entry was applied: another claim took the timer after this one's lease lapsed, and the
 * slot is that claimer's to decide).
 */
export type BatchOutcome =
  | { readonly ok: true; readonly appended?: AppendResult }
  | { readonly ok: false; readonly lost: true }
  | {
      readonly ok: false;
      readonly error: CommitRefusal;
      /** Refused only because an earlier commit of its aggregate in the batch was: never tried. */
      readonly untried?: true;
    };

export interface TimerQuery {
  readonly status: TimerStatus;
  /** Only timers whose owner is in this tenant. */
  readonly tenantId?: string;
  /** Only timers whose owner has this aggregate id. */
  readonly aggregateId?: string;
  /** Only timers set under this key. */
  readonly key?: string;
  /** Only timers whose command is of this type. */
  readonly command?: string;
  /** Only timers listed after this one: its order key (`due` when pending, `parkedAt` when parked) and its id. */
  readonly after?: readonly [number, string];
  readonly limit?: number;
}

/** A timer's place in its list (`TimerQuery.after`): pending ones by due time, parked ones by parking time, then id. */
export function timerOrderKey(timer: TimerRow): readonly [number, string] {
  return [timer.status === "pending" ? timer.due : (timer.parkedAt ?? 0), timer.id];
}

export interface TimerStore {
  /**
   * Claims up to `limit` pending timers with fireAt <= now, earliest first. A store shared by several
   * hosts leases them to `lease.owner` until `lease.until`; a store that serves one host may claim by
   * reading alone (its one poller is the only claimer).
   */
  claimDue(now: number, limit: number, lease: ClaimLease): Promise<DueBatch>;
  /**
   * Appends the entries' commits in order and settles their slots, in ONE transaction. A refused commit
   * (VersionConflictError, DuplicateRequestError, UnstorableCommitError) writes nothing and its settlement
   * is not applied; every later commit of the same aggregate in the batch is refused too (it was decided
   * on top of the refused one). Any other error rolls the whole batch back. Fenced: an entry whose timer
   * was claimed again since `batch` claimed it (its lease lapsed) writes nothing and is `lost`, and so
   * is every later commit of its aggregate in the batch.
   */
  commitBatch(batch: DueBatch, entries: readonly BatchEntry[]): Promise<BatchOutcome[]>;
  /** Settles slots of timers `batch` claimed, fenced as `commitBatch`: returns the ids whose claim was lost (those are left as they are). */
  settle(batch: DueBatch, settlements: readonly TimerSettlement[]): Promise<readonly string[]>;
  /** The earliest fireAt of a pending timer. */
  nextDueAt(): Promise<number | undefined>;
  /** How many pending timers are due by `now` (fireAt ≤ now), and how many are parked: for metrics (of one tenant's owners, when given). */
  counts(now: number, tenantId?: string): Promise<{ readonly due: number; readonly parked: number }>;
  timer(id: string): Promise<TimerRow | undefined>;
  /** Pending and parked timers an aggregate owns, by key. */
  timersOf(owner: AggregateRef): Promise<TimerRow[]>;
  /** Pending timers earliest due first, or parked ones in parking order, that match the query's filters (each one an index seek in a database). */
  list(query: TimerQuery): Promise<TimerRow[]>;
  /** Puts a parked timer back to pending, due now, attempts reset. False if it is not parked. */
  redrive(id: string, now: number): Promise<boolean>;
}
