// The verdicts on the cron rules and zones of one build, through the runtime's cron engine (Spring
// `CronExpression` semantics): each distinct rule and zone is checked once per build.
import { CronExpression, CronSyntaxError, isValidTimeZone, type SkippedTime } from "../../runtime/cron/index.js";

/**
 * The verdicts on the cron rules and zones of one build: projects repeat them, and each distinct one
 * is checked once (a cron rule parsed, and searched for a firing in each zone it is given). Made per
 * build, not per process: a verdict kept from an earlier build would spare a long-lived process work
 * that `wowc check` does.
 */
export class ScheduleVerdicts {
  /** By rule: the parsed rule when some date matches, else why not. */
  private readonly crons = new Map<string, CronExpression | "never" | CronSyntaxError>();
  private readonly zones = new Map<string, boolean>();
  /** By zone and rule (`${zone} ${rule}`): whether the rule fires there. */
  private readonly inZone = new Map<string, boolean>();
  /** By zone and rule: the first match a DST gap skips there, or null. */
  private readonly skipped = new Map<string, SkippedTime | null>();

  cron(expression: string): "ok" | "never" | CronSyntaxError {
    const parsed = this.parsed(expression);
    return parsed instanceof CronExpression ? "ok" : parsed;
  }

  /** Whether a rule that `cron` calls "ok" fires in a valid zone: not when DST gaps skip every match. */
  firesIn(expression: string, zone: string): boolean {
    const key = `${zone} ${expression}`;
    let fires = this.inZone.get(key);
    if (fires === undefined) {
      const parsed = this.parsed(expression);
      fires = parsed instanceof CronExpression && parsed.firesIn(zone);
      this.inZone.set(key, fires);
    }
    return fires;
  }

  /** The first match of a rule that fires in `zone` which a DST gap there skips (from 2025, over 28 years), or null. */
  firstSkipped(expression: string, zone: string): SkippedTime | null {
    const key = `${zone} ${expression}`;
    let skipped = this.skipped.get(key);
    if (skipped === undefined) {
      const parsed = this.parsed(expression);
      skipped = parsed instanceof CronExpression ? parsed.firstSkipped(zone) : null;
      this.skipped.set(key, skipped);
    }
    return skipped;
  }

  private parsed(expression: string): CronExpression | "never" | CronSyntaxError {
    let verdict = this.crons.get(expression);
    if (verdict === undefined) {
      try {
        const parsed = CronExpression.parse(expression);
        verdict = parsed.neverFires() ? "never" : parsed;
      } catch (error) {
        if (!(error instanceof CronSyntaxError)) throw error;
        verdict = error;
      }
      this.crons.set(expression, verdict);
    }
    return verdict;
  }

  zone(zone: string): boolean {
    let known = this.zones.get(zone);
    if (known === undefined) {
      known = isValidTimeZone(zone);
      this.zones.set(zone, known);
    }
    return known;
  }
}
