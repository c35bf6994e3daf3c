// Random cron fields for property tests, each with an oracle: a predicate on local time written
// independently of the engine (its own day rules, by Date arithmetic), and local time read with Intl.
import { intBetween as int, type Random } from "../../support/random.js";

/** Local date-time fields; `weekday` 1 = Monday … 7 = Sunday (Spring's numbering). */
export interface Local {
  second: number; minute: number; hour: number; day: number; month: number; year: number; weekday: number;
}

/** One generated field: its text and a predicate on local time. */
export interface Field {
  readonly text: string;
  readonly matches: (local: Local) => boolean;
}

interface Range { readonly low: number; readonly high: number; readonly star: number }

/** A plain item (`*`, `v`, `a-b`, with or without `/s`) for a numeric field, with `value(local)`. */
export function plainItem(random: Random, range: Range, value: (l: Local) => number, name?: (v: number) => string, rangeStart = (a: number) => a): Field {
  const show = (v: number) => (name !== undefined && random() < 0.3 ? name(v) : String(v));
  const kind = int(random, 0, 5);
  if (kind === 0) return { text: "*", matches: () => true };
  if (kind === 1) {
    const v = int(random, range.low, range.high);
    return { text: show(v), matches: (l) => value(l) === v };
  }
  if (kind === 2) {
    const a = int(random, range.low, range.high);
    const b = int(random, a, range.high);
    const low = rangeStart(a);
    return { text: `${show(a)}-${show(b)}`, matches: (l) => value(l) >= low && value(l) <= b };
  }
  const step = int(random, 1, Math.max(2, Math.floor((range.high - range.low) / 2)));
  if (kind === 3) return { text: `*/${step}`, matches: (l) => value(l) >= range.star && (value(l) - range.star) % step === 0 };
  const a = int(random, range.low, range.high);
  if (kind === 4) return { text: `${show(a)}/${step}`, matches: (l) => value(l) >= a && (value(l) - a) % step === 0 };
  const b = int(random, a, range.high);
  const low = rangeStart(a);
  return { text: `${show(a)}-${show(b)}/${step}`, matches: (l) => value(l) >= low && value(l) <= b && (value(l) - low) % step === 0 };
}

export function list(random: Random, make: () => Field, max = 3): Field {
  const items = Array.from({ length: int(random, 1, max) }, make);
  return { text: items.map((i) => i.text).join(","), matches: (l) => items.some((i) => i.matches(l)) };
}

export const daysIn = (l: Local) => new Date(Date.UTC(l.year, l.month, 0)).getUTCDate();
export const weekdayOn = (year: number, month: number, day: number) => new Date(Date.UTC(year, month - 1, day)).getUTCDay() || 7;
const isWeekday = (year: number, month: number, day: number) => weekdayOn(year, month, day) <= 5;

/** A day-of-month item: `L`, `L-n`, `LW` or `nW` four times in five, else a plain item. */
export function dayOfMonthItem(random: Random): Field {
  const kind = int(random, 0, 4);
  return kind < 4 ? specialDayOfMonthItem(random, kind) : plainItem(random, { low: 1, high: 31, star: 1 }, (l) => l.day);
}

/** `L` (kind 0), `L-n` (1), `LW` (2) or `nW` (3). */
export function specialDayOfMonthItem(random: Random, kind = int(random, 0, 3)): Field {
  switch (kind) {
    case 0:
      return lastDay(0);
    case 1:
      return lastDay(int(random, 1, 30));
    case 2:
      return lastWeekday();
    case 3:
      return nearestWeekday(int(random, 1, 31));
    default:
      throw new RangeError(`No special day-of-month item of kind ${kind}`);
  }
}

/** `L` (n = 0) or `L-n`: none in a month of n days or fewer. */
export function lastDay(n: number): Field {
  return { text: n === 0 ? "L" : `L-${n}`, matches: (l) => l.day === daysIn(l) - n };
}

/** `LW`: the last day that is not a Saturday or Sunday. */
export function lastWeekday(): Field {
  return {
    text: "LW",
    matches: (l) => {
      let d = daysIn(l);
      while (!isWeekday(l.year, l.month, d)) d--;
      return l.day === d;
    },
  };
}

/**
 * `nW`: the weekday of the month nearest the n-th (earlier on a tie); none when the month lacks
 * the n-th, or when the n-th is a Sunday on the month's last day (Spring stops there).
 */
export function nearestWeekday(n: number): Field {
  return {
    text: `${n}W`,
    matches: (l) => {
      const length = daysIn(l);
      if (n > length) return false;
      if (weekdayOn(l.year, l.month, n) === 7 && n === length) return false;
      let best = 0;
      for (let d = 1; d <= length; d++) {
        if (isWeekday(l.year, l.month, d) && (best === 0 || Math.abs(d - n) < Math.abs(best - n))) best = d;
      }
      return l.day === best;
    },
  };
}

const DAY_NAMES = ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT", "SUN"];
export const MONTH_NAMES = ["", "JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];

function dayOfWeekItem(random: Random): Field {
  const kind = int(random, 0, 3);
  const n = int(random, 0, 7);
  const weekday = n === 0 ? 7 : n;
  const shown = random() < 0.3 ? DAY_NAMES[n] : String(n);
  if (kind === 0) return { text: `${shown}L`, matches: (l) => l.weekday === weekday && l.day + 7 > daysIn(l) };
  if (kind === 1) {
    const k = int(random, 1, 5);
    return { text: `${shown}#${k}`, matches: (l) => l.weekday === weekday && Math.ceil(l.day / 7) === k };
  }
  // Spring numbers days 1-7 from Monday and reads a range starting at 7 as starting at 0.
  return plainItem(random, { low: 0, high: 7, star: 1 }, (l) => l.weekday, (v) => DAY_NAMES[v]!, (a) => (a === 7 ? 0 : a));
}

/** In a range or step, Sunday is 7 and also 0: test both readings. */
export function dayOfWeekField(random: Random): Field {
  const field = list(random, () => dayOfWeekItem(random), 2);
  return { text: field.text, matches: (l) => field.matches(l) || (l.weekday === 7 && field.matches({ ...l, weekday: 0 })) };
}

const formats = new Map<string, Intl.DateTimeFormat>();
export function localTime(ms: number, zone: string): Local {
  let format = formats.get(zone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone: zone, hourCycle: "h23", year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", second: "numeric",
    });
    formats.set(zone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(new Date(ms)).map((p) => [p.type, Number(p.value)])) as Record<"year" | "month" | "day" | "hour" | "minute" | "second", number>;
  return {
    year: parts.year, month: parts.month, day: parts.day, hour: parts.hour, minute: parts.minute, second: parts.second,
    weekday: weekdayOn(parts.year, parts.month, parts.day),
  };
}
