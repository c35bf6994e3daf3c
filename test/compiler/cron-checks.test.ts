// The checker holds `@OnSchedule` cron rules to Spring's `CronExpression` (through the runtime engine),
// and points a cron diagnostic at the offending field inside the string literal.
import { describe, expect, it } from "vitest";
import { compile, diagnose } from "./helpers.js";

function job(cron: string, zone?: string): string {
  return `
    context shop
    aggregate A {
      command C {}
      event E {}
      @OnCommand(produces = [E])
      on C
    }
    saga S {
      @OnSchedule(name = "j", cron = ${cron}${zone === undefined ? "" : `, zone = ${zone}`}, commands = [C])
      job j
    }
  `;
}

const codes = (cron: string) => diagnose(job(JSON.stringify(cron))).map((d) => d.split(" ")[0]);

describe("cron rules follow Spring semantics", () => {
  it.each([
    ["0 0 0 29 2 *", "29 February fires in leap years"],
    ["0 0 0 L-3 * *", "third-last day of the month"],
    ["0 0 0 LW * *", "last weekday of the month"],
    ["0 0 0 ? * 5L", "last Friday"],
    ["0 0 0 ? * 1#5", "fifth Monday (some months have one)"],
    ["0 0 0 15W * *", "nearest weekday to the 15th"],
    ["0 0 6 * * MON-FRI", "names"],
    ["@daily", "macros"],
    ["*/15 * * * * *", "steps"],
  ])("accepts %s (%s)", (cron) => {
    expect(codes(cron)).toEqual([]);
  });

  it.each([
    ["0 0 0 30 2 *", "WOW4002"],
    ["0 0 0 31 4 *", "WOW4002"],
    ["0 0 0 31 2 MON", "WOW4002"],
    ["0 0 * * *", "WOW4001"],
    ["0 0 0 * * * *", "WOW4001"],
    ["60 * * * * *", "WOW4001"],
    ["0 0 25 * * *", "WOW4001"],
    ["0 0 0 32 * *", "WOW4001"],
    ["", "WOW4001"],
  ])("refuses %s with %s", (cron, code) => {
    expect(codes(cron)).toEqual([code]);
  });

  it("points at the offending field inside the quotes", () => {
    const source = job('"0 0 25 * * *"');
    const d = compile(source).diagnostics[0]!;
    expect(d.code).toBe("WOW4001");
    expect(d.loc!.file.text.slice(d.loc!.start, d.loc!.end)).toBe("25");
  });

  it("counts escapes when pointing into the string", () => {
    // The value "0 0 25 * * *" written as "0 \u0030 25 * * *": the hour field sits 5 characters later in the source.
    const source = job('"0 \\u0030 25 * * *"');
    const d = compile(source).diagnostics[0]!;
    expect(d.code).toBe("WOW4001");
    expect(d.loc!.file.text.slice(d.loc!.start, d.loc!.end)).toBe("25");
  });

  it("refuses unknown time zones with a suggestion, accepts IANA zones", () => {
    expect(codes("0 0 6 * * *")).toEqual([]);
    expect(diagnose(job('"0 0 6 * * *"', '"America/New_York"'))).toEqual([]);
    const d = compile(job('"0 0 6 * * *"', '"Europe/Pariss"')).diagnostics[0]!;
    expect(d.code).toBe("WOW4006");
    expect(d.hint).toContain("Did you mean 'Europe/Paris'?");
  });
});
