import { parseDuration, type DurationInput } from "./duration.js";

/** What a cron timer does with slots missed while no node ran it. */
export type Misfire = "COALESCE" | "CATCH_UP";

export type ScheduleRule =
  | { readonly kind: "at"; readonly at: number }
  | { readonly kind: "after"; readonly after: number }
  | { readonly kind: "cron"; readonly expression: string; readonly zone: string; readonly misfire: Misfire };

export type InstantInput = number | Date | string;

export function toEpochMs(instant: InstantInput): number {
  const ms = typeof instant === "number" ? instant : typeof instant === "string" ? Date.parse(instant) : instant.getTime();
  if (!Number.isFinite(ms)) throw new RangeError(`not an instant: ${String(instant)}`);
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
