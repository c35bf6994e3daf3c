// Which days of one month match the day-of-month and day-of-week fields, as a bit mask (bit d-1 for
// day d). A month's answer depends only on its month number, its length and the weekday of its
// 1st, so `CronExpression` computes each of those (at most 12 × 7 × 2) once.
import type { CronFields, DayOfMonthRule, DayOfWeekRule } from "./fields.js";

const SATURDAY = 6;
const SUNDAY = 0;

/** Weekday (0 = Sunday) of day `day` in a month whose 1st is `firstWeekday`. */
function weekdayOf(day: number, firstWeekday: number): number {
  return (firstWeekday + day - 1) % 7;
}

/** The day a rule picks in a month, or 0 when it picks none. */
function dayOfMonthRuleDay(rule: DayOfMonthRule, length: number, firstWeekday: number): number {
  switch (rule.kind) {
    case "last":
      return length - rule.offset >= 1 ? length - rule.offset : 0;
    case "last-weekday": {
      const weekday = weekdayOf(length, firstWeekday);
      return weekday === SATURDAY ? length - 1 : weekday === SUNDAY ? length - 2 : length;
    }
    case "nearest-weekday": {
      // The weekday nearest `day` without leaving the month: a Saturday moves to Friday (the 1st to
      // Monday the 3rd), a Sunday to Monday; a Sunday on the last day would cross into the next
      // month, and Spring then matches nothing this month. A day the month lacks matches nothing.
      const day = rule.day;
      if (day > length) return 0;
      const weekday = weekdayOf(day, firstWeekday);
      if (weekday === SATURDAY) return day === 1 ? 3 : day - 1;
      if (weekday === SUNDAY) return day < length ? day + 1 : 0;
      return day;
    }
  }
}

function dayOfWeekRuleDay(rule: DayOfWeekRule, length: number, firstWeekday: number): number {
  switch (rule.kind) {
    case "last-in-month":
      return length - ((weekdayOf(length, firstWeekday) - rule.weekday + 7) % 7);
    case "nth-in-month": {
      const day = 1 + ((rule.weekday - firstWeekday + 7) % 7) + 7 * (rule.nth - 1);
      return day <= length ? day : 0;
    }
  }
}

function bit(day: number): number {
  return day === 0 ? 0 : 1 << (day - 1);
}

/** Days 1..length of a month that match both day fields (bit d-1 set for day d). */
export function matchingDaysMask(fields: CronFields, length: number, firstWeekday: number): number {
  let byMonthDay = 0;
  let byWeekday = 0;
  for (let day = 1; day <= length; day++) {
    if (fields.dayOfMonth[day]) byMonthDay |= bit(day);
    if (fields.dayOfWeek[weekdayOf(day, firstWeekday)]) byWeekday |= bit(day);
  }
  for (const rule of fields.dayOfMonthRules) byMonthDay |= bit(dayOfMonthRuleDay(rule, length, firstWeekday));
  for (const rule of fields.dayOfWeekRules) byWeekday |= bit(dayOfWeekRuleDay(rule, length, firstWeekday));
  return byMonthDay & byWeekday;
}
