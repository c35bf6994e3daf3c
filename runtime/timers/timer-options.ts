import type { DurationInput } from "../model/duration.js";
import { optionValues, type Backoff, type BackoffInput } from "../model/option-values.js";

/** The timer service's options (the host maps `wow.timers.*` onto them). */
export interface TimerOptions {
  /** How often the poller looks for due timers when it has nothing else to do (default 1 s; at least 1 ms). */
  readonly pollInterval?: DurationInput;
  /**
   * Timers claimed per batch; memory is bounded by it (default 1,000). A batch commits in one
   * transaction: with random target ids, 1,000 wrote 0.86 WAL pages per delivery against 1.01 for 500,
   * and drained 100k timers at 37–41 against 47–49 µs per delivery.
   */
  readonly batchSize?: number;
  /** Attempts per slot before a technical failure parks the timer (default 10). */
  readonly maxAttempts?: number;
  /** Retry delay after the n-th failure: min(max, initial · factor^(n-1)); initial ≥ 1 ms, factor ≥ 1, max ≥ initial. */
  readonly backoff?: BackoffInput;
  /** How long a claim holds a timer before another (or the next) process may claim it again (default 30 s; at least 1 ms). */
  readonly lease?: DurationInput;
  /**
   * Deliveries of one batch in flight at once (default: the batch size). Their commits share one
   * transaction on SQLite, so a whole batch commits at once; deliveries to the same aggregate go in turn.
   */
  readonly concurrency?: number;
}

export interface ResolvedTimerOptions {
  readonly pollInterval: number;
  readonly batchSize: number;
  readonly maxAttempts: number;
  readonly backoff: Backoff;
  readonly lease: number;
  readonly concurrency: number;
}

export const TIMER_DEFAULTS: ResolvedTimerOptions = {
  pollInterval: 1_000,
  batchSize: 1_000,
  maxAttempts: 10,
  backoff: { initial: 1_000, factor: 2, max: 600_000 },
  lease: 30_000,
  concurrency: 1_000,
};

/** The options resolved and checked: a value that would make the poller spin, or retries storm, is a RangeError naming it. */
export function resolveTimerOptions(options: TimerOptions = {}): ResolvedTimerOptions {
  const d = TIMER_DEFAULTS;
  const { count, duration, backoff } = optionValues("timers");
  // Removed, not ignored: COALESCE no longer waits for a threshold (a slot whose next slot is due too was missed).
  if ((options as { misfireThreshold?: unknown }).misfireThreshold !== undefined) {
    throw new RangeError("timers.misfireThreshold is no longer an option: under COALESCE a slot whose following slot is already due was missed, however late");
  }
  return {
    pollInterval: duration("pollInterval", options.pollInterval, d.pollInterval),
    batchSize: count("batchSize", options.batchSize, d.batchSize),
    maxAttempts: count("maxAttempts", options.maxAttempts, d.maxAttempts),
    backoff: backoff(options.backoff, d.backoff),
    lease: duration("lease", options.lease, d.lease),
    concurrency: count("concurrency", options.concurrency ?? options.batchSize, d.concurrency),
  };
}
