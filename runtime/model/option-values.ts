// Checks for the numeric options of the runtime's loops (timers, subscriptions): a value that would
// make a loop spin (a zero interval or delay), or retries storm (a factor below 1, NaN), is a
// RangeError that names the option as `<section>.<name>`.
import { parseDuration, type DurationInput } from "./duration.js";

/** Retry delays: after the n-th failure, min(max, initial · factor^(n-1)). */
export interface Backoff {
  readonly initial: number;
  readonly factor: number;
  readonly max: number;
}

export interface BackoffInput {
  readonly initial?: DurationInput;
  readonly factor?: number;
  readonly max?: DurationInput;
}

export interface OptionValues {
  /** A positive safe integer (`fallback` when absent). */
  count(name: string, value: number | undefined, fallback: number): number;
  /** A duration of at least 1 ms (`fallback` when absent). */
  duration(name: string, value: DurationInput | undefined, fallback: number): number;
  /** initial ≥ 1 ms, factor finite and ≥ 1, max ≥ initial (absent values from `defaults`; max at least initial). */
  backoff(value: BackoffInput | undefined, defaults: Backoff): Backoff;
}

export function optionValues(section: string): OptionValues {
  const fail = (name: string, value: unknown, expected: string): never => {
    throw new RangeError(`${section}.${name} must be ${expected}, got ${typeof value === "string" ? JSON.stringify(value) : String(value)}`);
  };
  const count = (name: string, value: number | undefined, fallback: number): number => {
    const n = value ?? fallback;
    return Number.isSafeInteger(n) && n >= 1 ? n : fail(name, n, "a positive integer");
  };
  const duration = (name: string, value: DurationInput | undefined, fallback: number): number => {
    if (value === undefined) return fallback;
    let ms: number;
    try {
      ms = parseDuration(value);
    } catch (error) {
      throw new RangeError(`${section}.${name}: ${(error as Error).message}`);
    }
    return ms >= 1 ? ms : fail(name, value, "at least 1 ms");
  };
  const backoff = (value: BackoffInput | undefined, defaults: Backoff): Backoff => {
    const initial = duration("backoff.initial", value?.initial, defaults.initial);
    const max = duration("backoff.max", value?.max, Math.max(defaults.max, initial));
    if (max < initial) fail("backoff.max", value?.max, `at least backoff.initial (${initial} ms)`);
    const factor = value?.factor ?? defaults.factor;
    // Below 1 the delays would shrink towards 0; NaN or Infinity would make them meaningless.
    if (typeof factor !== "number" || !(factor >= 1) || !Number.isFinite(factor)) fail("backoff.factor", factor, "a finite number of at least 1");
    return { initial, factor, max };
  };
  return { count, duration, backoff };
}
