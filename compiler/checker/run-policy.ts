// How delivered work is retried and timed: `@Retry(maxAttempts, backoff, maxBackoff)` on a job or a
// command handler, and the durations of `@OnSchedule(timeout = …, jitter = …)`. Durations are read by
// the runtime's own parser, so what the compiler accepts the host accepts.
import type { RetryModel } from "../model.js";
import { parseDuration } from "../../runtime/model/duration.js";
import type { Annotations } from "./annotations.js";
import type { CheckContext } from "./context.js";

/** The most attempts a policy may ask for: beyond it a failing command would be retried for weeks. */
export const MAX_ATTEMPTS_LIMIT = 1000;

/** A duration argument as written: undefined when absent, null when it is not a duration (reported). */
export function durationArgument(annotations: Annotations, annotation: string, argument: string, cx: CheckContext): { text: string; ms: number } | undefined | null {
  const value = annotations.string(annotation, argument);
  if (value === undefined) return undefined;
  let ms: number | undefined;
  try {
    ms = parseDuration(value.value);
  } catch {
    ms = undefined;
  }
  if (ms === undefined || ms < 1) {
    cx.reporter.report("WOW4012", { annotation, argument, value: value.value }, value.loc);
    return null;
  }
  return { text: value.value, ms };
}

/** `@Retry(…)`: undefined when absent, null when a value is wrong (reported). */
export function checkRetry(annotations: Annotations, cx: CheckContext): RetryModel | undefined | null {
  if (!annotations.has("Retry")) return undefined;
  let valid = true;
  const attempts = annotations.number("Retry", "maxAttempts");
  if (attempts !== undefined && !(Number.isInteger(attempts.value) && attempts.value >= 1 && attempts.value <= MAX_ATTEMPTS_LIMIT)) {
    cx.reporter.report("WOW4013", { value: attempts.text, limit: String(MAX_ATTEMPTS_LIMIT) }, attempts.loc);
    valid = false;
  }
  const backoff = durationArgument(annotations, "Retry", "backoff", cx);
  const maxBackoff = durationArgument(annotations, "Retry", "maxBackoff", cx);
  if (backoff === null || maxBackoff === null) valid = false;
  else if (backoff !== undefined && maxBackoff !== undefined && maxBackoff.ms < backoff.ms) {
    cx.reporter.report("WOW4014", { maxBackoff: maxBackoff.text, backoff: backoff.text }, annotations.string("Retry", "maxBackoff")!.loc);
    valid = false;
  }
  if (!valid || backoff === null || maxBackoff === null) return null;
  return {
    ...(attempts === undefined ? {} : { maxAttempts: attempts.value }),
    ...(backoff === undefined ? {} : { backoff: backoff.text }),
    ...(maxBackoff === undefined ? {} : { maxBackoff: maxBackoff.text }),
  };
}
