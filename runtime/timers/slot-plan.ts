import type { CronNext } from "../cron/cron-next.js";
import type { TimerRow } from "../store/timer-store.js";

export interface Slot {
  readonly slot: number;
  readonly due: number;
}

/** Which slot a claimed timer delivers now, and what follows it (nothing, or the next cron slot). */
export interface SlotPlan {
  readonly deliver: Slot;
  readonly next?: Slot;
}

/**
 * Bounds one plan's synchronous walk (10M per-second slots are ~4 months); past it the timer
 * delivers the slot reached and the next poll walks on from there.
 */
const MAX_SKIPPED_SLOTS = 10_000_000;

/**
 * One-shot rules deliver their only slot. A cron timer delivers its current slot and moves to the
 * next. CATCH_UP: every missed slot runs, in order. COALESCE: a slot whose following slot is due by
 * `now` too was missed (no node ran the timer in time), however short the downtime: the timer jumps
 * to the latest slot due by `now` and delivers only that one; the slot numbers skipped count the rest.
 */
export function planSlot(row: TimerRow, now: number, cronNext: CronNext): SlotPlan {
  const current = { slot: row.slot, due: row.due };
  const rule = row.rule;
  if (rule.kind !== "cron") return { deliver: current };
  let deliver: Slot = current;
  let following = cronNext(rule.expression, rule.zone, current.due);
  if (rule.misfire === "COALESCE") {
    // One cron step per skipped slot: exact slot numbers (`skipped`) need every slot counted.
    for (let i = 0; following !== undefined && following <= now && i < MAX_SKIPPED_SLOTS; i++) {
      deliver = { slot: deliver.slot + 1, due: following };
      following = cronNext(rule.expression, rule.zone, following);
    }
  }
  return following === undefined ? { deliver } : { deliver, next: { slot: deliver.slot + 1, due: following } };
}
