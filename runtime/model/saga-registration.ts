// What a saga is for the runtime: plain data and functions, produced by the generated `define…Saga`
// wrappers. Types only; the runtime that subscribes, delivers and runs jobs consumes this shape.
import type { AggregateRef, TargetRef } from "./aggregate-ref.js";
import type { CommandDraft, CommandMessage, EventMessage } from "./messages.js";
import type { DurationInput } from "./duration.js";
import type { RetryPolicy, Services } from "./registration.js";
import type { Misfire, ScheduleRule } from "./schedule-rule.js";

/** One due slot of an `@OnSchedule` job, as its handler receives it. */
export interface ScheduleTick {
  /** The tenant of the job instance. */
  readonly tenantId: string;
  /** The job (its name), which is the id of the `<context>.schedule` aggregate instance. */
  readonly job: string;
  /** The due slot, 1-based. */
  readonly slot: number;
  /** The slot's due time, epoch milliseconds. */
  readonly due: number;
  /** Slots missed before this one while no node ran the job (`COALESCE`). */
  readonly skipped: number;
  /** The journal partition, for sharded jobs. */
  readonly partition?: number;
  /** Why it runs: its slot came due, an operator's trigger, or a backfill of a past range. */
  readonly kind: "scheduled" | "manual" | "backfill";
}

/** What a saga's event handler returns: commands to send, and schedules it asks targets to set or cancel. */
export type SagaCommand<C extends CommandDraft = CommandDraft> =
  | { readonly kind: "command"; readonly target: TargetRef; readonly command: C }
  | { readonly kind: "schedule"; readonly key: string; readonly rule: ScheduleRule; readonly target: TargetRef; readonly command: C }
  | { readonly kind: "cancel"; readonly key: string; readonly target: TargetRef };

/** What a job returns: commands, each with its full target (the tick belongs to the job, not to a tenant's commit). */
export interface JobCommand<C extends CommandDraft = CommandDraft> {
  readonly kind: "command";
  readonly target: AggregateRef;
  readonly command: C;
}

/** Builds a saga handler's outputs. */
export interface SagaContext {
  /** Sends `command` to `target` (the tenant defaults to the event's). */
  command(target: TargetRef, command: CommandDraft): SagaCommand;
  /** Asks `target` to schedule `command` for itself under `key`; a target that does not exist rejects it. */
  schedule(key: string, rule: ScheduleRule, target: TargetRef, command: CommandDraft): SagaCommand;
  /** Asks `target` to cancel its schedule under `key`. */
  cancel(key: string, target: TargetRef): SagaCommand;
}

/** Builds a job's commands. */
export interface JobContext {
  command(target: AggregateRef, command: CommandDraft): JobCommand;
  /** Aborts when the run passes its timeout or the host stops: what it returns after that is not sent. */
  readonly signal: AbortSignal;
}

/** What a job does when its next slot comes while a run of the same instance is in progress. */
export type OverlapPolicy = "BUFFER_ALL" | "BUFFER_ONE" | "SKIP";

/** A command this saga sent (or asked a target to schedule) that its target rejected. */
export interface CommandRejection<B = unknown> {
  readonly command: CommandMessage<B>;
  readonly errorCode: string;
  readonly errorMsg: string;
}

interface SagaFunction {
  /** The handler's function name (`onStockReserved`). */
  readonly function: string;
  /** The durable subscription `<processor>.<function>`. */
  readonly subscription: string;
  /** Qualified names of the services the handler gets. */
  readonly services?: readonly string[];
  /**
   * `@Blocking`: the handler may be slow (I/O that takes seconds). It runs beside its subscription's
   * ordered loop: events of different aggregates (a job: runs of different instances) side by side,
   * up to `wow.subscriptions.blocking-concurrency` at once; those of one aggregate still in order.
   */
  readonly blocking: boolean;
}

export interface SagaEventRegistration extends SagaFunction {
  /** Qualified command types it may send, and ask targets to schedule. */
  readonly commands: readonly string[];
  readonly schedules: readonly string[];
  handle(event: EventMessage, context: SagaContext, services: Services): readonly SagaCommand[] | Promise<readonly SagaCommand[]>;
}

export interface SagaRejectionRegistration extends SagaFunction {
  handle(rejection: CommandRejection, services: Services): void | Promise<void>;
}

export interface SagaJobRegistration extends SagaFunction {
  /** The job's name, unique in its context; also the id of its `<context>.schedule` instance. */
  readonly name: string;
  /** Its key under `wow.schedules` (default: the name): `<context>.<name>` when two contexts declare that name. */
  readonly configKey?: string;
  readonly cron: string;
  readonly zone: string;
  readonly scope: "SYSTEM" | "TENANT";
  readonly sharded: boolean;
  readonly misfire: Misfire;
  readonly commands: readonly string[];
  /** `overlap = …` (default BUFFER_ALL: slots queue in order). */
  readonly overlap?: OverlapPolicy;
  /** `timeout = …`: a run past it fails (and is retried as a failure). */
  readonly timeout?: DurationInput;
  /** `retry = { … }` (default `wow.timers`). */
  readonly retry?: RetryPolicy;
  /** `jitter = …`: each slot runs up to this much after its due time, by a delay fixed per slot. */
  readonly jitter?: DurationInput;
  handle(tick: ScheduleTick, context: JobContext, services: Services): readonly JobCommand[] | Promise<readonly JobCommand[]>;
}

export interface SagaRegistration {
  readonly context: string;
  /** The saga's name, also its processor name. */
  readonly saga: string;
  /** By fully qualified event type. */
  readonly events: Readonly<Record<string, SagaEventRegistration>>;
  /** By fully qualified command type. */
  readonly rejections: Readonly<Record<string, SagaRejectionRegistration>>;
  /** In declaration order. */
  readonly jobs: readonly SagaJobRegistration[];
}
