// The offset reader (Intl's formatted string) against Intl's parts, in every zone, at random instants
// over the whole range a Date holds: BC years, pre-1900 local mean times, far future.
import { describe, expect, it } from "vitest";
import { ZoneOffsetReader } from "../../../runtime/cron/zone-offset.js";
import { mulberry32 } from "../../support/random.js";

function offsetFromParts(format: Intl.DateTimeFormat, utcSecond: number): number {
  const parts = Object.fromEntries(format.formatToParts(utcSecond * 1000).map((p) => [p.type, Number(p.value)])) as Record<"year" | "month" | "day" | "hour" | "minute" | "second", number>;
  const local = new Date(0);
  local.setUTCFullYear(parts.year, parts.month - 1, parts.day);
  local.setUTCHours(parts.hour, parts.minute, parts.second);
  return local.getTime() / 1000 - utcSecond;
}

const MAX_SECOND = 8.64e12 - 86_400; // a day inside what a Date holds, so local time fits too

describe("ZoneOffsetReader", () => {
  it("reads the offset Intl's parts give, in every zone (60 instants each)", () => {
    const random = mulberry32(46);
    for (const zone of [...Intl.supportedValuesOf("timeZone"), "UTC"]) {
      const reader = new ZoneOffsetReader(zone);
      const format = new Intl.DateTimeFormat("en-US", {
        timeZone: zone, hourCycle: "h23", year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", second: "numeric",
      });
      const instants = [0, -1, -MAX_SECOND, MAX_SECOND, Date.UTC(1883, 10, 18) / 1000];
      for (let i = 0; i < 25; i++) instants.push(Math.floor((random() * 2 - 1) * MAX_SECOND));
      for (let i = 0; i < 30; i++) instants.push(Math.floor(Date.UTC(1850, 0, 1) / 1000 + random() * 300 * 365.25 * 86_400));
      for (const at of instants) expect(reader.offsetAt(at), `${zone} at ${at}`).toBe(offsetFromParts(format, at));
    }
  });
});
