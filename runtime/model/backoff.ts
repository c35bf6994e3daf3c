import type { Backoff } from "./option-values.js";

/**
 * Delay before the next attempt after the `failures`-th failure (1-based): exponential, capped.
 * The options are checked where they are resolved; still, a delay that is not a number (a NaN or
 * negative factor from an unchecked caller) waits the cap, never 0 ms, which would retry without pause.
 */
export function backoffDelay(failures: number, backoff: Backoff): number {
  const delay = Math.round(backoff.initial * Math.pow(backoff.factor, Math.max(0, failures - 1)));
  return delay >= 0 ? Math.min(backoff.max, delay) : backoff.max;
}
