// createHost: the runnable host from generated `define…` registrations (aggregates and sagas):
// the core Host (command processor + timers), saga and job subscriptions, the jobs' built-in
// `<context>.schedule` aggregates, config (timers, schedule overrides), and the HTTP API.
import type { Server } from "node:http";
import { systemClock, type Clock } from "../clock.js";
import type { WowConfig } from "../config/types.js";
import { cronNext as defaultCronNext, type CronNext } from "../cron/cron-next.js";
import type { HttpHost, RedriveOutcome } from "../http/host-api.js";
import { listen } from "../http/listen.js";
import { createRequestListener, type HttpOptions, type RequestListener } from "../http/request-listener.js";
import { JobManager } from "../jobs/job-manager.js";
import type { LoopState } from "../loop/poll-loop.js";
import { hostRule } from "../jobs/job-rules.js";
import { jobIndexSubscription, jobSubscriptions } from "../jobs/job-subscriptions.js";
import { singleHostOwnership, type PartitionOwnership } from "../jobs/partition-ownership.js";
import type { CommandResult } from "../model/command-result.js";
import type { CommandMessage, EventMessage } from "../model/messages.js";
import type { AggregateRegistration, Services } from "../model/registration.js";
import type { SagaJobRegistration, SagaRegistration, ScheduleTick } from "../model/saga-registration.js";
import { AggregateRegistry } from "../processing/registry.js";
import { sagaSubscriptions } from "../sagas/saga-subscriptions.js";
import { StoreDamagedError } from "../store/errors.js";
import { SqliteStore } from "../store/sqlite/sqlite-store.js";
import type { Store } from "../store/store.js";
import type { ParkedEvent } from "../store/subscription-store.js";
import type { TimerRow } from "../store/timer-store.js";
import { SubscriptionService, type SubscriptionOptions } from "../subscriptions/subscription-service.js";
import type { Delivery } from "../timers/timer-service.js";
import type { TimerOptions } from "../timers/timer-options.js";
import { checkServices } from "./check-services.js";
import { checkTargets } from "./check-targets.js";
import { configuredTimerOptions } from "./config-options.js";
import { Host } from "./core-host.js";

export type Registration = AggregateRegistration | SagaRegistration;

export interface HostStatus {
  readonly state: "running" | "stopped" | "halted";
  /** Why it halted. */
  readonly reason?: string;
  readonly store: string;
  readonly loops: readonly LoopState[];
}

export interface CreateHostOptions {
  readonly registrations: readonly Registration[];
  /** A store, or the SQLite file's path; default: SQLite at `wow.store.path` of the config, else `wow.db`. */
  readonly store?: Store | string;
  readonly config?: WowConfig;
  readonly clock?: Clock;
  /** By qualified name (`"eshop-order.PaymentPolicy"`). */
  readonly services?: Services;
  readonly ownership?: PartitionOwnership;
  /** Timer options beyond `wow.timers` (which this overrides). */
  readonly timers?: TimerOptions;
  readonly subscriptions?: SubscriptionOptions;
  readonly http?: HttpOptions;
  readonly cronNext?: CronNext;
  readonly onDelivery?: (delivery: Delivery) => void;
  readonly onParked?: (entry: ParkedEvent) => void;
  /** Each tick a job handled and the commands it derived. */
  readonly onDerived?: (job: SagaJobRegistration, tick: ScheduleTick, commands: readonly CommandMessage[]) => void;
  readonly onError?: (error: unknown) => void;
}

/**
 * The key of a job's overrides under `wow.schedules`: the generated registration's `configKey` (the
 * job's name, qualified with its context when two contexts declare that name), else the name.
 */
function configKey(job: SagaJobRegistration): string {
  return job.configKey ?? job.name;
}

export function createHost(options: CreateHostOptions): WowHost {
  return new WowHost(options);
}

function isSaga(r: Registration): r is SagaRegistration {
  return "saga" in r && "jobs" in r;
}

export class WowHost implements HttpHost {
  readonly clock: Clock;
  readonly store: Store;
  readonly core: Host;
  readonly jobs: JobManager;
  readonly subscriptions: SubscriptionService;
  readonly aggregates: readonly AggregateRegistration[];
  readonly sagas: readonly SagaRegistration[];
  readonly config: WowConfig | undefined;
  private readonly ownsStore: boolean;
  private servers: Server[] = [];
  private listener: RequestListener | undefined;
  private started: Promise<void> | undefined;
  private halted: StoreDamagedError | undefined;

  constructor(private readonly options: CreateHostOptions) {
    // Before anything is opened: a host without a service its handlers list, or without an aggregate
    // its sagas and jobs send to, does not start.
    const aggregates = options.registrations.filter((r): r is AggregateRegistration => !isSaga(r));
    checkServices(aggregates, options.registrations.filter(isSaga), options.services ?? {});
    checkTargets(options.registrations.filter(isSaga), new AggregateRegistry(aggregates));
    const configuredTimers = configuredTimerOptions(options.config);
    this.clock = options.clock ?? systemClock;
    this.config = options.config;
    const store = options.store ?? options.config?.wow.store?.path ?? "wow.db";
    this.ownsStore = typeof store === "string";
    const storeConfig = options.config?.wow.store;
    this.store =
      typeof store === "string"
        ? new SqliteStore(store, {
            ...(storeConfig?.synchronous === undefined ? {} : { synchronous: storeConfig.synchronous }),
            ...(storeConfig?.["integrity-check"] === undefined ? {} : { integrityCheck: storeConfig["integrity-check"] }),
          })
        : store;
    this.sagas = options.registrations.filter(isSaga);
    const ownership = options.ownership ?? singleHostOwnership();
    const schedules = (options.config?.wow.schedules ?? {}) as WowConfig["wow"]["schedules"];
    const cronNext = options.cronNext ?? defaultCronNext;
    this.jobs = new JobManager({
      sagas: this.sagas,
      hostRule: (job) => hostRule(job, schedules[configKey(job)]),
      enabled: (job) => schedules[configKey(job)]?.enabled !== false,
      ownership,
      events: this.store.events,
      timers: this.store.timers,
      store: this.store.subscriptions,
      cronNext,
    });
    this.aggregates = [...options.registrations.filter((r): r is AggregateRegistration => !isSaga(r)), ...this.jobs.aggregates];
    const timersConfig = options.config?.wow.timers;
    this.core = new Host({
      store: this.store,
      aggregates: this.aggregates,
      clock: this.clock,
      cronNext,
      ...(options.services ? { services: options.services } : {}),
      timers: { ...configuredTimers, ...options.timers },
      // A delivered command committed: subscriptions look for its events now.
      onDelivery: (delivery) => {
        if ((delivery.result?.events.length ?? 0) > 0) this.subscriptions.wake();
        options.onDelivery?.(delivery);
      },
      onError: (error) => this.failed(error),
    });
    const runtime = { send: this.send, events: this.store.events, clock: this.clock, services: options.services ?? {} };
    this.subscriptions = new SubscriptionService({
      events: this.store.events,
      store: this.store.subscriptions,
      clock: this.clock,
      ...(timersConfig ? { pollInterval: timersConfig["poll-interval"] } : {}),
      ...options.subscriptions,
      subscriptions: [
        jobIndexSubscription((event: EventMessage) => this.store.subscriptions.rememberInstance(event.aggregate)),
        ...this.sagas.flatMap((saga) => sagaSubscriptions(saga, runtime)),
        ...this.sagas.flatMap((saga) => jobSubscriptions(saga, { ...runtime, ownership, ...(options.onDerived ? { onDerived: options.onDerived } : {}) })),
      ],
      ...(options.onParked ? { onParked: options.onParked } : {}),
      onError: (error) => this.failed(error),
    });
    // Credentials that could never authenticate, or clash, are refused now, not at the first request.
    if (options.http !== undefined || options.config?.wow.http !== undefined) this.listener = createRequestListener(this, this.httpOptions());
  }

  /** Decides a command; its commit wakes this node's timers and subscriptions. */
  readonly send = async (command: CommandMessage): Promise<CommandResult> => {
    const result = await this.core.send(command);
    if (result.events.length > 0) this.subscriptions.wake();
    return result;
  };

  /** Starts timers and subscriptions, then enables the SYSTEM jobs (per config). */
  start(): Promise<void> {
    this.started ??= (async () => {
      this.core.start();
      this.subscriptions.start();
      await this.jobs.startSystemJobs(this.send);
    })();
    return this.started;
  }

  /** Graceful: no new HTTP requests, in-flight work finishes, nothing is lost (timers and checkpoints are durable). */
  async stop(): Promise<void> {
    await Promise.all(this.servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
    this.servers = [];
    await this.started?.catch(() => undefined);
    this.started = undefined;
    await this.stopLoops();
  }

  /** What the host is doing: running, stopped, or halted by a damaged store (with why), and each loop's state. */
  status(): HostStatus {
    const state = this.halted !== undefined ? "halted" : this.started !== undefined ? "running" : "stopped";
    return {
      state,
      ...(this.halted === undefined ? {} : { reason: this.halted.message }),
      store: this.store.kind,
      loops: [this.core.timers.describe(), ...this.subscriptions.describe()],
    };
  }

  /** Copies the store, while the host runs, into `destination` (a file of its own): what a restore starts from. */
  async backup(destination: string): Promise<void> {
    if (this.store.backup === undefined) throw new Error(`the ${this.store.kind} store has no online backup: back it up with its own tools`);
    await this.store.backup(destination);
  }

  private async stopLoops(): Promise<void> {
    await this.subscriptions.stop();
    await this.core.stop();
  }

  /** A loop's poll failed as a whole. A damaged store halts the host: it decides and delivers nothing more. */
  private failed(error: unknown): void {
    if (error instanceof StoreDamagedError) {
      if (this.halted === error) return; // the other loops meeting the same damage: reported once
      this.halted ??= error;
      void this.stopLoops().catch((e: unknown) => this.failed(e));
    }
    (this.options.onError ?? ((e: unknown) => console.error("wow: a poll failed", e)))(error);
  }

  /** Stops and closes the store if the host opened it. */
  async close(): Promise<void> {
    await this.stop();
    if (this.ownsStore) await this.store.close();
  }

  /** The HTTP API as a Node `(req, res)` listener (mounts in Express, Fastify or Koa too). */
  get requestListener(): RequestListener {
    this.listener ??= createRequestListener(this, this.httpOptions());
    return this.listener;
  }

  private httpOptions(): HttpOptions {
    return { ...(this.options.config?.wow.http ? { config: this.options.config.wow.http } : {}), ...this.options.http };
  }

  /** Serves the HTTP API on `port` (0: any free port); resolves with the server once listening. */
  async listen(port: number, hostname = "127.0.0.1"): Promise<Server> {
    const server = await listen(this.requestListener, port, hostname);
    this.servers.push(server);
    return server;
  }

  /** Parked timers and parked subscription events (of one tenant's aggregates, when given). */
  async parked(limit = 100, tenantId?: string): Promise<{ timers: TimerRow[]; events: ParkedEvent[] }> {
    const query = tenantId === undefined ? { status: "parked" as const, limit } : { status: "parked" as const, limit, tenantId };
    return { timers: await this.store.timers.list(query), events: await this.subscriptions.parked(limit, tenantId) };
  }

  /** Pending timers, earliest due first (of one tenant's aggregates, when given). */
  pendingTimers(limit = 100, tenantId?: string): Promise<TimerRow[]> {
    return this.store.timers.list(tenantId === undefined ? { status: "pending", limit } : { status: "pending", limit, tenantId });
  }

  timer(id: string): Promise<TimerRow | undefined> {
    return this.store.timers.timer(id);
  }

  parkedEvent(id: string): Promise<ParkedEvent | undefined> {
    return this.store.subscriptions.parkedEvent(id);
  }

  /** An operator's re-drive of a parked timer: pending again, due now, with fresh attempts. False if it is not parked. */
  redriveTimer(id: string): Promise<boolean> {
    return this.core.timers.redrive(id);
  }

  /** An operator's re-drive of a parked event: handled once more by its subscription; on success it leaves the parked list. */
  redriveEvent(id: string): Promise<RedriveOutcome> {
    return this.subscriptions.redrive(id);
  }

  /** Whether this host's subscriptions (every one, or the sagas' event handlers) have passed `position` within `timeoutMs`. */
  waitForHandlers(position: number, sagasOnly: boolean, timeoutMs: number): Promise<boolean> {
    const sagaHandlers = new Set(this.sagas.flatMap((saga) => Object.values(saga.events).map((handler) => handler.subscription)));
    return this.subscriptions.waitUntilPast(position, sagasOnly ? (name) => sagaHandlers.has(name) : () => true, timeoutMs);
  }
}
