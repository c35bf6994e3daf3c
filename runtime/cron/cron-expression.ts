// A parsed Spring-style cron expression: `next` fire time in any zone, and `neverFires`.
import { parseCronFields } from "./parse.js";
import { buildPlan, type CronPlan } from "./plan.js";
import { civilFromDays, SECONDS_PER_DAY } from "./calendar.js";
import { firstSkippedLocal, nextFireMs } from "./search.js";
import { zoneClock } from "./zone.js";

/** Where `firesIn` starts looking: 2025-01-01T00:00:00Z. */
const FIRES_FROM_MS = Date.UTC(2025, 0, 1);
/** How far `firstSkipped` looks by default: 28 years, a full cycle of weekdays over dates. */
const SKIP_HORIZON_MS = 28 * 365.25 * SECONDS_PER_DAY * 1000;

/** A match that a DST gap skips. */
export interface SkippedTime {
  /** The local date and time that does not exist: `2026-03-29T02:30:00`. */
  readonly local: string;
  /** When the clocks skipped ahead over it (epoch ms, the instant of the transition). */
  readonly skippedAtMs: number;
}

export class CronExpression {
  /** The expression exactly as given to `parse`. */
  readonly source: string;
  readonly #plan: CronPlan;

  private constructor(source: string, plan: CronPlan) {
    this.source = source;
    this.#plan = plan;
  }

  /**
   * Parses six fields (second minute hour day-of-month month day-of-week) or a macro (`@daily`…)
   * with Spring `CronExpression` meaning. Throws `CronSyntaxError` naming the field and the text.
   */
  static parse(expression: string): CronExpression {
    if (typeof expression !== "string") throw new TypeError("A cron expression must be a string");
    return new CronExpression(expression, buildPlan(parseCronFields(expression)));
  }

  /**
   * The first fire time strictly after `after`, reading the fields in `zone` (an IANA name).
   * A local time inside a DST gap does not fire; one repeated by a fall-back fires at both
   * instants. Null when nothing can ever match. Throws RangeError for an unknown zone.
   */
  next(after: Date, zone = "UTC"): Date | null {
    const ms = this.nextAfterMs(after.getTime(), zone);
    return ms === null ? null : new Date(ms);
  }

  /**
   * `next` on epoch milliseconds, without Date objects: the runtime's fast path. With `untilMs`,
   * the search gives up (null) at that instant instead of a 400-year cycle later.
   */
  nextAfterMs(afterMs: number, zone = "UTC", untilMs?: number): number | null {
    if (!Number.isFinite(afterMs)) throw new RangeError(`Cannot search for a cron fire time after an invalid instant (${afterMs})`);
    return nextFireMs(this.#plan, zoneClock(zone), afterMs, untilMs);
  }

  /** True when no date can ever match (e.g. "0 0 0 30 2 *", "0 0 0 31 2 MON"). Exact, and cheap. */
  neverFires(): boolean {
    return this.#plan.neverFires;
  }

  /**
   * Whether it fires at all in `zone`: false when no date matches, and also when every match falls
   * into a DST gap there ("0 0 2 * 3 SUN#5" in Europe/Paris: the fifth Sunday of March is the last,
   * when 02:00 is skipped). Searched from the start of 2025 (a fixed instant, so that a verdict does
   * not depend on the day it is asked) through a 400-year cycle. Cheap when it fires soon; a never
   * firing rule costs the zone's table for the whole cycle (a few hundred ms, once per zone).
   */
  firesIn(zone: string): boolean {
    return !this.#plan.neverFires && this.nextAfterMs(FIRES_FROM_MS, zone) !== null;
  }

  /**
   * The first match that falls into a DST gap in `zone` (a local time the clocks skip, so the rule
   * does not fire that day), after `afterMs` (default: the start of 2025, like `firesIn`) and before
   * `untilMs` (default: 28 years later); null when no match is skipped there.
   */
  firstSkipped(zone: string, afterMs = FIRES_FROM_MS, untilMs = afterMs + SKIP_HORIZON_MS): SkippedTime | null {
    const skipped = firstSkippedLocal(this.#plan, zoneClock(zone), afterMs, untilMs);
    if (skipped === null) return null;
    const local = skipped.local;
    const days = Math.floor(local / SECONDS_PER_DAY);
    const time = local - days * SECONDS_PER_DAY;
    const date = civilFromDays(days, { year: 0, month: 0, day: 0 });
    const pad = (n: number, width = 2) => String(n).padStart(width, "0");
    return {
      local: `${pad(date.year, 4)}-${pad(date.month)}-${pad(date.day)}T${pad(Math.floor(time / 3600))}:${pad(Math.floor(time / 60) % 60)}:${pad(time % 60)}`,
      skippedAtMs: skipped.transition * 1000,
    };
  }

  toString(): string {
    return this.source;
  }
}
