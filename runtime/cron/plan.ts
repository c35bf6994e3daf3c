// Lookup tables the search steps through, built once per expression from its fields: for each time
// field "the next allowed value at or after v" (-1 when none is left), and for every kind of month
// (month number × weekday of the 1st × leap February) the mask of its matching days.
import { matchingDaysMask } from "./day-rules.js";
import type { CronFields } from "./fields.js";

const MONTH_LENGTHS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
/** Row of `dayMasks` used for February in a leap year. */
const LEAP_FEBRUARY = 12;

export interface CronPlan {
  readonly nextSecond: Int8Array; // 61 entries, [60] = -1
  readonly nextMinute: Int8Array; // 61 entries, [60] = -1
  readonly nextHour: Int8Array; // 25 entries, [24] = -1
  readonly nextMonth: Int8Array; // 14 entries (1-12 used), [13] = -1
  readonly firstSecond: number;
  readonly firstMinute: number;
  readonly firstMonth: number;
  /** Index `row * 7 + weekday of the 1st`; row = month - 1, or 12 for a leap February. */
  readonly dayMasks: Int32Array;
  /** True when no month of any year has a matching day. */
  readonly neverFires: boolean;
}

function nextAllowed(flags: Uint8Array, size: number): Int8Array {
  const table = new Int8Array(size + 1).fill(-1);
  for (let v = size - 1; v >= 0; v--) table[v] = v < flags.length && flags[v] ? v : table[v + 1]!;
  return table;
}

export function buildPlan(fields: CronFields): CronPlan {
  const dayMasks = new Int32Array(13 * 7);
  let anyDay = false;
  for (let row = 0; row < 13; row++) {
    const month = row === LEAP_FEBRUARY ? 2 : row + 1;
    const length = row === LEAP_FEBRUARY ? 29 : MONTH_LENGTHS[row]!;
    for (let firstWeekday = 0; firstWeekday < 7; firstWeekday++) {
      const mask = matchingDaysMask(fields, length, firstWeekday);
      dayMasks[row * 7 + firstWeekday] = mask;
      if (mask !== 0 && fields.month[month]) anyDay = true;
    }
  }
  const nextSecond = nextAllowed(fields.second, 60);
  const nextMinute = nextAllowed(fields.minute, 60);
  const nextMonth = nextAllowed(fields.month, 13);
  return {
    nextSecond,
    nextMinute,
    nextHour: nextAllowed(fields.hour, 24),
    nextMonth,
    firstSecond: nextSecond[0]!,
    firstMinute: nextMinute[0]!,
    firstMonth: nextMonth[1]!,
    dayMasks,
    // Every month starts on every weekday within 400 years, leap Februaries included, and every
    // time field allows at least one value: so a day match somewhere means a fire time somewhere.
    neverFires: !anyDay,
  };
}
