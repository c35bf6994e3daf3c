// Each rule on its own: special days, day-of-month AND day-of-week, DST gaps and repeats in zones
// with unusual transitions, strictly-after, never-fires, zones.
import { describe, expect, it } from "vitest";
import { fires } from "./fires.js";
import { CronExpression, isValidTimeZone } from "../../../runtime/cron/index.js";


const days = (list: string[]) => list.map((s) => s.slice(0, 10));

describe("special days", () => {
  it("L: the last day, February in leap and common years", () => {
    expect(days(fires("0 0 0 L * *", "2023-12-31T12:00:00Z", 4))).toEqual(["2024-01-31", "2024-02-29", "2024-03-31", "2024-04-30"]);
    expect(days(fires("0 0 0 L 2 *", "2023-01-01T00:00:00Z", 2))).toEqual(["2023-02-28", "2024-02-29"]);
  });

  it("L-n: n days before the last day; a month too short has none", () => {
    expect(days(fires("0 0 0 L-1 * *", "2024-01-01T00:00:00Z", 3))).toEqual(["2024-01-30", "2024-02-28", "2024-03-30"]);
    // L-29 is the 2nd of a 31-day month, the 1st of a 30-day month, nothing in February.
    expect(days(fires("0 0 0 L-29 * *", "2025-01-15T00:00:00Z", 3))).toEqual(["2025-03-02", "2025-04-01", "2025-05-02"]);
    expect(days(fires("0 0 0 L-29 2 *", "2025-01-15T00:00:00Z", 3))).toEqual([]);
  });

  it("nW: the nearest weekday, never leaving the month", () => {
    // 2025-11-15 is a Saturday → Friday 14th; 2025-06-15 a Sunday → Monday 16th.
    expect(days(fires("0 0 0 15W 11 *", "2025-01-01T00:00:00Z", 1))).toEqual(["2025-11-14"]);
    expect(days(fires("0 0 0 15W 6 *", "2025-01-01T00:00:00Z", 1))).toEqual(["2025-06-16"]);
    // 2025-11-01 is a Saturday → Monday 3rd (not Friday Oct 31).
    expect(days(fires("0 0 0 1W 11 *", "2025-01-01T00:00:00Z", 1))).toEqual(["2025-11-03"]);
    // 2025-08-31 is a Sunday: Monday would be September, so August has none (as Spring).
    expect(days(fires("0 0 0 31W 8 *", "2025-01-01T00:00:00Z", 1))).toEqual(["2026-08-31"]);
    // 2025-05-31 is a Saturday → Friday 30th.
    expect(days(fires("0 0 0 31W 5 *", "2025-01-01T00:00:00Z", 1))).toEqual(["2025-05-30"]);
    // A month without the 30th has no 30W.
    expect(CronExpression.parse("0 0 0 30W 2 *").neverFires()).toBe(true);
  });

  it("LW: the last weekday of the month", () => {
    // 2025-05-31 Sat → 30th, 2025-08-31 Sun → 29th, 2025-06-30 Mon.
    expect(days(fires("0 0 0 LW * *", "2025-05-01T00:00:00Z", 4))).toEqual(["2025-05-30", "2025-06-30", "2025-07-31", "2025-08-29"]);
  });

  it("nL: the last given weekday of the month, by number or name", () => {
    expect(days(fires("0 0 0 ? * 1L", "2025-01-01T00:00:00Z", 3))).toEqual(["2025-01-27", "2025-02-24", "2025-03-31"]);
    expect(fires("0 0 0 ? * MONL", "2025-01-01T00:00:00Z", 3)).toEqual(fires("0 0 0 ? * 1L", "2025-01-01T00:00:00Z", 3));
    expect(fires("0 0 0 ? * 7L", "2025-01-01T00:00:00Z", 3)).toEqual(fires("0 0 0 ? * 0L", "2025-01-01T00:00:00Z", 3));
  });

  it("n#k: the k-th given weekday; months without a fifth are skipped", () => {
    expect(days(fires("0 0 0 ? * 2#2", "2025-01-01T00:00:00Z", 3))).toEqual(["2025-01-14", "2025-02-11", "2025-03-11"]);
    expect(days(fires("0 0 0 ? * FRI#5", "2025-01-01T00:00:00Z", 3))).toEqual(["2025-01-31", "2025-05-30", "2025-08-29"]);
  });

  it("lists mix special and plain days", () => {
    expect(days(fires("0 0 0 1,L * *", "2025-01-02T00:00:00Z", 3))).toEqual(["2025-01-31", "2025-02-01", "2025-02-28"]);
    expect(days(fires("0 0 0 ? * MON#1,FRIL", "2025-01-01T00:00:00Z", 4))).toEqual(["2025-01-06", "2025-01-31", "2025-02-03", "2025-02-28"]);
  });

  it("both day fields restricted: both must match (Friday the 13th), ? and * leave the other free", () => {
    expect(days(fires("0 0 0 13 * FRI", "2025-01-01T00:00:00Z", 2))).toEqual(["2025-06-13", "2026-02-13"]);
    expect(days(fires("0 0 0 L * SUN", "2025-01-01T00:00:00Z", 2))).toEqual(["2025-08-31", "2025-11-30"]);
    expect(days(fires("0 0 0 13 * ?", "2025-01-01T00:00:00Z", 2))).toEqual(["2025-01-13", "2025-02-13"]);
  });
});

describe("daylight saving", () => {
  it("skips a local time in the gap and fires twice in a repeated hour (Europe/Berlin)", () => {
    // 2025-03-30 02:00 → 03:00; 2025-10-26 03:00 → 02:00.
    expect(fires("0 30 2 * * *", "2025-03-29T00:00:00Z", 2, "Europe/Berlin")).toEqual(["2025-03-29T01:30:00Z", "2025-03-31T00:30:00Z"]);
    expect(fires("0 0,30 2 * * *", "2025-10-25T23:00:00Z", 5, "Europe/Berlin")).toEqual([
      "2025-10-26T00:00:00Z", "2025-10-26T00:30:00Z", "2025-10-26T01:00:00Z", "2025-10-26T01:30:00Z", "2025-10-27T01:00:00Z",
    ]);
  });

  it("names the first match a gap skips, and none for a rule clear of the gaps", () => {
    const skipped = (rule: string, zone: string, from?: string) => CronExpression.parse(rule).firstSkipped(zone, from === undefined ? undefined : Date.parse(from));
    expect(skipped("0 30 2 * * *", "Europe/Berlin")).toEqual({ local: "2025-03-30T02:30:00", skippedAtMs: Date.parse("2025-03-30T01:00:00Z") });
    expect(skipped("0 30 2 * * *", "Europe/Berlin", "2026-01-01T00:00:00Z")?.local).toBe("2026-03-29T02:30:00");
    expect(skipped("0 30 2 * * *", "America/New_York")?.local).toBe("2025-03-09T02:30:00");
    // Only when the date falls on the day of the change: 29 March is the last Sunday in 2026.
    expect(skipped("0 30 2 29 3 *", "Europe/Berlin")?.local).toBe("2026-03-29T02:30:00");
    // Lord Howe skips half an hour only: 02:15 is in it, 02:45 is not.
    expect(skipped("0 15 2 * * *", "Australia/Lord_Howe")?.local).toBe("2025-10-05T02:15:00");
    expect(skipped("0 45 2 * * *", "Australia/Lord_Howe")).toBeNull();
    // A repeated hour (autumn) is no gap; zones without DST and UTC have none.
    expect(skipped("0 30 2 * 10-12 *", "Europe/Berlin")).toBeNull();
    expect(skipped("0 30 3 * * *", "Europe/Berlin")).toBeNull();
    expect(skipped("0 30 2 * * *", "Asia/Tokyo")).toBeNull();
    expect(skipped("0 30 2 * * *", "UTC")).toBeNull();
  });

  it("handles Lord Howe's 30-minute shift", () => {
    // Australia/Lord_Howe: 2025-10-05 02:00 → 02:30 (+10:30 → +11); 2026-04-05 02:00 → 01:30.
    expect(fires("0 0,15,30,45 2 5 10 *", "2025-10-04T00:00:00Z", 2, "Australia/Lord_Howe")).toEqual(["2025-10-04T15:30:00Z", "2025-10-04T15:45:00Z"]);
    expect(fires("0 45 1 5 4 *", "2026-04-04T00:00:00Z", 3, "Australia/Lord_Howe")).toEqual([
      "2026-04-04T14:45:00Z", "2026-04-04T15:15:00Z", "2027-04-04T15:15:00Z",
    ]);
  });

  it("handles Santiago's midnight transitions (a missing and a repeated 23:00 hour)", () => {
    // 2025-09-07 00:00 → 01:00: the day starts at 01:00; 2025-04-06 00:00 → 23:00 the day before.
    expect(fires("0 0 * 7 9 *", "2025-09-07T00:00:00Z", 2, "America/Santiago")).toEqual(["2025-09-07T04:00:00Z", "2025-09-07T05:00:00Z"]);
    expect(fires("0 30 23 5 4 *", "2025-04-05T00:00:00Z", 3, "America/Santiago")).toEqual([
      "2025-04-06T02:30:00Z", "2025-04-06T03:30:00Z", "2026-04-06T03:30:00Z",
    ]);
  });

  it("fires every second of a repeated hour twice and none of a gap (New York)", () => {
    const cron = CronExpression.parse("* * 1 2 11 *");
    let after = Date.parse("2025-11-02T04:59:59Z");
    let count = 0;
    for (;;) {
      const next = cron.nextAfterMs(after, "America/New_York")!;
      if (next > Date.parse("2025-11-02T07:00:00Z")) break;
      expect(next).toBe(after + 1000);
      after = next;
      count++;
    }
    expect(count).toBe(7200);
    // 2025-03-09 02:xx does not exist; 2026-03-09 is the day after that year's change (EDT).
    expect(fires("* * 2 9 3 *", "2025-03-01T00:00:00Z", 1, "America/New_York")).toEqual(["2026-03-09T06:00:00Z"]);
  });
});

describe("next", () => {
  it("is strictly after, to the millisecond", () => {
    const cron = CronExpression.parse("0 0 0 * * *");
    expect(cron.next(new Date("2025-01-01T00:00:00.000Z"))!.toISOString()).toBe("2025-01-02T00:00:00.000Z");
    expect(cron.next(new Date("2024-12-31T23:59:59.999Z"))!.toISOString()).toBe("2025-01-01T00:00:00.000Z");
    expect(cron.next(new Date("2025-01-01T00:00:00.001Z"))!.toISOString()).toBe("2025-01-02T00:00:00.000Z");
  });

  it("works before 1970 and far ahead", () => {
    expect(fires("0 0 0 29 2 MON", "1900-01-01T00:00:00Z", 2)).toEqual(["1904-02-29T00:00:00Z", "1932-02-29T00:00:00Z"]);
    expect(fires("0 0 12 1 1 *", "1960-06-01T00:00:00Z", 1, "Europe/Paris")).toEqual(["1961-01-01T11:00:00Z"]);
    expect(fires("0 0 0 29 2 *", "2096-03-01T00:00:00Z", 1)).toEqual(["2104-02-29T00:00:00Z"]);
  });

  it("defaults to UTC and throws RangeError for an unknown zone", () => {
    const cron = CronExpression.parse("0 0 6 * * *");
    expect(cron.next(new Date("2025-01-01T00:00:00Z"))!.toISOString()).toBe("2025-01-01T06:00:00.000Z");
    expect(() => cron.next(new Date(0), "Mars/Olympus")).toThrow(RangeError);
    expect(() => cron.next(new Date(Number.NaN))).toThrow(RangeError);
  });

  it("returns null when nothing matches, in the zone too (02:30 on a spring-forward Sunday)", () => {
    expect(CronExpression.parse("0 0 0 30 2 *").next(new Date(0))).toBeNull();
    // March 31st is a Sunday only when it is the last Sunday of March: 02:30 then never exists in Berlin.
    const cron = CronExpression.parse("0 30 2 31 3 SUN");
    expect(cron.neverFires()).toBe(false);
    expect(cron.next(new Date("2025-01-01T00:00:00Z"), "Europe/Berlin")).toBeNull();
    expect(cron.next(new Date("2025-01-01T00:00:00Z"), "UTC")!.toISOString()).toBe("2030-03-31T02:30:00.000Z");
  });
});

describe("neverFires", () => {
  it.each([
    ["0 0 0 30 2 *", true],
    ["0 0 0 31 6 *", true],
    ["0 0 0 31 2 MON", true],
    ["0 0 0 31 4,6,9,11 *", true],
    ["0 0 0 30W 2 *", true],
    ["0 0 0 L-29 2 *", true],
    ["0 0 0 L-30 2,4,6 *", true],
    ["0 0 0 L-30 2-4 *", false], // the 1st of March
    ["0 0 0 1W * SUN", true],
    ["0 0 0 ? 2 MON#5", false], // a leap February starting on a Monday
    ["0 0 0 29 2 *", false],
    ["0 0 0 29 2 MON", false],
    ["0 0 0 L-30 1 *", false],
    ["0 0 0 31 * *", false],
    ["0 0 0 1-7 * MON#2", true],
    ["0 0 0 8-14 * MON#2", false],
    ["0 0 0 L * 5L", false],
    ["0 0 0 LW * SAT", true],
  ])("%s → %s", (expression, never) => {
    expect(CronExpression.parse(expression).neverFires()).toBe(never);
  });

  it("agrees with next over 400 years for every neverFires answer above", () => {
    for (const expression of ["0 0 0 29 2 MON", "0 0 0 ? 2 MON#5", "0 0 0 L-30 1 *"]) {
      expect(CronExpression.parse(expression).next(new Date(0))).not.toBeNull();
    }
  });
});

describe("firesIn", () => {
  it.each([
    ["0 30 2 31 3 SUN", "Europe/Berlin", false], // the last Sunday of March: 02:30 is skipped
    ["0 30 2 31 3 SUN", "UTC", true],
    ["0 30 2 31 3 SUN", "Asia/Tokyo", true], // no DST
    ["0 30 2 31 10 SUN", "Europe/Berlin", true], // the fall-back hour: it fires twice
    ["0 0 2 * 3 SUN#5", "Europe/Paris", false], // a fifth Sunday of March is the last one
    ["0 0 3 * 3 SUN#5", "Europe/Paris", true],
    ["0 0 0 30 2 *", "UTC", false],
  ])("%s in %s → %s", (expression, zone, fires) => {
    expect(CronExpression.parse(expression).firesIn(zone)).toBe(fires);
  });
});

describe("isValidTimeZone", () => {
  it.each([
    ["UTC", true],
    ["Europe/Berlin", true],
    ["America/Argentina/Buenos_Aires", true],
    ["Australia/Lord_Howe", true],
    ["Mars/Olympus", false],
    ["", false],
    ["+01:00", false],
    ["Europe/Berlin ", false],
  ])("%j → %s", (zone, valid) => {
    expect(isValidTimeZone(zone)).toBe(valid);
  });
});
