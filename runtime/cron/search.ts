// The fire-time search. A time zone's timeline is a run of periods of constant UTC offset; inside
// one, local time is UTC shifted, and the search steps through local calendar fields (skipping
// whole months and days by table). A period ends at a transition: the search resumes in the next
// period at *its* local time. So local times inside a DST gap are never visited (skipped, as in
// Spring), and local times repeated by a fall-back are visited in both periods (fire twice).
import { civilFromDays, dayOfWeek, daysFromCivil, daysInMonth, isLeapYear, SECONDS_PER_DAY, type Civil } from "./calendar.js";
import type { CronPlan } from "./plan.js";
import type { ZoneClock } from "./zone.js";

/** How far ahead to look before answering "never" (a full Gregorian cycle, plus slack). */
const HORIZON = 401 * 366 * SECONDS_PER_DAY;
/** Largest instant a Date can hold, in seconds. */
const MAX_SECOND = 8.64e12;

/** "No match" from `nextLocalSecond` (local seconds before 1970 are negative, so not -1). */
export const NO_MATCH = Number.NEGATIVE_INFINITY;

const civil: Civil = { year: 0, month: 0, day: 0 };

/** First allowed second of the day at or after `secondOfDay`, or -1 when the day has none left. */
function nextSecondOfDay(plan: CronPlan, secondOfDay: number): number {
  let hour = (secondOfDay / 3600) | 0;
  const rest = secondOfDay - hour * 3600;
  let minute = (rest / 60) | 0;
  let second = rest - minute * 60;
  for (;;) {
    const h = plan.nextHour[hour]!;
    if (h < 0) return -1;
    if (h !== hour) return h * 3600 + plan.firstMinute * 60 + plan.firstSecond;
    const m = plan.nextMinute[minute]!;
    if (m < 0) {
      hour++;
      minute = 0;
      second = 0;
      continue;
    }
    if (m !== minute) return hour * 3600 + m * 60 + plan.firstSecond;
    const s = plan.nextSecond[second]!;
    if (s >= 0) return hour * 3600 + minute * 60 + s;
    minute++;
    second = 0;
  }
}

/** First matching local second in [from, limit), or NO_MATCH. Local seconds count from 1970-01-01 00:00. */
export function nextLocalSecond(plan: CronPlan, from: number, limit: number): number {
  let day = Math.floor(from / SECONDS_PER_DAY);
  let secondOfDay = from - day * SECONDS_PER_DAY;
  while (day * SECONDS_PER_DAY < limit) {
    civilFromDays(day, civil);
    const { year, month } = civil;
    const allowedMonth = plan.nextMonth[month]!;
    if (allowedMonth !== month) {
      day = allowedMonth < 0 ? daysFromCivil(year + 1, plan.firstMonth, 1) : daysFromCivil(year, allowedMonth, 1);
      secondOfDay = 0;
      continue;
    }
    const dayOfMonth = civil.day;
    const firstOfMonth = day - dayOfMonth + 1;
    const row = month === 2 && isLeapYear(year) ? 12 : month - 1;
    const mask = plan.dayMasks[row * 7 + dayOfWeek(firstOfMonth)]! >>> (dayOfMonth - 1);
    if (mask === 0) {
      day = firstOfMonth + daysInMonth(year, month);
      secondOfDay = 0;
      continue;
    }
    if ((mask & 1) === 0) {
      day += 31 - Math.clz32(mask & -mask);
      secondOfDay = 0;
    }
    const time = nextSecondOfDay(plan, secondOfDay);
    if (time < 0) {
      day++;
      secondOfDay = 0;
      continue;
    }
    const local = day * SECONDS_PER_DAY + time;
    return local < limit ? local : NO_MATCH;
  }
  return NO_MATCH;
}

/** First fire time strictly after `afterMs` (and before `untilMs`, when given), in epoch ms, or null. */
export function nextFireMs(plan: CronPlan, zone: ZoneClock, afterMs: number, untilMs = Number.POSITIVE_INFINITY): number | null {
  if (plan.neverFires) return null;
  let utc = Math.floor(afterMs / 1000) + 1;
  const horizon = Math.min(utc + HORIZON, MAX_SECOND, Math.ceil(untilMs / 1000));
  while (utc < horizon) {
    zone.locate(utc);
    const offset = zone.periodOffset;
    const end = Math.min(zone.periodEnd, horizon);
    const local = nextLocalSecond(plan, utc + offset, end + offset);
    if (local !== NO_MATCH) return (local - offset) * 1000;
    utc = end;
  }
  return null;
}

/**
 * The first local second in [afterMs, untilMs) that matches the plan but does not exist in the
 * zone (it falls in a DST gap, where the clocks skip ahead, so the rule skips it), with the UTC
 * second of that gap's transition; null when there is none.
 */
export function firstSkippedLocal(plan: CronPlan, zone: ZoneClock, afterMs: number, untilMs: number): { local: number; transition: number } | null {
  if (plan.neverFires) return null;
  let utc = Math.floor(afterMs / 1000) + 1;
  const horizon = Math.min(Math.ceil(untilMs / 1000), MAX_SECOND);
  while (utc < horizon) {
    zone.locate(utc);
    const before = zone.periodOffset;
    const end = zone.periodEnd;
    if (end >= horizon) break;
    zone.locate(end);
    // A gap: local times from end + before up to end + after are never shown by a clock.
    const after = zone.periodOffset;
    if (after > before) {
      const local = nextLocalSecond(plan, end + before, end + after);
      if (local !== NO_MATCH) return { local, transition: end };
    }
    utc = end;
  }
  return null;
}
