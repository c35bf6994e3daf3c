// Property test with a seeded PRNG: for random expressions, instants and zones, `next` is strictly
// after its input, and the instant it returns matches every field in local time. The check below
// is independent of the engine: it generates each field from a structured description, reads local
// time with Intl, and evaluates the description directly (its own day rules, by Date arithmetic).
// A second property checks that nothing earlier matches, by brute force over a short window.
import { describe, expect, it } from "vitest";
import { CronExpression } from "../../../runtime/cron/index.js";
import { intBetween as int, mulberry32, pick, type Random } from "../../support/random.js";
import { dayOfMonthItem, dayOfWeekField, list, localTime, MONTH_NAMES, plainItem, type Field, type Local } from "./random-fields.js";


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
  const month = random() < 0.5 ? { text: "*", matches: () => true } : list(random, () => plainItem(random, { low: 1, high: 12, star: 1 }, (l) => l.month, (v) => MONTH_NAMES[v]!));
  const dayOfWeek = random() < 0.5 ? { ...any, text: random() < 0.5 ? "*" : "?" } : dayOfWeekField(random);
  const fields = [seconds, minutes, hours, dayOfMonth, month, dayOfWeek];
  return { expression: fields.map((f) => f.text).join(" "), fields };
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
