// `L`, `L-n`, `LW` and `nW` against straightforward searches written independently of the engine:
// every kind of month (length × weekday of the 1st, leap and century Februaries) in UTC, then
// random rules in zones with DST, from instants near month ends and DST changes, compared with a
// day-by-day walk that converts each matching local time to its instants with Intl.
import { describe, expect, it } from "vitest";
import { CronExpression } from "../../../runtime/cron/index.js";
import { intBetween as int, mulberry32, pick, type Random } from "../../support/random.js";
import { dayOfWeekField, daysIn, lastDay, lastWeekday, list, localTime, nearestWeekday, plainItem, specialDayOfMonthItem, weekdayOn, type Field, type Local } from "./random-fields.js";

const DAY_MS = 86_400_000;

/** The local calendar day `ms` (a UTC midnight) stands for, times at 0. */
function dayAt(ms: number): Local {
  const d = new Date(ms);
  const [year, month, day] = [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate()];
  return { year, month, day, weekday: weekdayOn(year, month, day), hour: 0, minute: 0, second: 0 };
}

describe("L, L-n, LW and nW in every kind of month (UTC)", () => {
  // 2024-2051 is a 28-year cycle: every month length starts on every weekday, leap Februaries too;
  // 1968-1971 is before the epoch, 2000 a leap century, 2100 a common one.
  const spans = [[1968, 1971], [1999, 2001], [2024, 2051], [2099, 2101]] as const;
  const rules: Field[] = [lastDay(0), lastWeekday()];
  for (let n = 1; n <= 30; n++) rules.push(lastDay(n));
  for (let n = 1; n <= 31; n++) rules.push(nearestWeekday(n));

  it.each(rules.map((rule) => [rule.text, rule] as const))("%s", (_, rule) => {
    const cron = CronExpression.parse(`0 0 0 ${rule.text} * *`);
    for (const [first, last] of spans) {
      const end = Date.UTC(last + 1, 0, 1);
      const expected: string[] = [];
      for (let ms = Date.UTC(first, 0, 1); ms < end; ms += DAY_MS) {
        if (rule.matches(dayAt(ms))) expected.push(new Date(ms).toISOString());
      }
      const got: string[] = [];
      for (let after = Date.UTC(first, 0, 1) - 1; ; ) {
        const next = cron.nextAfterMs(after, "UTC");
        if (next === null || next >= end) break;
        got.push(new Date(next).toISOString());
        after = next;
      }
      expect(got, `${rule.text} in ${first}-${last}`).toEqual(expected);
    }
  });
});

/** A rule whose time fields are short lists, so that a search can try each time of a day. */
interface SmallRule {
  readonly expression: string;
  readonly seconds: readonly number[];
  readonly minutes: readonly number[];
  readonly hours: readonly number[];
  /** Day-of-month, month and day-of-week together. */
  readonly matchesDay: (day: Local) => boolean;
}

const SECONDS: ReadonlyArray<readonly [string, number[]]> = [["0", [0]], ["30", [30]], ["0,30", [0, 30]]];
const MINUTES: ReadonlyArray<readonly [string, number[]]> = [["0", [0]], ["30", [30]], ["0,30", [0, 30]], ["15,45", [15, 45]], ["59", [59]], ["0-2", [0, 1, 2]]];
// Midnight, the hours DST changes touch (00-03 and 22-23 in these zones), and a spread.
const HOURS: ReadonlyArray<readonly [string, number[]]> = [
  ["0", [0]], ["1", [1]], ["2", [2]], ["3", [3]], ["23", [23]], ["1-3", [1, 2, 3]], ["0,12", [0, 12]], ["*/6", [0, 6, 12, 18]], ["22-23", [22, 23]],
];

function smallRule(random: Random): SmallRule {
  const [secondText, seconds] = pick(random, SECONDS);
  const [minuteText, minutes] = pick(random, MINUTES);
  const [hourText, hours] = pick(random, HOURS);
  // Mostly special days, sometimes listed with another special or a plain day.
  const dayOfMonth = list(random, () => (random() < 0.8 ? specialDayOfMonthItem(random) : plainItem(random, { low: 1, high: 31, star: 1 }, (l) => l.day)), 2);
  const month: Field = random() < 0.6 ? { text: "*", matches: () => true } : plainItem(random, { low: 1, high: 12, star: 1 }, (l) => l.month);
  const dayOfWeek: Field = random() < 0.75 ? { text: pick(random, ["*", "?"]), matches: () => true } : dayOfWeekField(random);
  return {
    expression: [secondText, minuteText, hourText, dayOfMonth.text, month.text, dayOfWeek.text].join(" "),
    seconds,
    minutes,
    hours,
    matchesDay: (day) => month.matches(day) && dayOfWeek.matches(day) && dayOfMonth.matches(day),
  };
}

/** UTC offset of `zone` at `utcMs`, in ms, from Intl. */
function offsetAt(zone: string, utcMs: number): number {
  const l = localTime(utcMs, zone);
  return Date.UTC(l.year, l.month - 1, l.day, l.hour, l.minute, l.second) - utcMs;
}

/** The instants at which wall time `wallMs` (local time read as UTC) occurs: none in a gap, two in a repeat. */
function instantsOf(zone: string, wallMs: number): number[] {
  // Changes here are days apart, so the offsets two days either side include every one that applies.
  const offsets = new Set([-2, -1, 0, 1, 2].map((d) => offsetAt(zone, wallMs + d * DAY_MS)));
  return [...offsets].map((o) => wallMs - o).filter((at) => offsetAt(zone, at) === wallMs - at);
}

/**
 * The first instant after `afterMs` whose local time in `zone` matches, walking local days from the
 * day before `afterMs`'s (a repeated hour may put that day's times after it) for `days` days.
 * A fall-back across midnight can put some times of a day after the next day's first: so the walk
 * looks at one more day after the first that has a match, and keeps the earliest.
 */
function referenceNext(rule: SmallRule, zone: string, afterMs: number, days: number): number | null {
  const start = localTime(afterMs, zone);
  const first = Date.UTC(start.year, start.month - 1, start.day) - DAY_MS;
  let best: number | null = null;
  let stop = first + days * DAY_MS;
  for (let day = first; day < stop; day += DAY_MS) {
    if (!rule.matchesDay(dayAt(day))) continue;
    for (const hour of rule.hours) for (const minute of rule.minutes) for (const second of rule.seconds) {
      for (const at of instantsOf(zone, day + ((hour * 60 + minute) * 60 + second) * 1000)) {
        if (at > afterMs && (best === null || at < best)) best = at;
      }
    }
    if (best !== null && stop > day + 2 * DAY_MS) stop = day + 2 * DAY_MS;
  }
  return best;
}

// Zones with DST: both hemispheres, changes at 01:00 UTC, at local midnight (Santiago, Havana),
// by 30 minutes (Lord Howe), at :45 offsets (Chatham), at odd local times (St John's), and a
// DST-less zone with a 45-minute offset.
const ZONES = ["America/New_York", "Europe/Berlin", "Australia/Lord_Howe", "America/Santiago", "America/Havana", "Pacific/Chatham", "America/St_Johns", "Asia/Kathmandu", "UTC"];

/** Near a month's end or start, or in a month where DST changes; leap and century years included. */
function randomInstant(random: Random): number {
  const year = random() < 0.3 ? pick(random, [1968, 2000, 2024, 2028, 2100]) : int(random, 1995, 2045);
  const month = random() < 0.5 ? int(random, 1, 12) : pick(random, [3, 4, 9, 10, 11]);
  const length = daysIn(dayAt(Date.UTC(year, month - 1, 1)));
  const day = random() < 0.6 ? pick(random, [length, length - 1, length - 2, 1, 2]) : int(random, 1, length);
  return Date.UTC(year, month - 1, day, int(random, 0, 23), int(random, 0, 59), int(random, 0, 59), int(random, 0, 999)) - int(random, -14, 14) * 3_600_000;
}

/** A DST change in `zone` in a random year (the first after a random instant), or null. */
function randomChange(random: Random, zone: string): number | null {
  let lo = Date.UTC(int(random, 1995, 2045), int(random, 0, 11), 1);
  const offset = offsetAt(zone, lo);
  for (let i = 0; i < 400 && offsetAt(zone, lo + DAY_MS) === offset; i++) lo += DAY_MS;
  let hi = lo + DAY_MS;
  if (offsetAt(zone, hi) === offset) return null;
  while (hi - lo > 60_000) {
    const mid = lo + Math.floor((hi - lo) / 120_000) * 60_000;
    if (offsetAt(zone, mid) === offset) lo = mid;
    else hi = mid;
  }
  return hi;
}

/**
 * A rule that picks the local day of the DST change at `change` by a special day (`L-n`, or `L`
 * on the last day, listed with another special), at hours around the change: its gap or repeat.
 */
function ruleOnChange(random: Random, zone: string, change: number): SmallRule {
  const day = localTime(change, zone);
  const special = lastDay(daysIn(day) - day.day);
  const other = specialDayOfMonthItem(random);
  const hours = [...new Set([-2, -1, 0, 1].map((d) => (day.hour + d + 24) % 24))].sort((a, b) => a - b);
  const [minuteText, minutes] = pick(random, MINUTES);
  return {
    expression: `0 ${minuteText} ${hours.join(",")} ${special.text},${other.text} * ?`,
    seconds: [0],
    minutes,
    hours,
    matchesDay: (l) => special.matches(l) || other.matches(l),
  };
}

describe("L, L-n, LW and nW in zones with DST, against a day-by-day search (seeded)", () => {
  it("gives the straightforward search's next 3 fire times (600 rules)", () => {
    const random = mulberry32(20260601);
    // Eight years: every rule here fires within that, or the engine must find nothing sooner.
    const days = 8 * 366;
    let compared = 0;
    for (let i = 0; i < 600; i++) {
      const rule = smallRule(random);
      const zone = pick(random, ZONES);
      const cron = CronExpression.parse(rule.expression);
      let after = randomInstant(random);
      for (let k = 0; k < 3; k++) {
        const expected = referenceNext(rule, zone, after, days);
        const got = cron.nextAfterMs(after, zone);
        const context = `${rule.expression} in ${zone} after ${new Date(after).toISOString()}`;
        if (expected === null) {
          // Nothing in the window: the engine may only find something beyond it.
          if (got !== null) expect(got - after, context).toBeGreaterThan((days - 3) * DAY_MS);
          break;
        }
        expect(got === null ? null : new Date(got).toISOString(), context).toBe(new Date(expected).toISOString());
        compared++;
        after = expected;
      }
    }
    expect(compared).toBeGreaterThan(1200);
  });

  it("agrees on the day of a DST change, at the hours it skips or repeats (300 changes)", () => {
    const random = mulberry32(3_2026);
    let compared = 0;
    for (let i = 0; i < 300; i++) {
      const zone = pick(random, ZONES.filter((z) => z !== "UTC" && z !== "Asia/Kathmandu"));
      const change = randomChange(random, zone);
      if (change === null) continue;
      const rule = ruleOnChange(random, zone, change);
      const cron = CronExpression.parse(rule.expression);
      let after = change - int(random, 0, 30 * 60) * 60_000;
      for (let k = 0; k < 4; k++) {
        const expected = referenceNext(rule, zone, after, 70);
        const context = `${rule.expression} in ${zone} after ${new Date(after).toISOString()}`;
        expect(expected, context).not.toBeNull();
        expect(new Date(cron.nextAfterMs(after, zone) ?? 0).toISOString(), context).toBe(new Date(expected!).toISOString());
        compared++;
        after = expected!;
      }
    }
    expect(compared).toBeGreaterThan(1000);
  });
});
