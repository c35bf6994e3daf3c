// Zone names are read as Java's `ZoneId` reads them (the JVM hosts, Wow and Spring, read the same
// manifest and configuration): spelt exactly as in the tz database. Node's Intl takes any case, so
// "asia/tokyo" ran here and failed there; the runtime refuses it wherever it takes a zone.
import { describe, expect, it } from "vitest";
import { CronExpression, isValidTimeZone } from "../../runtime/cron/index.js";
import { zoneClock, zoneSpelling } from "../../runtime/cron/zone.js";
import { ScheduleRule } from "../../runtime/index.js";
import { ruleFrom } from "../../runtime/jobs/job-rules.js";
import { firstDue } from "../../runtime/processing/first-due.js";

describe("zone names", () => {
  it.each([
    ["asia/tokyo", "Asia/Tokyo"],
    ["utc", "UTC"],
    ["Utc", "UTC"],
    ["etc/utc", "Etc/UTC"],
    ["gmt", "GMT"],
    ["us/pacific", "US/Pacific"],
    ["EUROPE/BERLIN", "Europe/Berlin"],
    ["asia/kolkata", "Asia/Kolkata"],
    ["asia/calcutta", "Asia/Calcutta"],
    ["europe/kyiv", "Europe/Kyiv"],
    ["est5edt", "EST5EDT"],
    ["etc/gmt+5", "Etc/GMT+5"],
  ])("%j is refused; its spelling %j is taken", (zone, spelling) => {
    expect(isValidTimeZone(zone)).toBe(false);
    expect(zoneSpelling(zone)).toBe(spelling);
    expect(isValidTimeZone(spelling)).toBe(true);
    expect(zoneSpelling(spelling)).toBeUndefined();
  });

  it.each(["PST", "IST", "JST", "SystemV/AST4", "US/Pacific-New"])(
    "%j, which ICU takes but is no name of the tz database (Java's ZoneId refuses it), is refused",
    (zone) => {
      expect(isValidTimeZone(zone)).toBe(false);
      expect(() => zoneClock(zone)).toThrow(`Unknown time zone '${zone}': use an IANA name`);
    },
  );

  it.each(["EST", "MST", "HST", "CET", "GMT0", "Zulu", "Universal", "PRC", "Europe/Kiev", "America/Buenos_Aires"])(
    "%j, an old name the tz database still keeps (as Java does), is taken",
    (zone) => expect(isValidTimeZone(zone)).toBe(true),
  );

  it("a cron rule is not searched in a wrongly cased zone, and the error gives the spelling", () => {
    expect(() => zoneClock("asia/tokyo")).toThrow(`Unknown time zone 'asia/tokyo': zone names are case-sensitive: did you mean "Asia/Tokyo"?`);
    expect(() => CronExpression.parse("0 0 * * * *").next(new Date(0), "utc")).toThrow(/did you mean "UTC"/);
  });

  it("a ScheduleRule in a wrongly cased zone has no first due time", () => {
    const result = firstDue(ScheduleRule.cron("0 0 * * * *", "asia/tokyo"), 0, () => 0);
    expect(result).toEqual({ problem: 'unknown time zone "asia/tokyo" (zone names are case-sensitive: did you mean "Asia/Tokyo"?)' });
  });

  it("a job's rule changed to a wrongly cased zone is rejected", () => {
    const base = { expression: "0 0 * * * *", zone: "UTC", misfire: "COALESCE" } as const;
    expect(() => ruleFrom({ zone: "europe/paris" }, base)).toThrow(/unknown time zone "europe\/paris"/);
    expect(ruleFrom({ zone: "Europe/Paris" }, base).zone).toBe("Europe/Paris");
  });
});
