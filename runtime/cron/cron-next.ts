import { CronExpression } from "./cron-expression.js";

/**
 * The next due time of a cron rule strictly after `afterMs`, or undefined when it never fires again.
 * With `untilMs` the search may give up there (undefined): the request path bounds its search so.
 */
export type CronNext = (expression: string, zone: string, afterMs: number, untilMs?: number) => number | undefined;

const parsed = new Map<string, CronExpression>();

/** The parsed expression (cached, bounded); throws `CronSyntaxError` for a bad one. */
export function parseCron(expression: string): CronExpression {
  let cron = parsed.get(expression);
  if (cron === undefined) {
    cron = CronExpression.parse(expression);
    if (parsed.size >= 1000) parsed.clear();
    parsed.set(expression, cron);
  }
  return cron;
}

/** Spring-semantics cron via `runtime/cron`. */
export const cronNext: CronNext = (expression, zone, afterMs, untilMs) => parseCron(expression).nextAfterMs(afterMs, zone, untilMs) ?? undefined;
