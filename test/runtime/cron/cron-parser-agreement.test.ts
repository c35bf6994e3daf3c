// Where cron-parser and Spring agree (plain numeric fields, day-of-week unrestricted, UTC), the
// engine must give cron-parser's answers too: a differential check of the field parsing and the
// search on many random expressions, with an implementation written independently of ours.
import { CronExpressionParser } from "cron-parser";
import { describe, expect, it } from "vitest";
import { CronExpression } from "../../../runtime/cron/index.js";
import { mulberry32 } from "../../support/random.js";

function plainField(random: () => number, low: number, high: number): string {
  const int = (a: number, b: number) => a + Math.floor(random() * (b - a + 1));
  const item = (): string => {
    switch (int(0, 4)) {
      case 0: return "*";
      case 1: return String(int(low, high));
      case 2: { const a = int(low, high); return `${a}-${int(a, high)}`; }
      case 3: return `*/${int(1, Math.ceil((high - low) / 2))}`;
      default: { const a = int(low, high); return `${a}-${int(a, high)}/${int(1, 5)}`; }
    }
  };
  if (random() < 0.7) return item();
  // A list of distinct values (cron-parser refuses lists whose items overlap).
  const values = new Set(Array.from({ length: int(2, 4) }, () => int(low, high)));
  return [...values].join(",");
}

describe("agreement with cron-parser on plain fields in UTC", () => {
  it("gives the same next 3 fire times for random expressions (those cron-parser accepts of 500)", () => {
    const random = mulberry32(99);
    let compared = 0;
    for (let i = 0; i < 500; i++) {
      const expression = [
        plainField(random, 0, 59),
        plainField(random, 0, 59),
        plainField(random, 0, 23),
        plainField(random, 1, 28), // 29-31 differ: cron-parser rolls invalid dates differently
        plainField(random, 1, 12),
        "*",
      ].join(" ");
      const from = new Date(Date.UTC(2000, 0, 1) + Math.floor(random() * 40 * 365 * 86_400_000));
      let theirs: ReturnType<typeof CronExpressionParser.parse>;
      try {
        theirs = CronExpressionParser.parse(expression, { currentDate: from, tz: "UTC" });
      } catch {
        continue; // cron-parser refuses overlapping list items, which Spring (and we) accept
      }
      const ours = CronExpression.parse(expression);
      let after = from;
      for (let k = 0; k < 3; k++) {
        const expected = theirs.next().toDate().toISOString();
        const got = ours.next(after)!;
        expect(got.toISOString(), `${expression} after ${after.toISOString()}`).toBe(expected);
        after = got;
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(1000);
  });
});
