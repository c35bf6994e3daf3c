// Rows of the SQL stores (SQLite, PostgreSQL) as the runtime's values, read by column name: the
// columns both stores' tables share, and the conversions both use.
import { refOfKey, type AggregateRef } from "../model/aggregate-ref.js";
import type { ParkedEvent } from "./subscription-store.js";
import { specFromData } from "./stored-json.js";
import type { TimerRow } from "./timer-store.js";

/** A slot's request record as a stream-state read joins it (no record: nulls). */
export interface RequestColumns {
  readonly request_version: number | null;
  readonly error_code: string | null;
}

export interface EventRow {
  readonly position: number;
  readonly version: number;
  readonly sequence: number;
  readonly type: string;
  readonly data: string;
}

/** A timer's columns as every timer read returns them. */
export interface TimerColumns {
  readonly id: string;
  readonly owner: string;
  readonly spec: string;
  readonly key: string;
  readonly slot: number;
  readonly due: number;
  readonly fire_at: number;
  readonly status: number;
  readonly attempts: number;
  readonly last_error: string | null;
  readonly parked_at: number | null;
  readonly target: string | null;
}

export interface ParkedEventRow {
  readonly id: string;
  readonly subscription: string;
  readonly position: number;
  readonly event: string;
  readonly attempts: number;
  readonly error: string;
  readonly parked_at: number;
}

/** `refs` caches refs by key across the rows of one read (a batch's timers often share owners and targets). */
export function toTimer(row: TimerColumns, refs: Map<string, AggregateRef> = new Map()): TimerRow {
  const owner = cachedRef(row.owner, refs);
  const spec = specFromData(row.spec, owner, row.target === null ? undefined : cachedRef(row.target, refs));
  const timer: { -readonly [K in keyof TimerRow]: TimerRow[K] } = {
    id: row.id,
    owner,
    key: row.key,
    rule: spec.rule,
    command: spec.command,
    target: spec.target,
    causation: spec.causation,
    slot: row.slot,
    due: row.due,
    status: row.status === 1 ? "parked" : "pending",
    fireAt: row.fire_at,
    attempts: row.attempts,
  };
  if (row.last_error !== null) timer.lastError = row.last_error;
  if (row.parked_at !== null) timer.parkedAt = row.parked_at;
  return timer;
}

export function cachedRef(key: string, refs: Map<string, AggregateRef>): AggregateRef {
  let ref = refs.get(key);
  if (ref === undefined) {
    ref = refOfKey(key);
    refs.set(key, ref);
  }
  return ref;
}

export function toParkedEvent(row: ParkedEventRow): ParkedEvent {
  return { id: row.id, subscription: row.subscription, position: row.position, event: JSON.parse(row.event), attempts: row.attempts, error: row.error, parkedAt: row.parked_at };
}
