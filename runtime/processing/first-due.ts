import type { ScheduleRule } from "../model/schedule-rule.js";
import type { CronNext } from "../timers/cron-next.js";

/** The first slot's due time of a rule set by a commit at `commitTime`; undefined if a cron never fires. */
export function firstDue(rule: ScheduleRule, commitTime: number, cronNext: CronNext): number | undefined {
  switch (rule.kind) {
    case "at":
      return rule.at;
    case "after":
      return commitTime + rule.after;
    case "cron":
      return cronNext(rule.expression, rule.zone, commitTime);
  }
}
