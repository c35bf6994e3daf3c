import { describe, expect, it } from "vitest";
import { DurationSyntaxError, ScheduleRule, parseDuration } from "../../runtime/index.js";

describe("parseDuration (the one duration parser)", () => {
  it.each([
    [250, 250],
    ["250", 250],
    ["250ms", 250],
    ["30s", 30_000],
    ["15m", 900_000],
    ["2h", 7_200_000],
    ["1d", 86_400_000],
    ["1h30m", 5_400_000],
    ["1.5s", 1_500],
    ["PT15M", 900_000],
    ["pt1s", 1_000],
    ["P1DT2H", 93_600_000],
    ["PT0.25S", 250],
  ] as const)("%s → %d ms", (input, ms) => {
    expect(parseDuration(input)).toBe(ms);
  });

  it.each(["", "soon", "15x", "-5s", "P", "PT", "1h 2", "P-1D"])("refuses %j", (input) => {
    expect(() => parseDuration(input)).toThrow(DurationSyntaxError);
  });

  it("refuses negative and non-finite numbers", () => {
    expect(() => parseDuration(-1)).toThrow(DurationSyntaxError);
    expect(() => parseDuration(Number.NaN)).toThrow(DurationSyntaxError);
  });

  it("refuses values that are not finite safe integers of milliseconds (a digit string can overflow to Infinity)", () => {
    for (const input of ["9".repeat(400), "9".repeat(400) + "ms", "9007199254740993", "200000000000000000ms", "P99999999999999D", 2 ** 53]) {
      expect(() => parseDuration(input)).toThrow(DurationSyntaxError);
    }
    expect(() => ScheduleRule.after("9".repeat(400))).toThrow(DurationSyntaxError);
    expect(parseDuration(Number.MAX_SAFE_INTEGER)).toBe(Number.MAX_SAFE_INTEGER);
  });

  it("builds rules: after(duration) in ms, at(instant) in epoch ms, cron with defaults", () => {
    expect(ScheduleRule.after("PT15M")).toEqual({ kind: "after", after: 900_000 });
    expect(ScheduleRule.at("2026-01-01T00:00:00Z")).toEqual({ kind: "at", at: Date.parse("2026-01-01T00:00:00Z") });
    expect(ScheduleRule.cron("0 0 6 * * *")).toEqual({ kind: "cron", expression: "0 0 6 * * *", zone: "UTC", misfire: "COALESCE" });
    expect(() => ScheduleRule.at("not a date")).toThrow(RangeError);
  });
});
