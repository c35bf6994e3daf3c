// `ScheduleRule.at(instant)`: an instant is the same on every host. A string must be an ISO-8601
// date-time with `Z` or an explicit offset; anything read in the host's zone, or guessed, is refused.
import { describe, expect, it } from "vitest";
import { ScheduleRule, toEpochMs } from "../../runtime/index.js";

const at = (instant: Parameters<typeof ScheduleRule.at>[0]) => (ScheduleRule.at(instant) as { at: number }).at;

describe("ScheduleRule.at", () => {
  it.each([
    ["2026-03-01T10:00:00Z", Date.UTC(2026, 2, 1, 10)],
    ["2026-03-01T10:00:00.250Z", Date.UTC(2026, 2, 1, 10, 0, 0, 250)],
    ["2026-03-01T19:00:00+09:00", Date.UTC(2026, 2, 1, 10)],
    ["2026-03-01T05:30:00-04:30", Date.UTC(2026, 2, 1, 10)],
    ["2026-03-01T10:00Z", Date.UTC(2026, 2, 1, 10)],
    ["2026-03-01t10:00:00z", Date.UTC(2026, 2, 1, 10)],
    ["2024-02-29T00:00:00Z", Date.UTC(2024, 1, 29)],
  ])("reads %j as an instant", (text, ms) => {
    expect(at(text)).toBe(ms);
  });

  it("rounds a fraction finer than a millisecond up: never early", () => {
    expect(at("2026-03-01T10:00:00.9999Z")).toBe(Date.UTC(2026, 2, 1, 10, 0, 1));
    expect(at("2026-03-01T10:00:00.1230000001Z")).toBe(Date.UTC(2026, 2, 1, 10, 0, 0, 124));
    expect(at("2026-03-01T10:00:00.1230000Z")).toBe(Date.UTC(2026, 2, 1, 10, 0, 0, 123));
  });

  it.each([
    "2026-03-01T10:00:00", // no offset: the host's local time
    "2026-03-01", // a date: midnight where?
    "12",
    "March 1",
    "Sun, 01 Mar 2026 10:00:00 GMT",
    "2026-02-30T10:00:00Z",
    "2026-13-01T10:00:00Z",
    "2026-03-01T24:00:00Z",
    "2026-03-01T10:60:00Z",
    "2026-03-01T10:00:00+25:00",
    " 2026-03-01T10:00:00Z",
    "",
  ])("refuses %j with a RangeError naming it and the expected form", (text) => {
    expect(() => ScheduleRule.at(text)).toThrow(RangeError);
    expect(() => ScheduleRule.at(text)).toThrow(`${JSON.stringify(text)}`);
    expect(() => ScheduleRule.at(text)).toThrow(/ISO-8601 .*offset/);
  });

  it("takes finite epoch milliseconds and valid Dates; refuses the rest", () => {
    expect(at(1_772_359_200_000)).toBe(1_772_359_200_000);
    expect(at(new Date(Date.UTC(2026, 2, 1, 10)))).toBe(Date.UTC(2026, 2, 1, 10));
    expect(at(1000.2)).toBe(1001); // never early
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, -Number.MAX_VALUE, 8.64e15 + 1, new Date(Number.NaN)]) {
      expect(() => ScheduleRule.at(bad)).toThrow(RangeError);
    }
    expect(() => ScheduleRule.at({} as unknown as string)).toThrow(RangeError);
  });

  it("the virtual clock reads instants the same way (toEpochMs is the one reader)", () => {
    expect(toEpochMs("2026-03-01T19:00:00+09:00")).toBe(Date.UTC(2026, 2, 1, 10));
    expect(() => toEpochMs("2026-03-01T10:00:00")).toThrow(RangeError);
  });
});
