// The store of events and request ids: an aggregate's stream, the request ids it decided (each decided
// once), and the global order subscriptions read. A commit also carries the schedule changes of its
// decision, which the store applies to its timers in the same transaction.
import type { AggregateRef } from "../model/aggregate-ref.js";
import type { Causation, CommandDraft, EventMessage } from "../model/messages.js";
import type { ScheduleRule } from "../model/schedule-rule.js";

/** A state as a commit left it, kept so that later decisions fold only the events after it. */
export interface Snapshot {
  readonly version: number;
  /** The state, as JSON gives it back. */
  readonly state: unknown;
}

/** An aggregate's committed history. */
export interface StoredStream {
  /** 0 when the aggregate does not exist. */
  readonly version: number;
  readonly deleted: boolean;
  /** Every event, or (with `snapshot`) the events after it. */
  readonly events: readonly EventMessage[];
  /** The latest snapshot, when the stream was read from it (`loadLatest`, decisions). */
  readonly snapshot?: Snapshot;
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
  /** The state after this commit, kept as the aggregate's latest snapshot (its version is the commit's). */
  readonly snapshot?: Snapshot;
}

export interface AppendResult {
  readonly version: number;
  /** Committed events with their global positions. */
  readonly events: readonly EventMessage[];
}

export interface EventStore {
  /** Every event of the stream. */
  load(aggregate: AggregateRef): Promise<StoredStream>;
  /** The latest snapshot (if any) and the events after it: what a decision folds. */
  loadLatest(aggregate: AggregateRef): Promise<StoredStream>;
  findRequest(aggregate: AggregateRef, requestId: string): Promise<RequestRecord | undefined>;
  /** `findRequest`, then (if not decided) `loadLatest`, in one read. */
  loadForDecision(aggregate: AggregateRef, requestId: string): Promise<DecisionInput>;
  /** Throws VersionConflictError, DuplicateRequestError or UnstorableCommitError, committing nothing. */
  append(commit: Commit): Promise<AppendResult>;
  /**
   * Committed events in global order, with position > `after`, at most `limit`. Never skips: an event
   * not yet visible to readers has no position below one that is.
   */
  read(after: number, limit: number): Promise<EventMessage[]>;
  /** The position of the last committed event (0: none): how far behind a subscription is. */
  lastPosition(): Promise<number>;
}
