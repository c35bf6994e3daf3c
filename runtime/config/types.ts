// The host's runtime configuration (`wow.config.json` + environment), after defaults are merged.
import type { DurationInput } from "../model/duration.js";
import type { Misfire } from "../model/schedule-rule.js";

/** `wow.schedules.<job>`: host overrides of a declared `@OnSchedule` job. */
export interface ScheduleConfig {
  readonly expression: string;
  readonly zone: string;
  readonly misfire: Misfire;
  /** false keeps a SYSTEM instance disabled at start. */
  readonly enabled: boolean;
}

/** `wow.timers`. */
export interface TimersConfig {
  readonly "poll-interval": DurationInput;
  readonly "max-attempts": number;
}

export interface WowConfig<Job extends string = string> {
  readonly wow: {
    readonly schedules: { readonly [K in Job]: ScheduleConfig };
    readonly timers: TimersConfig;
  };
}

/** One problem of a configuration: its JSON pointer (`/wow/schedules/receive-deliveries/expression`) and what is wrong. */
export interface ConfigProblem {
  readonly path: string;
  readonly message: string;
  /** Where the bad value came from: the file's path, or the environment variable. */
  readonly source: string;
}
