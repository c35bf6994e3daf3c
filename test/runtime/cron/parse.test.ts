// Syntax: what parses, what it means (seen through `next`), and errors that point at the text.
import { describe, expect, it } from "vitest";
import { fires } from "./fires.js";
import { CronExpression, CronSyntaxError } from "../../../runtime/cron/index.js";


function syntaxError(expression: string): CronSyntaxError {
  try {
    CronExpression.parse(expression);
  } catch (error) {
    if (error instanceof CronSyntaxError) return error;
    throw error;
  }
  throw new Error(`expected ${JSON.stringify(expression)} to be rejected`);
}

describe("cron syntax", () => {
  it("keeps the source", () => {
    expect(CronExpression.parse(" 0 0 6 * * * ").source).toBe(" 0 0 6 * * * ");
  });

  it("reads steps: */15, 0/6, 5-40/5, and a single value with a step runs to the maximum", () => {
    expect(fires("*/15 * * * * *", "2025-01-01T00:00:00Z")).toEqual([
      "2025-01-01T00:00:15Z", "2025-01-01T00:00:30Z", "2025-01-01T00:00:45Z", "2025-01-01T00:01:00Z",
    ]);
    expect(fires("0 0 0/6 * * *", "2025-01-01T00:00:00Z")).toEqual([
      "2025-01-01T06:00:00Z", "2025-01-01T12:00:00Z", "2025-01-01T18:00:00Z", "2025-01-02T00:00:00Z",
    ]);
    expect(fires("0 5-40/5 0 * * *", "2025-01-01T00:30:00Z")).toEqual([
      "2025-01-01T00:35:00Z", "2025-01-01T00:40:00Z", "2025-01-02T00:05:00Z", "2025-01-02T00:10:00Z",
    ]);
    expect(fires("50/7 0 0 * * *", "2025-01-01T00:00:00Z", 3)).toEqual([
      "2025-01-01T00:00:50Z", "2025-01-01T00:00:57Z", "2025-01-02T00:00:50Z",
    ]);
  });

  it("reads lists mixing values, ranges and steps", () => {
    expect(fires("0 0 1,3-4,20/2 * * *", "2025-01-01T00:00:00Z", 6).map((s) => s.slice(11, 13))).toEqual(["01", "03", "04", "20", "22", "01"]);
  });

  it("reads month and weekday names in any case, in ranges and lists", () => {
    expect(fires("0 0 0 1 jan,Jul *", "2025-02-01T00:00:00Z", 2)).toEqual(["2025-07-01T00:00:00Z", "2026-01-01T00:00:00Z"]);
    expect(fires("0 0 0 ? * MON-wed", "2025-01-01T00:00:00Z", 4)).toEqual([
      "2025-01-06T00:00:00Z", "2025-01-07T00:00:00Z", "2025-01-08T00:00:00Z", "2025-01-13T00:00:00Z",
    ]);
    expect(fires("0 0 0 1 MAR-MAY/2 *", "2025-01-01T00:00:00Z", 2)).toEqual(["2025-03-01T00:00:00Z", "2025-05-01T00:00:00Z"]);
  });

  it("takes 0 and 7 for Sunday, SUN as 7, and 7 at the start of a range as 0", () => {
    const sundays = fires("0 0 0 * * 0", "2025-01-01T00:00:00Z");
    expect(fires("0 0 0 * * 7", "2025-01-01T00:00:00Z")).toEqual(sundays);
    expect(fires("0 0 0 * * SUN", "2025-01-01T00:00:00Z")).toEqual(sundays);
    // 7-1 is Sunday and Monday; FRI-SUN is Friday to Sunday.
    expect(fires("0 0 0 * * 7-1", "2025-01-01T00:00:00Z", 3)).toEqual(["2025-01-05T00:00:00Z", "2025-01-06T00:00:00Z", "2025-01-12T00:00:00Z"]);
    expect(fires("0 0 0 * * FRI-SUN", "2025-01-01T00:00:00Z", 4)).toEqual([
      "2025-01-03T00:00:00Z", "2025-01-04T00:00:00Z", "2025-01-05T00:00:00Z", "2025-01-10T00:00:00Z",
    ]);
  });

  it("reads */2 in day-of-week from Monday (Spring's 1-7), 0/2 from Sunday", () => {
    // 2025-01-06 is a Monday.
    const days = (e: string) => fires(e, "2025-01-05T12:00:00Z", 4).map((s) => new Date(s).getUTCDay());
    expect(days("0 0 0 ? * */2")).toEqual([1, 3, 5, 0]);
    expect(days("0 0 0 ? * 0/2")).toEqual([2, 4, 6, 0]);
  });

  it("treats ? as *", () => {
    expect(fires("0 0 0 ? * ?", "2025-01-01T00:00:00Z")).toEqual(fires("0 0 0 * * *", "2025-01-01T00:00:00Z"));
  });

  it.each([
    ["@yearly", "0 0 0 1 1 *"],
    ["@annually", "0 0 0 1 1 *"],
    ["@monthly", "0 0 0 1 * *"],
    ["@weekly", "0 0 0 * * 0"],
    ["@daily", "0 0 0 * * *"],
    ["@midnight", "0 0 0 * * *"],
    ["@hourly", "0 0 * * * *"],
    ["@DAILY", "0 0 0 * * *"],
  ])("expands %s to %s", (macro, fields) => {
    expect(fires(macro, "2025-01-01T05:30:00Z")).toEqual(fires(fields, "2025-01-01T05:30:00Z"));
  });

  it.each([
    // expression, field, offending text, offset
    ["* * * * *", "expression", "* * * * *", 0],
    ["  0 0 0 * * * *", "expression", "0 0 0 * * * *", 2],
    ["", "expression", "", 0],
    ["@often", "expression", "@often", 0],
    ["60 * * * * *", "second", "60", 0],
    ["0 60 * * * *", "minute", "60", 2],
    ["0 0 25 * * *", "hour", "25", 4],
    ["0 0 0 0 * *", "day-of-month", "0", 6],
    ["0 0 0 32 * *", "day-of-month", "32", 6],
    ["0 0 0 * 13 *", "month", "13", 8],
    ["0 0 0 * FOO *", "month", "FOO", 8],
    ["0 0 0 * * 8", "day-of-week", "8", 10],
    ["0 0 0 * * MONDAY", "day-of-week", "MONDAY", 10],
    ["0 */0 * * * *", "minute", "0", 4],
    ["0 0 0 5-1 * *", "day-of-month", "5-1", 6],
    ["0 0 1-2-3 * * *", "hour", "2-3", 6],
    ["0 0 ? * * *", "hour", "?", 4],
    ["0 0 0 1,? * *", "day-of-month", "?", 8],
    ["0 0 0 1,,2 * *", "day-of-month", ",", 7],
    ["0 0 0 1, * *", "day-of-month", ",", 7],
    ["0 0 0 L-0 * *", "day-of-month", "0", 8],
    ["0 0 0 L-31 * *", "day-of-month", "31", 8],
    ["0 0 0 3L * *", "day-of-month", "3L", 6],
    ["0 0 0 W * *", "day-of-month", "W", 6],
    ["0 0 0 15W3 * *", "day-of-month", "15W3", 6],
    ["0 0 0 32W * *", "day-of-month", "32", 6],
    ["0 0 0 ? * L", "day-of-week", "L", 10],
    ["0 0 0 ? * #2", "day-of-week", "#2", 10],
    ["0 0 0 ? * MON#", "day-of-week", "MON#", 10],
    ["0 0 0 ? * MON#6", "day-of-week", "6", 14],
    ["0 0 0 ? * 9L", "day-of-week", "9", 10],
    ["0 0 0 * * 1/x", "day-of-week", "x", 12],
    ["0 0 0 * * 1/", "day-of-week", "/", 11],
  ])("rejects %j in %s at %j (offset %i)", (expression, field, text, offset) => {
    const error = syntaxError(expression);
    expect(error.field).toBe(field);
    expect(error.text).toBe(text);
    expect(error.offset).toBe(offset);
    expect(error.length).toBe(text.length);
    expect(expression.slice(error.offset, error.offset + error.length)).toBe(text);
    expect(error.message).toContain(error.detail);
  });

  it("explains a five-field expression with the seconds field it lacks", () => {
    expect(syntaxError("*/5 * * * *").detail).toContain('did you mean "0 */5 * * * *"');
  });

  it("names the allowed range in an out-of-range error", () => {
    expect(syntaxError("0 0 24 * * *").detail).toBe("24 is out of range for hour (0-23)");
    expect(syntaxError("0 0 0 * * 9").detail).toContain("0-7 or MON-SUN");
  });

  it("separates fields by spaces only, as Spring does: a tab between two is refused at its position", () => {
    const error = syntaxError("0 0 0 * *\t*");
    expect([error.detail, error.offset]).toEqual(["Fields are separated by spaces, and a tab stands between two here", 9]);
    expect(fires("\t0 0 6 * * *  ", "2025-01-01T00:00:00Z")[0]).toBe("2025-01-01T06:00:00Z"); // around the fields, white space is trimmed
  });

  it("reads L and W of day-of-month in capitals only, as Spring does (weekday names and 5L in any case)", () => {
    for (const expression of ["0 0 0 l * *", "0 0 0 lw * *", "0 0 0 15w * *", "0 0 0 l-3 * *"]) {
      expect(syntaxError(expression).detail).toMatch(/^Write 'L' and 'W' in capitals in day-of-month/);
    }
    expect(fires("0 0 0 ? * 5l", "2025-01-01T00:00:00Z")[0]).toBe("2025-01-31T00:00:00Z");
  });

  it("throws a TypeError for a non-string", () => {
    expect(() => CronExpression.parse(42 as unknown as string)).toThrow(TypeError);
  });
});
