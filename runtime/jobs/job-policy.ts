// How a job's runs go: its overlap policy, timeout, retries and jitter, from its declaration
// (`@OnSchedule(overlap = …, timeout = …, retry = { … }, jitter = …)`) with `wow.schedules.<job>`
// over it; retries default to the host's (`wow.timers`).
import { createHash } from "node:crypto";
import type { ScheduleConfig } from "../config/types.js";
import { optionValues, type Backoff } from "../model/option-values.js";
import type { RetryPolicy } from "../model/registration.js";
import { retryOf, type RetryDefaults } from "../model/retry-policy.js";
import type { OverlapPolicy, SagaJobRegistration } from "../model/saga-registration.js";

export const OVERLAP_POLICIES: readonly OverlapPolicy[] = ["BUFFER_ALL", "BUFFER_ONE", "SKIP"];

export interface JobPolicy {
  readonly overlap: OverlapPolicy;
  /** ms; undefined: no limit. */
  readonly timeout?: number;
  readonly maxAttempts: number;
  readonly backoff: Backoff;
  /** ms; 0: none. */
  readonly jitter: number;
}

/** A job's policy: the declaration, `wow.schedules.<key>` over it. */
export function jobPolicy(job: SagaJobRegistration, config: Partial<ScheduleConfig> | undefined, defaults: RetryDefaults, key: string): JobPolicy {
  const section = `schedules.${key}`;
  const overlap = config?.overlap ?? job.overlap ?? "BUFFER_ALL";
  if (!OVERLAP_POLICIES.includes(overlap)) throw new RangeError(`${section}.overlap must be one of ${OVERLAP_POLICIES.join(", ")}, got ${JSON.stringify(overlap)}`);
  const { duration } = optionValues(section);
  const timeoutInput = config?.timeout ?? job.timeout;
  const jitterInput = config?.jitter ?? job.jitter;
  const retry = retryOf(config?.retry === undefined ? job.retry : { ...job.retry, ...retryConfig(config.retry) }, defaults, section);
  return {
    overlap,
    ...(timeoutInput === undefined ? {} : { timeout: duration("timeout", timeoutInput, 0) }),
    maxAttempts: retry.maxAttempts,
    backoff: retry.backoff,
    jitter: jitterInput === undefined ? 0 : duration("jitter", jitterInput, 0),
  };
}

function retryConfig(retry: NonNullable<ScheduleConfig["retry"]>): RetryPolicy {
  return {
    ...(retry["max-attempts"] === undefined ? {} : { maxAttempts: retry["max-attempts"] }),
    ...(retry.backoff === undefined ? {} : { backoff: retry.backoff }),
    ...(retry["max-backoff"] === undefined ? {} : { maxBackoff: retry["max-backoff"] }),
  };
}

/**
 * The slot's jitter: a delay in [0, jitter) fixed by the instance and the slot's due time (the same
 * on every host and every restart), so a slot never runs before its due time and always at the same offset.
 */
export function jitterOf(instance: string, due: number, jitter: number): number {
  if (jitter <= 0) return 0;
  const hash = createHash("sha256").update(`${instance}@${due}`).digest();
  return hash.readUInt32BE(0) % Math.floor(jitter);
}
