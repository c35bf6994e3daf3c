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
  /** Over the declaration's `overlap`. */
  readonly overlap?: "BUFFER_ALL" | "BUFFER_ONE" | "SKIP";
  /** Over the declaration's `timeout`. */
  readonly timeout?: DurationInput;
  /** Over the declaration's `jitter`. */
  readonly jitter?: DurationInput;
  /** Over the declaration's `retry` (field by field). */
  readonly retry?: { readonly "max-attempts"?: number; readonly backoff?: DurationInput; readonly "max-backoff"?: DurationInput };
}

/** `wow.timers`. */
export interface TimersConfig {
  readonly "poll-interval": DurationInput;
  readonly "max-attempts": number;
}

/** One bearer credential of the HTTP API; bound to a tenant, it reaches only that tenant's instances. */
export interface HttpCredential {
  readonly token: string;
  readonly tenant?: string;
  /** A name for logs. */
  readonly name?: string;
}

/** `wow.http` (known to the runtime, not generated): the HTTP API's credentials and limits. */
export interface HttpConfig {
  readonly credentials?: readonly HttpCredential[];
  /** Largest accepted request body in bytes (default 1 MiB). */
  readonly "body-limit"?: number;
  /** The operator console the host serves (on by default, at /wow/console). */
  readonly console?: ConsoleConfig;
}

/** `wow.http.console`: whether the host serves the operator console, and where. */
export interface ConsoleConfig {
  readonly enabled?: boolean;
  /** Default /wow/console. */
  readonly path?: string;
}

/** `wow.store` (known to the runtime): a SQLite file (`path`, the default, and how it keeps commits) or a PostgreSQL server (`url`). */
export interface StoreConfig {
  readonly path?: string;
  readonly synchronous?: "NORMAL" | "FULL";
  readonly "integrity-check"?: boolean;
  readonly url?: string;
  readonly schema?: string;
  readonly pool?: number;
  readonly "statement-timeout"?: DurationInput;
}

/** `wow.runs`: the run log. */
export interface RunsConfig {
  readonly enabled?: boolean;
  readonly keep?: DurationInput;
  readonly "per-instance"?: number;
}

/** `wow.cluster`: several hosts sharing one PostgreSQL store. */
export interface ClusterConfig {
  readonly heartbeat?: DurationInput;
  readonly lease?: DurationInput;
  readonly partitions?: number;
}

/** `wow.alerts.webhook`. */
export interface WebhookConfig {
  readonly url: string;
  readonly secret: string;
  readonly events?: readonly ("job.failed" | "timer.parked" | "event.parked")[];
  readonly "max-attempts"?: number;
  readonly timeout?: DurationInput;
}

export interface WowConfig<Job extends string = string> {
  readonly wow: {
    readonly schedules: { readonly [K in Job]: ScheduleConfig };
    readonly timers: TimersConfig;
    readonly http?: HttpConfig;
    readonly store?: StoreConfig;
    readonly runs?: RunsConfig;
    readonly log?: { readonly level?: "trace" | "debug" | "info" | "warn" | "error" | "fatal" | "silent" };
    readonly metrics?: { readonly enabled?: boolean };
    readonly alerts?: { readonly webhook?: WebhookConfig };
    readonly subscriptions?: { readonly "blocking-concurrency"?: number };
    readonly cluster?: ClusterConfig;
  };
}

/** One problem of a configuration: its JSON pointer (`/wow/schedules/receive-deliveries/expression`) and what is wrong. */
export interface ConfigProblem {
  readonly path: string;
  readonly message: string;
  /** Where the bad value came from: the file's path, or the environment variable. */
  readonly source: string;
}
