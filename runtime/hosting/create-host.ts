// createHost: the runnable host from generated `define…` registrations (aggregates and sagas):
// the core Host (command processor + timers), saga and job subscriptions, the jobs' built-in
// `<context>.schedule` aggregates, config (timers, schedule overrides), and the HTTP API.
import type { Server } from "node:http";
import { systemClock, type Clock } from "../clock.js";
import type { WowConfig } from "../config/types.js";
import { cronNext as defaultCronNext, type CronNext } from "../cron/cron-next.js";
import type { HttpHost, Readiness, RedriveOutcome } from "../http/host-api.js";
import { listen } from "../http/listen.js";
import { createRequestListener, type HttpOptions, type RequestListener } from "../http/request-listener.js";
import { JobManager } from "../jobs/job-manager.js";
import type { LoopState } from "../loop/poll-loop.js";
import { hostRule } from "../jobs/job-rules.js";
import { runPartition } from "../jobs/run-partition.js";
import { jobIndexSubscription, jobSubscriptions } from "../jobs/job-subscriptions.js";
import { singleHostOwnership, type PartitionOwnership } from "../jobs/partition-ownership.js";
import type { CommandResult } from "../model/command-result.js";
import type { CommandMessage, EventMessage } from "../model/messages.js";
import type { AggregateRegistration, Services } from "../model/registration.js";
import type { SagaJobRegistration, SagaRegistration, ScheduleTick } from "../model/saga-registration.js";
import { AggregateRegistry } from "../processing/registry.js";
import { sagaSubscriptions } from "../sagas/saga-subscriptions.js";
import { StoreDamagedError } from "../store/errors.js";
import { FencedWriteError } from "../store/cluster-store.js";
import type { Store } from "../store/store.js";
import type { ParkedEvent } from "../store/subscription-store.js";
import type { TimerQuery, TimerRow } from "../store/timer-store.js";
import type { StoredStream } from "../store/event-store.js";
import type { AggregateRef } from "../model/aggregate-ref.js";
import { SubscriptionService, type Subscription, type SubscriptionOptions } from "../subscriptions/subscription-service.js";
import type { Delivery } from "../timers/timer-service.js";
import type { TimerOptions } from "../timers/timer-options.js";
import { checkServices } from "./check-services.js";
import { checkTargets } from "./check-targets.js";
import { configuredTimerOptions } from "./config-options.js";
import { Host } from "./core-host.js";
import { hostOps, type HostOps } from "./host-ops.js";
import { openStore } from "./open-store.js";
import { readiness } from "./readiness.js";
import type { ParkedAlert } from "../ops/alerts.js";
import { errorField, type Logger } from "../ops/log.js";
import type { HostMetrics } from "../ops/metrics.js";
import type { JobRun } from "../store/run-store.js";
import { jobPolicy } from "../jobs/job-policy.js";
import { describeDelivery, parkedEventAlert } from "./delivery-report.js";
import { HostCluster } from "./host-cluster.js";
import { SingleHostLock } from "./single-host-lock.js";
import { SqliteStore } from "../store/sqlite/sqlite-store.js";
import { OffsetClock } from "../cluster/clock-offset.js";
import { byPartition, unpartitioned } from "../jobs/partitioned-subscriptions.js";
import type { ClusterConfig } from "../config/types.js";
import type { HostsView } from "../http/host-api.js";
import { SystemEvents, type ScheduleSetBody } from "../model/system-events.js";

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
  /**
   * A store, a PostgreSQL URL (`postgres://…`) or a SQLite file's path; default: `wow.store.url` of the
   * config, else SQLite at `wow.store.path`, else `wow.db`.
   */
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
  /** A timer or a subscription event parked after its last attempt. */
  readonly onParked?: (parked: ParkedAlert) => void;
  /** A job's run failed (retrying, failed, or parked). */
  readonly onJobFailed?: (run: JobRun) => void;
  /** Each tick a job handled and the commands it derived. */
  readonly onDerived?: (job: SagaJobRegistration, tick: ScheduleTick, commands: readonly CommandMessage[]) => void;
  readonly onError?: (error: unknown) => void;
  /** This host's id in the run log, logs and cluster (default: `<hostname>-<pid>-<random>`). */
  readonly hostId?: string;
  /** The structured log's logger (pino's, or one with its methods); default: pino to standard output at `wow.log.level`. */
  readonly logger?: Logger;
  /**
   * Cluster settings over `wow.cluster`, on a store hosts share (PostgreSQL); false: this host runs
   * alone on it. A host on a virtual clock (one that tracks work: tests) runs alone too: it cannot run
   * on the store's clock.
   */
  readonly cluster?: Partial<ClusterConfig> | false;
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
  /** Its id, log, metrics, alerts and run log. */
  readonly ops: HostOps;
  private readonly ownsStore: boolean;
  private servers: Server[] = [];
  private listener: RequestListener | undefined;
  private started: Promise<void> | undefined;
  private halted: StoreDamagedError | undefined;
  private startedAt: number | undefined;
  /** On a SQLite file: the lock that refuses a second host (none when the application coordinates with an ownership of its own, or on a virtual clock). */
  private readonly singleHost: SingleHostLock | undefined;
  /** Its membership of the cluster, on a store hosts share. */
  readonly cluster: HostCluster | undefined;

  constructor(private readonly options: CreateHostOptions) {
    // Before anything is opened: a host without a service its handlers list, or without an aggregate
    // its sagas and jobs send to, does not start.
    const aggregates = options.registrations.filter((r): r is AggregateRegistration => !isSaga(r));
    checkServices(aggregates, options.registrations.filter(isSaga), options.services ?? {});
    checkTargets(options.registrations.filter(isSaga), new AggregateRegistry(aggregates));
    const configuredTimers = configuredTimerOptions(options.config);
    this.config = options.config;
    const opened = openStore(options.store, options.config?.wow.store);
    this.ownsStore = opened.owned;
    this.store = opened.store;
    this.sagas = options.registrations.filter(isSaga);
    // On a store hosts share, the host runs on the store's clock (its own corrected by the offset it measures).
    const ownClock = options.clock ?? systemClock;
    const clusterStore = options.cluster === false || ownClock.track !== undefined ? undefined : this.store.cluster;
    const storeClock = clusterStore === undefined ? undefined : new OffsetClock(ownClock);
    this.clock = storeClock ?? ownClock;
    this.ops = hostOps(options, options.config, this.clock, this.store.runs, {
      dueBacklog: async (now) => (await this.store.timers.counts(now)).due,
      parked: async () => ({ timers: (await this.store.timers.counts(this.clock.now())).parked, events: await this.store.subscriptions.countParked() }),
      subscriptionLag: async () => this.subscriptions.lag(await this.store.events.lastPosition()),
    });
    const ops = this.ops;
    this.cluster = clusterStore === undefined || storeClock === undefined ? undefined : new HostCluster({ store: clusterStore, config: options.config?.wow.cluster, ...(options.cluster === undefined || options.cluster === false ? {} : { over: options.cluster }), clock: storeClock, id: ops.host, log: ops.log });
    const cluster = this.cluster;
    if (cluster && ops.metrics) cluster.register(ops.metrics.registry);
    const file = this.store instanceof SqliteStore ? this.store.path : undefined;
    this.singleHost = file === undefined || file === ":memory:" || options.ownership !== undefined || ownClock.track !== undefined ? undefined : new SingleHostLock(file, ops.host);
    const ownership = options.ownership ?? cluster?.member ?? singleHostOwnership();
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
      ...(ops.runs ? { runs: ops.runs } : {}),
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
      // Claims of a cluster's host last as long as its membership: a dead host's claimed timers are taken over with its partitions.
      timers: { ...(cluster ? { lease: cluster.settings.lease } : {}), ...configuredTimers, ...options.timers, owner: ops.host },
      ...(ops.runs ? { attempts: ops.runs } : {}),
      // A delivered command committed: subscriptions look for its events now.
      onDelivery: (delivery) => {
        if ((delivery.result?.events.length ?? 0) > 0) this.committed(delivery.result!);
        describeDelivery(delivery, ops);
        options.onDelivery?.(delivery);
      },
      // Fenced: a claim that lapsed (this host paused, or cut off from the store) wrote nothing of these slots.
      onLost: (lost) => {
        ops.sink.fenced("timer", lost.length);
        ops.log.warn({ event: "timer.claim-lost", timers: lost.map((l) => `${l.timer}#${l.slot}`) }, `${lost.length} timer slot${lost.length === 1 ? "" : "s"} refused: the claim lapsed and another host claimed ${lost.length === 1 ? "it" : "them"}; nothing written`);
      },
      onError: (error) => this.failed(error, "timers"),
    });
    const blocking = options.config?.wow.subscriptions?.["blocking-concurrency"];
    const runtime = { send: this.send, events: this.store.events, clock: this.clock, services: options.services ?? {}, ...(blocking === undefined ? {} : { blockingConcurrency: blocking }) };
    const retryDefaults = { maxAttempts: this.core.timers.options.maxAttempts, backoff: this.core.timers.options.backoff };
    // A job's run is recorded under the lease of the partition that ran it.
    const jobRuns = ops.runs === undefined || cluster === undefined ? ops.runs : cluster.fencedRuns(ops.runs, (run) => runPartition(run, ownership.partitions));
    const jobOps = { ...(jobRuns ? { runs: jobRuns } : {}), metrics: ops.sink, log: ops.log, alerts: ops.alerts, host: ops.host };
    const partitioned = (subscription: Subscription) => byPartition(subscription, ownership);
    this.subscriptions = new SubscriptionService({
      events: this.store.events,
      store: cluster ? cluster.fenced(this.store.subscriptions) : this.store.subscriptions,
      clock: this.clock,
      ...(timersConfig ? { pollInterval: timersConfig["poll-interval"] } : {}),
      ...options.subscriptions,
      subscriptions: [
        jobIndexSubscription((event: EventMessage) => this.store.subscriptions.rememberInstance(event.aggregate)),
        ...this.sagas.flatMap((saga) => sagaSubscriptions(saga, runtime)).flatMap(partitioned),
        ...this.sagas.flatMap((saga) =>
          jobSubscriptions(saga, {
            ...runtime,
            ownership,
            ops: jobOps,
            policy: (job) => jobPolicy(job, schedules[configKey(job)], retryDefaults, configKey(job)),
            ...(options.onDerived ? { onDerived: options.onDerived } : {}),
          }).flatMap(partitioned),
        ),
      ],
      onParked: (entry) => {
        ops.log.warn({ event: "event.parked", subscription: entry.subscription, position: entry.position, eventId: entry.event.eventId, eventType: entry.event.type, commandId: entry.event.commandId, requestId: entry.event.requestId, attempts: entry.attempts, error: entry.error }, `event parked by ${entry.subscription}`);
        ops.alerts.parked(parkedEventAlert(entry));
      },
      onError: (error) => this.failed(error, "subscriptions"),
    });
    // Credentials that could never authenticate, or clash, are refused now, not at the first request.
    if (options.http !== undefined || options.config?.wow.http !== undefined) this.listener = createRequestListener(this, this.httpOptions());
  }

  /** Decides a command; its commit wakes this node's timers and subscriptions. */
  readonly send = async (command: CommandMessage): Promise<CommandResult> => {
    const started = performance.now();
    const result = await this.core.send(command);
    this.ops.sink.decided(command.aggregate.context, command.aggregate.aggregate, (performance.now() - started) / 1000);
    if (result.events.length > 0) this.committed(result);
    return result;
  };

  /** A commit of this host appended events: its subscriptions look now, and so do the other hosts' (and their pollers, for a timer due before they would look). */
  private committed(result: CommandResult): void {
    this.subscriptions.wake(result.events);
    const cluster = this.cluster;
    if (cluster === undefined) return;
    cluster.announce("events");
    const soon = this.clock.now() + this.core.timers.options.pollInterval;
    if (result.events.some((e) => e.type === SystemEvents.ScheduleSet && (e.body as ScheduleSetBody).due < soon)) cluster.announce("timers");
  }

  /** The metrics (undefined when `wow.metrics.enabled` is false): `registry` is prom-client's, for a host that serves its own. */
  get metrics(): HostMetrics | undefined {
    return this.ops.metrics;
  }

  /** Starts timers and subscriptions, then enables the SYSTEM jobs (per config). */
  start(): Promise<void> {
    this.started ??= (async () => {
      // A SQLite file another host runs on is refused (SQLite serves one host).
      this.singleHost?.acquire();
      // A server's store connects and migrates first: a host that cannot reach it does not start.
      await this.store.open?.();
      // Then it joins: the clock's offset is measured and the share taken before anything is delivered.
      await this.cluster?.start(
        (topic) => (topic === "timers" ? this.core.timers.wake() : topic === "events" ? this.subscriptions.wake() : undefined),
        () => this.subscriptions.wake(),
      );
      this.startedAt = this.clock.now();
      this.core.start();
      this.subscriptions.start();
      this.ops.retention?.start();
      await this.jobs.startSystemJobs(this.send);
      this.ops.log.info({ event: "host.started", store: this.store.kind }, "host started");
    })();
    // A start that failed (its store unreachable) may be tried again.
    const started = this.started;
    started.catch(() => {
      if (this.started === started) this.started = undefined;
    });
    return started;
  }

  /** Graceful: no new HTTP requests, in-flight work finishes, nothing is lost (timers and checkpoints are durable). */
  async stop(): Promise<void> {
    await Promise.all(this.servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
    this.servers = [];
    await this.started?.catch(() => undefined);
    this.started = undefined;
    await this.stopLoops();
    // After the loops: their last checkpoints are written under the leases, then everything is handed over.
    await this.cluster?.leave().catch((error: unknown) => this.failed(error, "cluster"));
    this.singleHost?.release();
    await this.ops.alerts.stop();
  }

  /** What the host is doing: running, stopped, or halted by a damaged store (with why), and each loop's state. */
  status(): HostStatus {
    const state = this.halted !== undefined ? "halted" : this.started !== undefined ? "running" : "stopped";
    return {
      state,
      ...(this.halted === undefined ? {} : { reason: this.halted.message }),
      store: this.store.kind,
      loops: [this.core.timers.describe(), ...this.subscriptions.describe(), ...(this.cluster ? [this.cluster.member.describe()] : [])],
    };
  }

  /** Copies the store, while the host runs, into `destination` (a file of its own): what a restore starts from. */
  async backup(destination: string): Promise<void> {
    if (this.store.backup === undefined) throw new Error(`the ${this.store.kind} store has no online backup: back it up with its own tools`);
    await this.store.backup(destination);
  }

  /** Whether the host can do its work: serving, its store writable, its loops running, not halted (what `GET /wow/ready` answers). */
  readiness(): Promise<Readiness> {
    return readiness(this);
  }

  private async stopLoops(): Promise<void> {
    await this.subscriptions.stop();
    await this.core.stop();
    await this.ops.retention?.stop();
  }

  /** A loop's poll failed as a whole. A damaged store halts the host: it decides and delivers nothing more. */
  private failed(error: unknown, loop: string): void {
    // Not the store's failure: this host wrote under a partition lease it had lost, and nothing was written.
    if (error instanceof FencedWriteError) {
      this.ops.sink.fenced(error.write, 1);
      this.ops.log.warn({ event: "cluster.fenced", loop, write: error.write, partition: error.fence.partition, epoch: error.fence.epoch }, error.message);
      this.options.onError?.(error);
      return;
    }
    if (error instanceof StoreDamagedError) {
      if (this.halted === error) return; // the other loops meeting the same damage: reported once
      this.halted ??= error;
      void this.stopLoops().catch((e: unknown) => this.failed(e, loop));
    }
    this.ops.sink.storeError(loop);
    this.ops.log.error({ event: "store.error", loop, err: errorField(error) }, `a ${loop} poll failed`);
    this.options.onError?.(error);
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

  get storeKind(): string {
    return this.store.kind;
  }

  timers(query: TimerQuery): Promise<TimerRow[]> {
    return this.store.timers.list(query);
  }

  parkedEvents(limit: number, tenantId?: string, after?: readonly [number, string]): Promise<ParkedEvent[]> {
    return this.subscriptions.parked(limit, tenantId, after);
  }

  async backlog(until: number, tenantId?: string): Promise<{ readonly due: number; readonly parkedTimers: number; readonly parkedEvents: number }> {
    const timers = await this.store.timers.counts(until, tenantId);
    return { due: timers.due, parkedTimers: timers.parked, parkedEvents: await this.store.subscriptions.countParked(tenantId) };
  }

  stream(ref: AggregateRef): Promise<StoredStream> {
    return this.store.events.load(ref);
  }

  timersOf(ref: AggregateRef): Promise<TimerRow[]> {
    return this.store.timers.timersOf(ref);
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

  /**
   * Whether the subscriptions (every one, or the sagas' event handlers; given `events`, those that
   * take one of them) have passed `position` within `timeoutMs`, on this host or, for a partition
   * another host owns, on that one.
   */
  waitForHandlers(position: number, sagasOnly: boolean, timeoutMs: number, events?: readonly EventMessage[]): Promise<boolean> {
    const sagaHandlers = new Set(this.sagas.flatMap((saga) => Object.values(saga.events).map((handler) => handler.subscription)));
    return this.subscriptions.waitUntilPast(position, sagasOnly ? (name) => sagaHandlers.has(unpartitioned(name)) : () => true, timeoutMs, events);
  }

  /** The hosts sharing the store (this one alone on a store that serves one). */
  async hosts(): Promise<HostsView> {
    if (this.cluster) return this.cluster.hosts();
    const now = this.clock.now();
    const startedAt = this.startedAt ?? now;
    return { clustered: false, partitions: 1, hosts: [{ id: this.ops.host, self: true, startedAt, lastHeartbeat: now, leaseUntil: now, clockOffsetMs: 0, partitions: [0] }], unowned: [] };
  }
}
