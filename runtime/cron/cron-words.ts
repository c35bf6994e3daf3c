// A cron rule in words ("at 06:00:00, every day"), from the fields the runtime's engine parses
// (runtime/cron/parse.ts): the same reading of the rule as the one that schedules it.
import type { CronFields, DayOfMonthRule, DayOfWeekRule } from "./fields.js";
import { parseCronFields } from "./parse.js";

const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const MONTHS = ["", "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** The values a field allows, in order. */
function values(flags: Uint8Array, min: number, max: number): number[] {
  const out: number[] = [];
  for (let v = min; v <= max; v++) if (flags[v] === 1) out.push(v);
  return out;
}

/** `a, b and c`. */
function list(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

function ordinal(n: number): string {
  const suffix = n % 100 >= 11 && n % 100 <= 13 ? "th" : ["th", "st", "nd", "rd"][n % 10] ?? "th";
  return `${n}${suffix}`;
}

/** The step when `vs` run from `first` by one step to the end of the field (`*\/15` → 15). */
function stepOf(vs: readonly number[], min: number, max: number): number | undefined {
  if (vs.length < 2 || vs[0] !== min) return undefined;
  const step = vs[1]! - vs[0]!;
  for (let i = 1; i < vs.length; i++) if (vs[i]! - vs[i - 1]! !== step) return undefined;
  return vs[vs.length - 1]! + step > max ? step : undefined;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** Whether `vs` are consecutive (3 or more): written as a range. */
function isRange(vs: readonly number[]): boolean {
  return vs.length >= 3 && vs[vs.length - 1]! - vs[0]! === vs.length - 1;
}

/** A second or minute field in words: "every minute", "every 15 minutes", "at minutes 0 and 30". */
function timeField(vs: readonly number[], unit: string, max: number): string {
  if (vs.length === max + 1) return `every ${unit}`;
  const step = stepOf(vs, 0, max);
  if (step !== undefined) return `every ${step} ${unit}s`;
  if (isRange(vs)) return `every ${unit} from ${vs[0]} to ${vs[vs.length - 1]}`;
  return `at ${unit}${vs.length === 1 ? "" : "s"} ${list(vs.map(String))}`;
}

function times(fields: CronFields): string {
  const seconds = values(fields.second, 0, 59);
  const minutes = values(fields.minute, 0, 59);
  const hours = values(fields.hour, 0, 23);
  if (seconds.length === 1 && minutes.length === 1) {
    const at = (h: number) => `${pad(h)}:${pad(minutes[0]!)}:${pad(seconds[0]!)}`;
    if (hours.length === 24) return `every hour at :${pad(minutes[0]!)}:${pad(seconds[0]!)}`;
    if (hours.length <= 4) return `at ${list(hours.map(at))}`;
    if (isRange(hours)) return `every hour from ${at(hours[0]!)} to ${at(hours[hours.length - 1]!)}`;
    const step = stepOf(hours, 0, 23);
    return step !== undefined ? `every ${step} hours at :${pad(minutes[0]!)}:${pad(seconds[0]!)}` : `at ${list(hours.map(at))}`;
  }
  // A rule that fires at second 0 of several minutes says it by its minutes alone.
  const parts = seconds.length === 1 && seconds[0] === 0 && minutes.length < 60 ? [] : [timeField(seconds, "second", 59)];
  if (minutes.length < 60 || hours.length < 24) parts.push(minutes.length === 60 ? "every minute" : timeField(minutes, "minute", 59));
  if (hours.length < 24) {
    const step = stepOf(hours, 0, 23);
    parts.push(isRange(hours) ? `from ${pad(hours[0]!)}:00 to ${pad(hours[hours.length - 1]!)}:59` : step !== undefined ? `every ${step} hours` : `during hour${hours.length === 1 ? "" : "s"} ${list(hours.map(String))}`);
  }
  return parts.join(", ");
}

function dayOfMonthRule(rule: DayOfMonthRule): string {
  switch (rule.kind) {
    case "last":
      return rule.offset === 0 ? "the last day of the month" : `the last day of the month minus ${rule.offset}`;
    case "last-weekday":
      return "the last weekday of the month";
    case "nearest-weekday":
      return `the weekday nearest the ${ordinal(rule.day)}`;
  }
}

function dayOfWeekRule(rule: DayOfWeekRule): string {
  return rule.kind === "last-in-month" ? `the last ${WEEKDAYS[rule.weekday]} of the month` : `the ${ordinal(rule.nth)} ${WEEKDAYS[rule.weekday]} of the month`;
}

function days(fields: CronFields): string {
  const monthDays = values(fields.dayOfMonth, 1, 31);
  const weekdays = values(fields.dayOfWeek, 0, 6);
  const everyMonthDay = monthDays.length === 31 && fields.dayOfMonthRules.length === 0;
  const everyWeekday = weekdays.length === 7 && fields.dayOfWeekRules.length === 0;
  const onMonthDays = [
    ...(monthDays.length === 31 ? [] : monthDays.length > 0 ? [`day${monthDays.length === 1 ? "" : "s"} ${list(monthDays.map(String))} of the month`] : []),
    ...fields.dayOfMonthRules.map(dayOfMonthRule),
  ];
  const onWeekdays = [
    ...(weekdays.length === 7 ? [] : weekdays.length > 0 ? [isRange(weekdays) ? `${WEEKDAYS[weekdays[0]!]} to ${WEEKDAYS[weekdays[weekdays.length - 1]!]}` : list(weekdays.map((d) => WEEKDAYS[d]!))] : []),
    ...fields.dayOfWeekRules.map(dayOfWeekRule),
  ];
  if (everyMonthDay && everyWeekday) return "every day";
  if (everyWeekday) return `on ${list(onMonthDays)}`;
  if (everyMonthDay) return `on ${list(onWeekdays)}`;
  // Both restricted: a day must match both (Spring).
  return `on ${list(onMonthDays)}, when it is ${list(onWeekdays)}`;
}

function months(fields: CronFields): string {
  const ms = values(fields.month, 1, 12);
  return ms.length === 12 ? "" : `, in ${list(ms.map((m) => MONTHS[m]!))}`;
}

/** The rule in words; undefined when it does not parse (the checker reports why). */
export function describeCron(expression: string): string | undefined {
  let fields: CronFields;
  try {
    fields = parseCronFields(expression);
  } catch {
    return undefined;
  }
  return `${times(fields)}, ${days(fields)}${months(fields)}`;
}
