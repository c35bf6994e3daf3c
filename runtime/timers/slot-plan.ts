import type { TimerRow } from "../journal/journal.js";
import type { CronNext } from "./cron-next.js";

export interface Slot {
  readonly slot: number;
  readonly due: number;
}

/** Which slot a claimed timer delivers now, and what follows it (nothing, or the next cron slot). */
export interface SlotPlan {
  readonly deliver: Slot;
  readonly next?: Slot;
}

const MAX_SKIPPED_SLOTS = 10_000_000;

/**
 * One-shot rules deliver their only slot. A cron timer delivers its current slot and moves to the
 * next (CATCH_UP: every missed slot runs in order); under COALESCE a misfired timer (later than the
 * threshold) jumps to the latest slot due by `now` and delivers only that one.
 */
export function planSlot(row: TimerRow, now: number, misfireThreshold: number, cronNext: CronNext): SlotPlan {
  const current = { slot: row.slot, due: row.due };
  const rule = row.rule;
  if (rule.kind !== "cron") return { deliver: current };
  let deliver: Slot = current;
  let following = cronNext(rule.expression, rule.zone, current.due);
  if (rule.misfire === "COALESCE" && now - current.due > misfireThreshold) {
    for (let i = 0; following !== undefined && following <= now && i < MAX_SKIPPED_SLOTS; i++) {
      deliver = { slot: deliver.slot + 1, due: following };
      following = cronNext(rule.expression, rule.zone, following);
    }
  }
  return following === undefined ? { deliver } : { deliver, next: { slot: deliver.slot + 1, due: following } };
}
