import type { WowConfig } from "../config/types.js";
import type { CronNext } from "../cron/cron-next.js";
import type { Host } from "../hosting/core-host.js";
import { createHost, type WowHost } from "../hosting/create-host.js";
import { silentLogger, type Logger } from "../ops/log.js";
import type { ParkedAlert } from "../ops/alerts.js";
import type { JobRun, RunQuery } from "../store/run-store.js";
import { instanceId, JOB_VERBS, JobCommands, SCHEDULE_AGGREGATE } from "../jobs/job-messages.js";
import type { PartitionOwnership } from "../jobs/partition-ownership.js";
import { aggregateRef, DEFAULT_TENANT } from "../model/aggregate-ref.js";
import { commandMessage } from "../model/messages.js";
import type { SagaRegistration, ScheduleTick } from "../model/saga-registration.js";
import type { Misfire } from "../model/schedule-rule.js";
import type { SubscriptionOptions } from "../subscriptions/subscription-service.js";
import { MemoryStore } from "../store/memory/memory-store.js";
import { storeOnClock } from "./store-on-clock.js";
import type { Store } from "../store/store.js";
import type { CommandResult } from "../model/command-result.js";
import type { DurationInput } from "../model/duration.js";
import type { CommandMessage } from "../model/messages.js";
import type { AggregateRegistration, Services } from "../model/registration.js";
import type { InstantInput } from "../model/schedule-rule.js";
import type { TimerOptions } from "../timers/timer-options.js";
import type { Delivery } from "../timers/timer-service.js";
import { VirtualClock } from "./virtual-clock.js";

export interface ScheduleSpecOptions {
  readonly aggregates: readonly AggregateRegistration[];
  readonly services?: Services;
  /** The virtual clock's start (default 2026-01-01T00:00:00Z); ignored when `clock` is given. */
  readonly start?: InstantInput;
  /** The virtual clock (default: a new one at `start`): specs on one clock share time. */
  readonly clock?: VirtualClock;
  /**
   * Events, timers and subscription state (default: a fresh MemoryStore). A spec on the store of an
   * earlier one resumes where it left off: its timers, and its subscriptions from their checkpoints.
   */
  readonly store?: Store;
  readonly timers?: TimerOptions;
  readonly cronNext?: CronNext;
  /** Sagas: their event handlers and `@OnSchedule` jobs run as in a host. */
  readonly sagas?: readonly SagaRegistration[];
  /** The context `enable(job)` addresses by default (default: the first saga's). */
  readonly context?: string;
  readonly config?: WowConfig;
  readonly ownership?: PartitionOwnership;
  readonly subscriptions?: SubscriptionOptions;
  /** The host's log (default: nothing logged). */
  readonly logger?: Logger;
}

/** A tick a job handled, and the commands its handler derived from it. */
export interface DerivedCommands {
  readonly job: string;
  readonly tick: ScheduleTick;
  readonly commands: readonly CommandMessage[];
}

/** One call a handler made on a service the spec provided. */
export interface ServiceCall {
  readonly service: string;
  readonly method: string;
  readonly args: readonly unknown[];
}

export interface EnableOptions {
  readonly tenantId?: string;
  readonly partition?: number;
  readonly context?: string;
  readonly expression?: string;
  readonly zone?: string;
  readonly misfire?: Misfire;
}

/** A scheduled command the timer service sent, and what came of it. */
export interface SentCommand {
  readonly command: CommandMessage;
  /** When it was sent (epoch ms): at `due`, or later after downtime or a retry's backoff. */
  readonly at: number;
  /** When its slot was due (epoch ms; `command.schedule.due`). */
  readonly due: number;
  readonly result?: CommandResult;
  /** A technical failure (retried, or parked). */
  readonly error?: unknown;
  /** The failure spent the last attempt: the timer is parked until an operator re-drives it. */
  readonly parked: boolean;
}

/**
 * A host (command processor + running timer service) on a virtual clock:
 *
 *     const spec = scheduleSpec({ aggregates: [order], start: "2026-10-20T00:00:00Z" });
 *     await spec.send(confirm);
 *     const sent = await spec.advanceTime("15m");   // the scheduled commands sent meanwhile
 */
export function scheduleSpec(options: ScheduleSpecOptions): ScheduleSpec {
  return new ScheduleSpec(options);
}

export class ScheduleSpec {
  readonly clock: VirtualClock;
  readonly store: Store;
  /** The full host (timers, sagas, jobs). */
  readonly app: WowHost;
  /** The core host (command processor + timer service). */
  readonly host: Host;
  /** Every tick a job handled, with the commands it derived, in order. */
  readonly derived: DerivedCommands[] = [];
  /** Every call handlers made on the services given to the spec. */
  readonly asked: ServiceCall[] = [];
  private readonly context: string | undefined;
  private starting: Promise<void> | undefined;
  /** Every scheduled command sent so far, in order. */
  readonly sent: SentCommand[] = [];
  /** Polls that failed as a whole (a store error): `advanceTime` rethrows the first of its own. */
  readonly errors: unknown[] = [];
  /** Job runs that failed (retrying, failed, parked), as `onJobFailed` heard them. */
  readonly failedRuns: JobRun[] = [];
  /** Timers and events parked, as `onParked` heard them. */
  readonly parkedAlerts: ParkedAlert[] = [];
  /** Running, stopped by `stop()` (downtime until `start()`), or not started yet (started on first use). */
  private state: "new" | "running" | "stopped" = "new";

  constructor(options: ScheduleSpecOptions) {
    this.clock = options.clock ?? new VirtualClock(options.start ?? "2026-01-01T00:00:00Z");
    this.store = options.store === undefined ? new MemoryStore() : storeOnClock(options.store, this.clock);
    this.context = options.context ?? options.sagas?.[0]?.context;
    this.app = createHost({
      registrations: [...options.aggregates, ...(options.sagas ?? [])],
      store: this.store,
      clock: this.clock,
      ...(options.services ? { services: recording(options.services, this.asked) } : {}),
      ...(options.timers ? { timers: options.timers } : {}),
      ...(options.cronNext ? { cronNext: options.cronNext } : {}),
      ...(options.config ? { config: options.config } : {}),
      ...(options.ownership ? { ownership: options.ownership } : {}),
      ...(options.subscriptions ? { subscriptions: options.subscriptions } : {}),
      logger: options.logger ?? silentLogger,
      hostId: "spec",
      onDelivery: (d) => this.sent.push(sentCommand(d)),
      onDerived: (job, tick, commands) => this.derived.push({ job: job.name, tick, commands }),
      onJobFailed: (run) => this.failedRuns.push(run),
      onParked: (parked) => this.parkedAlerts.push(parked),
      onError: (error) => this.errors.push(error),
    });
    this.host = this.app.core;
  }

  /** Enables a job instance (`wow.schedule.Enable`), as a tenant or the host does; an own rule may be given. */
  async enable(job: string, options: EnableOptions = {}): Promise<CommandResult> {
    const context = options.context ?? this.context;
    if (context === undefined) throw new Error("enable: no context (give sagas or options.context)");
    const { tenantId, partition, context: _c, ...rule } = options;
    const ref = aggregateRef(context, SCHEDULE_AGGREGATE, instanceId(job, partition), tenantId ?? DEFAULT_TENANT);
    await this.startOnFirstUse();
    return this.app.send(commandMessage(JobCommands.Enable, rule, ref));
  }

  /** An operator's `wow.schedule.<verb>` on a job instance (disable with `{ note }`, trigger, backfill with `{ from, to }`). */
  async schedule(verb: "disable" | "trigger" | "backfill" | "reschedule", job: string, body: Record<string, unknown> = {}, options: Omit<EnableOptions, "expression" | "zone" | "misfire"> = {}): Promise<CommandResult> {
    const context = options.context ?? this.context;
    if (context === undefined) throw new Error(`${verb}: no context (give sagas or options.context)`);
    const ref = aggregateRef(context, SCHEDULE_AGGREGATE, instanceId(job, options.partition), options.tenantId ?? DEFAULT_TENANT);
    await this.startOnFirstUse();
    return this.app.send(commandMessage(JOB_VERBS[verb]!, body, ref));
  }

  /** An instance's run log, oldest first (every page). */
  async runs(job: string, options: Omit<EnableOptions, "expression" | "zone" | "misfire"> & { readonly outcome?: RunQuery["outcome"] } = {}): Promise<JobRun[]> {
    const context = options.context ?? this.context;
    const log = this.app.ops.runs;
    if (context === undefined || log === undefined) return [];
    const all: JobRun[] = [];
    let cursor: string | undefined;
    do {
      const query: RunQuery = { context, instance: instanceId(job, options.partition), tenantId: options.tenantId ?? DEFAULT_TENANT, limit: 500, ...(options.outcome ? { outcome: options.outcome } : {}), ...(cursor ? { cursor } : {}) };
      const page = await log.runs(query);
      all.push(...page.items);
      cursor = page.next;
    } while (cursor !== undefined);
    return all.reverse();
  }

  /** The commands the jobs' handlers derived so far, in order. */
  get derivedCommands(): CommandMessage[] {
    return this.derived.flatMap((d) => d.commands);
  }

  /** Sends a command now (starting the host on first use; during a `stop()` it is decided, and nothing else runs). */
  async send(command: CommandMessage): Promise<CommandResult> {
    await this.startOnFirstUse();
    return this.app.send(command);
  }

  /** An operator's re-drive of a parked timer or event (`WowHost.redriveTimer` / `redriveEvent`). */
  async redrive(kind: "timer" | "event", id: string): Promise<boolean> {
    return kind === "timer" ? this.app.redriveTimer(id) : (await this.app.redriveEvent(id)).ok;
  }

  /**
   * Moves the virtual clock on; returns the scheduled commands sent meanwhile. At each instant the
   * deliveries and saga handlers in flight end before time moves on (the timer and subscription
   * loops have the clock track them), so what they commit is committed when it was due.
   */
  async advanceTime(duration: DurationInput): Promise<SentCommand[]> {
    await this.startOnFirstUse();
    const from = this.sent.length;
    const errorsFrom = this.errors.length;
    await this.clock.advanceTime(duration);
    // Only this advance's: a store that failed once and recovered fails no later advance.
    if (this.errors.length > errorsFrom) throw this.errors[errorsFrom];
    return this.sent.slice(from);
  }

  /** The scheduled commands sent so far (bodies and addresses). */
  get commands(): CommandMessage[] {
    return this.sent.map((s) => s.command);
  }

  /** Starts the host (timers, subscriptions, SYSTEM jobs); after a `stop()`, the downtime ends and missed slots follow their misfire policy. */
  start(): Promise<void> {
    if (this.state !== "running") {
      this.state = "running";
      this.starting = this.app.start();
    }
    return this.starting!;
  }

  /** Stops the host: downtime until `start()` (nothing ticks or is delivered meanwhile, however far time advances). */
  async stop(): Promise<void> {
    this.state = "stopped";
    await this.app.stop();
  }

  private startOnFirstUse(): Promise<void> {
    return this.state === "new" ? this.start() : (this.starting ?? Promise.resolve());
  }
}

function sentCommand(delivery: Delivery): SentCommand {
  const { command, sentAt, result, error, parked } = delivery;
  return { command, at: sentAt, due: command.schedule?.due ?? sentAt, ...(result ? { result } : {}), ...(error === undefined ? {} : { error }), parked };
}

/** Wraps each service so that calls to its functions are recorded (the spec's `asked`). */
function recording(services: Services, asked: ServiceCall[]): Services {
  const wrapped: Record<string, unknown> = {};
  for (const [name, service] of Object.entries(services)) {
    if (typeof service === "function") {
      wrapped[name] = (...args: unknown[]) => {
        asked.push({ service: name, method: "", args });
        return (service as (...a: unknown[]) => unknown)(...args);
      };
    } else if (typeof service === "object" && service !== null) {
      wrapped[name] = new Proxy(service, {
        get(target, property, receiver) {
          const value = Reflect.get(target, property, receiver);
          if (typeof value !== "function") return value;
          return (...args: unknown[]) => {
            asked.push({ service: name, method: String(property), args });
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        },
      });
    } else {
      wrapped[name] = service;
    }
  }
  return wrapped;
}
