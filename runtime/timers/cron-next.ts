import { CronExpression } from "../cron/index.js";

/** The next due time of a cron rule strictly after `afterMs`, or undefined when it never fires again. */
export type CronNext = (expression: string, zone: string, afterMs: number) => number | undefined;

const parsed = new Map<string, CronExpression>();

/** Spring-semantics cron via `runtime/cron` (parsed expressions cached, bounded). */
export const cronNext: CronNext = (expression, zone, afterMs) => {
  let cron = parsed.get(expression);
  if (cron === undefined) {
    cron = CronExpression.parse(expression);
    if (parsed.size >= 1000) parsed.clear();
    parsed.set(expression, cron);
  }
  return cron.nextAfterMs(afterMs, zone) ?? undefined;
};
