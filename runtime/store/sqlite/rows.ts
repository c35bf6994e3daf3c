// SQLite rows as the runtime's values, read by column name.
import { refOfKey, type AggregateRef } from "../../model/aggregate-ref.js";
import type { ParkedEvent } from "../subscription-store.js";
import { specFromData } from "../stored-json.js";
import type { TimerRow } from "../timer-store.js";
import type { ParkedEventRow, TimerColumns } from "./statements.js";

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
