/** Delay before the next attempt after the `failures`-th failure (1-based): exponential, capped. */
export function backoffDelay(failures: number, backoff: { initial: number; factor: number; max: number }): number {
  const delay = backoff.initial * Math.pow(backoff.factor, Math.max(0, failures - 1));
  return Math.min(backoff.max, Math.round(delay));
}
