// Property test with a seeded PRNG: for random expressions, instants and zones, `next` is strictly
// after its input, and the instant it returns matches every field in local time. The check below
// is independent of the engine: it generates each field from a structured description, reads local
// time with Intl, and evaluates the description directly (its own day rules, by Date arithmetic).
// A second property checks that nothing earlier matches, by brute force over a short window.
import { describe, expect, it } from "vitest";
import { CronExpression } from "../../../runtime/cron/index.js";
import { intBetween as int, mulberry32, pick, type Random } from "../../support/random.js";


/** Local date-time fields; `weekday` 1 = Monday … 7 = Sunday (Spring's numbering). */
interface Local {
  second: number; minute: number; hour: number; day: number; month: number; year: number; weekday: number;
}

/** One generated field: its text and a predicate on local time. */
interface Field {
  readonly text: string;
  readonly matches: (local: Local) => boolean;
}

interface Range { readonly low: number; readonly high: number; readonly star: number }

/** A plain item (`*`, `v`, `a-b`, with or without `/s`) for a numeric field, with `value(local)`. */
function plainItem(random: Random, range: Range, value: (l: Local) => number, name?: (v: number) => string, rangeStart = (a: number) => a): Field {
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

function list(random: Random, make: () => Field, max = 3): Field {
  const items = Array.from({ length: int(random, 1, max) }, make);
  return { text: items.map((i) => i.text).join(","), matches: (l) => items.some((i) => i.matches(l)) };
}

const daysIn = (l: Local) => new Date(Date.UTC(l.year, l.month, 0)).getUTCDate();
const weekdayOn = (year: number, month: number, day: number) => new Date(Date.UTC(year, month - 1, day)).getUTCDay() || 7;
const isWeekday = (year: number, month: number, day: number) => weekdayOn(year, month, day) <= 5;

function dayOfMonthItem(random: Random): Field {
  switch (int(random, 0, 4)) {
    case 0:
      return { text: "L", matches: (l) => l.day === daysIn(l) };
    case 1: {
      const n = int(random, 1, 30);
      return { text: `L-${n}`, matches: (l) => l.day === daysIn(l) - n };
    }
    case 2:
      return {
        text: "LW",
        matches: (l) => {
          let d = daysIn(l);
          while (!isWeekday(l.year, l.month, d)) d--;
          return l.day === d;
        },
      };
    case 3: {
      const n = int(random, 1, 31);
      return {
        text: `${n}W`,
        // The weekday of the month nearest the n-th (earlier on a tie); none when the month lacks
        // the n-th, or when the n-th is a Sunday on the month's last day (Spring stops there).
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
    default:
      return plainItem(random, { low: 1, high: 31, star: 1 }, (l) => l.day);
  }
}

const DAY_NAMES = ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT", "SUN"];
const MONTH_NAMES = ["", "JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];

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
  return plainItem(random, { low: 0, high: 7, star: 1 }, (l) => l.weekday, (v) => DAY_NAMES[v], (a) => (a === 7 ? 0 : a));
}

/** In a range or step, Sunday is 7 and also 0: test both readings. */
function dayOfWeekField(random: Random): Field {
  const field = list(random, () => dayOfWeekItem(random), 2);
  return { text: field.text, matches: (l) => field.matches(l) || (l.weekday === 7 && field.matches({ ...l, weekday: 0 })) };
}

interface Generated {
  readonly expression: string;
  readonly fields: readonly Field[];
}

function generate(random: Random): Generated {
  const seconds = random() < 0.5 ? { text: "0", matches: (l: Local) => l.second === 0 } : list(random, () => plainItem(random, { low: 0, high: 59, star: 0 }, (l) => l.second));
  const minutes = list(random, () => plainItem(random, { low: 0, high: 59, star: 0 }, (l) => l.minute));
  const hours = list(random, () => plainItem(random, { low: 0, high: 23, star: 0 }, (l) => l.hour));
  const any: Field = { text: random() < 0.5 ? "*" : "?", matches: () => true };
  const dayOfMonth = random() < 0.4 ? any : list(random, () => dayOfMonthItem(random), 2);
  const month = random() < 0.5 ? { text: "*", matches: () => true } : list(random, () => plainItem(random, { low: 1, high: 12, star: 1 }, (l) => l.month, (v) => MONTH_NAMES[v]));
  const dayOfWeek = random() < 0.5 ? { ...any, text: random() < 0.5 ? "*" : "?" } : dayOfWeekField(random);
  const fields = [seconds, minutes, hours, dayOfMonth, month, dayOfWeek];
  return { expression: fields.map((f) => f.text).join(" "), fields };
}

const formats = new Map<string, Intl.DateTimeFormat>();
function localTime(ms: number, zone: string): Local {
  let format = formats.get(zone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone: zone, hourCycle: "h23", year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", second: "numeric",
    });
    formats.set(zone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(new Date(ms)).map((p) => [p.type, Number(p.value)]));
  return {
    year: parts.year, month: parts.month, day: parts.day, hour: parts.hour, minute: parts.minute, second: parts.second,
    weekday: weekdayOn(parts.year, parts.month, parts.day),
  };
}

const ZONES = ["UTC", "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "America/Santiago", "Asia/Kathmandu", "Pacific/Chatham"];

/** Half uniform over 1950-2060, half in the DST-changing months of 1995-2040. */
function randomInstant(random: Random): number {
  if (random() < 0.5) return Date.UTC(1950, 0, 1) + Math.floor(random() * 110 * 365.25 * 86_400_000);
  const month = pick(random, [2, 3, 3, 8, 9, 9, 10]);
  return Date.UTC(int(random, 1995, 2040), month, int(random, 1, 28), int(random, 0, 23), int(random, 0, 59), int(random, 0, 59), int(random, 0, 999));
}

describe("cron properties (seeded)", () => {
  it("next is strictly after and matches every field in local time (2,000 expressions × 3 fires)", () => {
    const random = mulberry32(20250611);
    let fired = 0;
    let never = 0;
    for (let i = 0; i < 2000; i++) {
      const { expression, fields } = generate(random);
      const zone = pick(random, ZONES);
      const cron = CronExpression.parse(expression);
      let after = randomInstant(random);
      for (let k = 0; k < 3; k++) {
        const next = cron.nextAfterMs(after, zone);
        if (next === null) {
          never++;
          break;
        }
        fired++;
        const context = `${expression} in ${zone} after ${new Date(after).toISOString()} → ${new Date(next).toISOString()}`;
        expect(next, context).toBeGreaterThan(after);
        expect(Math.abs(next % 1000), context).toBe(0);
        const local = localTime(next, zone);
        const failing = fields.map((f, index) => (f.matches(local) ? "" : ["second", "minute", "hour", "day-of-month", "month", "day-of-week"][index])).filter(Boolean);
        expect(failing, `${context} (local ${JSON.stringify(local)})`).toEqual([]);
        after = next + int(random, 0, 1) * int(random, 0, 86_400_000);
      }
    }
    expect(fired).toBeGreaterThan(4000);
    expect(never).toBeLessThan(400);
  });

  it("nothing earlier matches: brute force over every local second in a window (100 cases)", () => {
    const random = mulberry32(7);
    let checked = 0;
    for (let i = 0; checked < 100 && i < 20_000; i++) {
      const { expression, fields } = generate(random);
      const zone = pick(random, ZONES);
      const after = randomInstant(random);
      const next = CronExpression.parse(expression).nextAfterMs(after, zone);
      const windowEnd = next ?? after + 24 * 3_600_000;
      if (windowEnd - after > 24 * 3_600_000) continue;
      checked++;
      // Offsets change on whole minutes here, so one Intl reading per minute gives each second.
      const firstMinute = Math.floor(after / 60_000) * 60_000;
      let earliest: number | null = null;
      for (let minute = firstMinute; minute < windowEnd && earliest === null; minute += 60_000) {
        const local = localTime(minute, zone);
        for (let s = 0; s < 60; s++) {
          const at = minute + s * 1000;
          if (at <= after || at >= windowEnd) continue;
          if (fields.every((f) => f.matches({ ...local, second: s }))) {
            earliest = at;
            break;
          }
        }
      }
      expect(earliest, `${expression} in ${zone} after ${new Date(after).toISOString()}: engine says ${next === null ? "never" : new Date(next).toISOString()}`).toBeNull();
    }
    expect(checked).toBe(100);
  });
});
