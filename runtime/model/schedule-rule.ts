import { parseDuration, type DurationInput } from "./duration.js";

/** What a cron timer does with slots missed while no node ran it. */
export type Misfire = "COALESCE" | "CATCH_UP";

export type ScheduleRule =
  | { readonly kind: "at"; readonly at: number }
  | { readonly kind: "after"; readonly after: number }
  | { readonly kind: "cron"; readonly expression: string; readonly zone: string; readonly misfire: Misfire };

export type InstantInput = number | Date | string;

/** The largest instant a Date holds (±100,000,000 days from 1970), in epoch ms. */
const MAX_INSTANT_MS = 8.64e15;

/**
 * An ISO-8601 / RFC 3339 date-time with `Z` or an explicit offset: an instant, the same on every
 * host. (`Date.parse` would read one without an offset in the host's zone, and guess at "12" or
 * "March 1".) Seconds and their fraction are optional; `,` may stand for the decimal point.
 */
const ISO_INSTANT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(?:(Z)|([+-])(\d{2})(?::?(\d{2}))?)$/i;

function notAnInstant(instant: unknown): RangeError {
  const shown = typeof instant === "string" ? JSON.stringify(instant) : String(instant);
  return new RangeError(
    `not an instant: ${shown} (use an ISO-8601 date-time with Z or an explicit offset, e.g. "2026-03-01T10:00:00Z" or "2026-03-01T11:00:00+01:00", epoch milliseconds, or a valid Date)`,
  );
}

function daysInMonth(year: number, month: number): number {
  return month === 2 ? (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function parseIsoInstant(text: string): number | undefined {
  const m = ISO_INSTANT.exec(text);
  if (!m) return undefined;
  const field = (index: number) => Number(m[index] ?? 0);
  const [year, month, day, hour, minute, second, offsetHours, offsetMinutes] = [1, 2, 3, 4, 5, 6, 10, 11].map(field) as [number, number, number, number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) || hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59) return undefined;
  // Milliseconds from the first three digits; any finer digit rounds up, so the rule is never early.
  const fraction = m[7] ?? "";
  const ms = Number(fraction.slice(0, 3).padEnd(3, "0")) + (/[1-9]/.test(fraction.slice(3)) ? 1 : 0);
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day); // not Date.UTC: it reads years 0-99 as 1900-1999
  date.setUTCHours(hour, minute, second, ms);
  const offset = (m[9] === "-" ? -1 : 1) * (offsetHours * 60 + offsetMinutes) * 60_000;
  return date.getTime() - offset;
}

/**
 * Epoch milliseconds of an instant: finite epoch ms (a fraction rounds up), a valid Date, or an
 * ISO-8601 date-time with `Z` or an offset. Anything else is a RangeError naming the value.
 */
export function toEpochMs(instant: InstantInput): number {
  const ms =
    typeof instant === "number" ? Math.ceil(instant) : instant instanceof Date ? instant.getTime() : typeof instant === "string" ? parseIsoInstant(instant) : undefined;
  if (ms === undefined || !Number.isFinite(ms) || Math.abs(ms) > MAX_INSTANT_MS) throw notAnInstant(instant);
  return ms;
}

export const ScheduleRule = {
  /** Due at that instant. */
  at(instant: InstantInput): ScheduleRule {
    return { kind: "at", at: toEpochMs(instant) };
  },
  /** Due that long after the commit that set it (the commit's time, not the send time). */
  after(duration: DurationInput): ScheduleRule {
    return { kind: "after", after: parseDuration(duration) };
  },
  /** Due whenever the six-field (Spring) expression matches, read in `zone`. */
  cron(expression: string, zone = "UTC", misfire: Misfire = "COALESCE"): ScheduleRule {
    if (misfire !== "COALESCE" && misfire !== "CATCH_UP") throw new RangeError(`unknown misfire policy: ${String(misfire)}`);
    return { kind: "cron", expression, zone, misfire };
  },
};
