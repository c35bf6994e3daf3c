// A retry policy (`@Retry`, `retry = { … }`) resolved over the host's defaults into attempts and a
// doubling backoff: after the n-th failure the next attempt waits min(maxBackoff, backoff · 2^(n-1)).
import { optionValues, type Backoff } from "./option-values.js";
import type { RetryPolicy } from "./registration.js";

/** The retry defaults: `wow.timers`' attempts and backoff. */
export interface RetryDefaults {
  readonly maxAttempts: number;
  readonly backoff: Backoff;
}

/** A retry policy over the defaults, as attempts and a doubling backoff; a value out of range is a RangeError naming `<section>.retry.<field>`. */
export function retryOf(policy: RetryPolicy | undefined, defaults: RetryDefaults, section: string): RetryDefaults {
  const { count, duration } = optionValues(`${section}.retry`);
  const maxAttempts = count("maxAttempts", policy?.maxAttempts, defaults.maxAttempts);
  if (policy?.backoff === undefined && policy?.maxBackoff === undefined) return { maxAttempts, backoff: defaults.backoff };
  const initial = duration("backoff", policy.backoff, defaults.backoff.initial);
  const max = duration("maxBackoff", policy.maxBackoff, Math.max(defaults.backoff.max, initial));
  if (max < initial) throw new RangeError(`${section}.retry.maxBackoff must be at least retry.backoff (${initial} ms), got ${max} ms`);
  return { maxAttempts, backoff: { initial, factor: 2, max } };
}

