// The run log: every run of a job (each attempt of each slot, and the slots an overlap policy skipped)
// and every delivery attempt of a timer, kept for a while for operators, newest first.

/** How one run of a job ended. */
export type RunOutcome =
  /** The handler returned, and every command it sent was decided (or had been). */
  | "succeeded"
  /** The handler returned, but a command it sent was refused by its target (`error` says which). */
  | "failed"
  /** The handler threw or ran past its timeout; the slot is tried again (`error`). */
  | "retrying"
  /** The last attempt failed: the slot's tick is parked until an operator re-drives it (`error`). */
  | "parked"
  /** The overlap policy did not run the slot (a run of the instance was in progress). */
  | "skipped";

/** What started a run: its slot coming due, an operator's trigger, or a backfill of a past range. */
export type RunKind = "scheduled" | "manual" | "backfill";

export interface JobRun {
  /** Unique, time-ordered. */
  readonly id: string;
  readonly context: string;
  readonly job: string;
  /** The job instance's id (`<job>` or `<job>#<partition>`). */
  readonly instance: string;
  readonly tenantId: string;
  readonly partition?: number;
  readonly slot: number;
  /** The slot's due time (epoch ms): with the instance, the run's identity. */
  readonly due: number;
  readonly started: number;
  readonly finished: number;
  readonly kind: RunKind;
  readonly outcome: RunOutcome;
  /** 1 for the first attempt of a slot. */
  readonly attempt: number;
  readonly error?: string;
  /** The request ids of the commands the run sent. */
  readonly commands: readonly string[];
  /** The host that ran it. */
  readonly host: string;
  /** The tick event it ran for (its causation). */
  readonly tick?: string;
}

/** How one delivery attempt of a timer's slot ended. */
export type AttemptOutcome = "decided" | "rejected" | "duplicate" | "retrying" | "parked";

export interface TimerAttempt {
  readonly id: string;
  readonly timer: string;
  readonly slot: number;
  readonly due: number;
  readonly at: number;
  readonly outcome: AttemptOutcome;
  readonly attempt: number;
  /** The target's rejection code, or the failure. */
  readonly error?: string;
  readonly host: string;
  /** The tenant of the timer's owner (a tenant's caller sees its own timers only). */
  readonly tenantId: string;
}

export interface RunQuery {
  readonly context: string;
  readonly instance: string;
  readonly tenantId: string;
  /** An outcome, or a kind (`manual`, `backfill`, `scheduled`). */
  readonly outcome?: RunOutcome | RunKind;
  /** Runs of slots due at or after `from`, before `to` (epoch ms). */
  readonly from?: number;
  readonly to?: number;
  /** From a page's `next`. */
  readonly cursor?: string;
  readonly limit: number;
}

export interface Page<T> {
  readonly items: readonly T[];
  /** The cursor of the next page, when there is one. */
  readonly next?: string;
}

/** An instance as the run log keys it. */
export interface InstanceKey {
  readonly context: string;
  readonly instance: string;
  readonly tenantId: string;
}

export interface RunStore {
  record(run: JobRun): Promise<void>;
  /** Runs of one instance, newest first. */
  runs(query: RunQuery): Promise<Page<JobRun>>;
  /** The latest run of each instance that has one (by `instanceKeyOf`). */
  lastRuns(instances: readonly InstanceKey[]): Promise<Map<string, JobRun>>;
  /** Whether a slot of the instance, due at `due`, was run (succeeded or failed): a backfill runs it once. */
  ran(instance: InstanceKey, due: number): Promise<boolean>;
  /** How many runs ended failed, retrying or parked since `since` (epoch ms), of one tenant's instances when given. */
  failedSince(since: number, tenantId?: string): Promise<number>;
  recordAttempts(attempts: readonly TimerAttempt[]): Promise<void>;
  /** A timer's delivery attempts, newest first. */
  attempts(timer: string, query: { readonly cursor?: string; readonly limit: number }): Promise<Page<TimerAttempt>>;
  /** Forgets runs and attempts older than `before`, and runs beyond the newest `perInstance` of each instance. */
  prune(before: number, perInstance: number): Promise<number>;
}

/** The outcomes an operator counts as failures. */
export const FAILED_OUTCOMES: readonly RunOutcome[] = ["failed", "retrying", "parked"];

export function instanceKeyOf(key: InstanceKey): string {
  return JSON.stringify([key.context, key.tenantId, key.instance]);
}

/** A cursor: where the next page starts (the last item's order keys), opaque to callers. */
export function cursorOf(sortKey: number, id: string): string {
  return Buffer.from(JSON.stringify([sortKey, id])).toString("base64url");
}

/** The cursor's keys, or undefined for one this store did not make. */
export function readCursor(cursor: string | undefined): readonly [number, string] | undefined {
  if (cursor === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (Array.isArray(value) && value.length === 2 && typeof value[0] === "number" && typeof value[1] === "string") return [value[0], value[1]];
  } catch {}
  return undefined;
}

/** A query's cursor as its keys; one this store did not make is refused. */
export function cursorKeys(cursor: string | undefined): readonly [number, string] | undefined {
  const keys = readCursor(cursor);
  if (cursor !== undefined && keys === undefined) throw new RangeError("a cursor this store did not make");
  return keys;
}

/** `limit + 1` rows read: the page, and a cursor when there was more. */
export function pageOf<T extends { readonly id: string }>(rows: readonly T[], limit: number, at: (t: T) => number): Page<T> {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return rows.length > limit && last !== undefined ? { items, next: cursorOf(at(last), last.id) } : { items };
}
