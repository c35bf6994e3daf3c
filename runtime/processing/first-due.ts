import { isValidTimeZone, zoneAdvice } from "../cron/zone.js";
import type { CronExpression } from "../cron/index.js";
import type { ScheduleRule } from "../model/schedule-rule.js";
import { parseCron, type CronNext } from "../cron/cron-next.js";

const DAY_MS = 86_400_000;
/** The last instant a Date holds (+275760-09-13): a due time past it could not be read back. */
const MAX_INSTANT_MS = 8.64e15;

/**
 * How far past the commit the first due time of a cron rule is searched. The search runs on the
 * request path: unbounded, it walks a 400-year cycle — seconds per zone — for a rule whose every
 * match falls in that zone's daylight-saving gap. 41 years: the longest wait between two matches of
 * any rule is 40 years (Feb 29 on a given weekday, across a century year that is not leap: 2072 →
 * 2112), and a year to spare. (Spring's CronExpression bounds its search too: 366 rolls of its fields.)
 */
const HORIZON_YEARS = 41;
export const FIRST_DUE_HORIZON_MS = HORIZON_YEARS * 366 * DAY_MS;

/** The first slot's due time, or why the rule has none (the decision is then rejected). */
export type FirstDue = { readonly due: number } | { readonly problem: string };

const show = (value: unknown) => (typeof value === "string" ? JSON.stringify(value) : String(value));

/**
 * The first slot's due time of a rule set by a commit at `commitTime`. The rule may come from a
 * JSON body (a saga's schedule request), so its whole shape is checked here, not only by the
 * `ScheduleRule` builders: an invalid rule is the command's fault, never a technical failure.
 */
export function firstDue(rule: ScheduleRule, commitTime: number, cronNext: CronNext): FirstDue {
  const kind: unknown = (rule as { kind?: unknown } | null)?.kind;
  switch (kind) {
    case "at": {
      const at: unknown = (rule as { at: unknown }).at;
      if (typeof at !== "number" || !Number.isSafeInteger(at)) return { problem: `at must be an instant in epoch milliseconds, got ${show(at)}` };
      return dueAt(at);
    }
    case "after": {
      const after: unknown = (rule as { after: unknown }).after;
      if (typeof after !== "number" || !Number.isSafeInteger(after) || after < 0) return { problem: `after must be a duration in milliseconds (a non-negative integer), got ${show(after)}` };
      return dueAt(commitTime + after);
    }
    case "cron":
      return cronDue(rule as Extract<ScheduleRule, { kind: "cron" }>, commitTime, cronNext);
    default:
      return { problem: `unknown rule kind ${show(kind)} (a rule is ScheduleRule.at, .after or .cron)` };
  }
}

function dueAt(due: number): FirstDue {
  return Math.abs(due) <= MAX_INSTANT_MS ? { due } : { problem: `due at ${due} ms, past the last instant a Date can hold` };
}

function cronDue(rule: Extract<ScheduleRule, { kind: "cron" }>, commitTime: number, cronNext: CronNext): FirstDue {
  const { expression, zone, misfire } = rule;
  if (typeof expression !== "string") return { problem: `the cron expression must be a string (six fields), got ${show(expression)}` };
  let cron: CronExpression;
  try {
    cron = parseCron(expression);
  } catch (error) {
    return { problem: `cron expression ${show(expression)}: ${(error as Error).message}` };
  }
  if (!isValidTimeZone(zone)) return { problem: `unknown time zone ${show(zone)} (${zoneAdvice(String(zone))})` };
  if (misfire !== "COALESCE" && misfire !== "CATCH_UP") return { problem: `misfire must be "COALESCE" or "CATCH_UP", got ${show(misfire)}` };
  if (cron.neverFires()) return { problem: `cron expression ${show(expression)} never fires: no date matches it` };
  const until = commitTime + FIRST_DUE_HORIZON_MS;
  const due = cronNext(expression, zone, commitTime, until);
  // Within the horizon the expression matches some date (it covers the longest wait between two matches), so
  // when nothing fires there, each match fell into the zone's daylight-saving gap.
  if (due === undefined || due >= until) {
    return { problem: `cron expression ${show(expression)} does not fire in ${zone} within ${HORIZON_YEARS} years: each time it matches falls in a daylight-saving gap there` };
  }
  return dueAt(due);
}
