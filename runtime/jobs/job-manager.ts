// The host's side of jobs: enable the SYSTEM instances at start (config `enabled: false` keeps one
// disabled), and describe instances for operators (rule, zone, next fire times, last runs).
import { aggregateRef, DEFAULT_TENANT, refKey, type AggregateRef } from "../model/aggregate-ref.js";
import type { CommandResult } from "../model/command-result.js";
import { commandMessage } from "../model/messages.js";
import type { SagaJobRegistration, SagaRegistration } from "../model/saga-registration.js";
import type { CronNext } from "../cron/cron-next.js";
import type { CommandSender } from "../processing/command-processor.js";
import { stateOf } from "../processing/decide.js";
import type { EventStore } from "../store/event-store.js";
import type { SubscriptionStore } from "../store/subscription-store.js";
import type { TimerRow, TimerStore } from "../store/timer-store.js";
import { instanceId, JobCommands, parseInstanceId, SCHEDULE_AGGREGATE, TICK_KEY, type JobRule } from "./job-messages.js";
import { partitionSubscription } from "./job-subscriptions.js";
import type { PartitionOwnership } from "./partition-ownership.js";
import { scheduleAggregate, type JobInstanceState } from "./schedule-aggregate.js";
import { instanceKeyOf, type JobRun, type Page, type RunStore } from "../store/run-store.js";
import { jobCursor, namesMatch, readJobCursor, sortKey, type JobQuery, type JobState } from "./job-listing.js";
import type { AggregateRegistration } from "../model/registration.js";

/** A job instance as an operator sees it. */
export interface JobInstanceView {
  readonly context: string;
  readonly id: string;
  readonly job: string;
  readonly tenantId: string;
  readonly scope: "SYSTEM" | "TENANT";
  readonly subscription: string;
  readonly enabled: boolean;
  readonly rule: JobRule;
  readonly own: boolean;
  readonly partition?: number;
  /** The next due times (epoch ms), the pending slot first. */
  readonly nextFireTimes: readonly number[];
  /** An operator's pause: its note and when. */
  readonly paused?: { readonly note: string; readonly at: number };
  /** The latest run in the run log. */
  readonly lastRun?: JobRun;
  readonly timer?: { readonly id: string; readonly slot: number; readonly due: number; readonly status: string; readonly attempts: number; readonly lastError?: string };
}

export interface JobManagerOptions {
  readonly sagas: readonly SagaRegistration[];
  readonly hostRule: (job: SagaJobRegistration) => JobRule;
  /** `wow.schedules.<name>.enabled` (default true). */
  readonly enabled: (job: SagaJobRegistration) => boolean;
  readonly ownership: PartitionOwnership;
  readonly events: EventStore;
  readonly timers: TimerStore;
  readonly store: SubscriptionStore;
  /** The run log (absent when it is off). */
  readonly runs?: RunStore;
  readonly cronNext: CronNext;
}

export class JobManager {
  /** One `<context>.schedule` registration per context that declares jobs. */
  readonly aggregates: readonly AggregateRegistration<JobInstanceState>[];
  private readonly jobs = new Map<string, { context: string; job: SagaJobRegistration }>();
  private readonly byContext = new Map<string, AggregateRegistration<JobInstanceState>>();

  constructor(private readonly options: JobManagerOptions) {
    const perContext = new Map<string, SagaJobRegistration[]>();
    for (const saga of options.sagas) {
      for (const job of saga.jobs) {
        const key = `${saga.context}.${job.name}`;
        if (this.jobs.has(key)) throw new Error(`job ${job.name} is declared twice in ${saga.context}`);
        this.jobs.set(key, { context: saga.context, job });
        perContext.set(saga.context, [...(perContext.get(saga.context) ?? []), job]);
      }
    }
    this.aggregates = [...perContext].map(([context, jobs]) => scheduleAggregate({ context, jobs, hostRule: options.hostRule, partitions: options.ownership.partitions, cronNext: options.cronNext }));
    for (const a of this.aggregates) this.byContext.set(a.context, a);
  }

  /** How many journal partitions there are: a sharded job has one instance per partition, `<job>#<p>`. */
  get partitions(): number {
    return this.options.ownership.partitions;
  }

  /** The job of an instance (`<job>` or a sharded job's `<job>#<partition>`). */
  private entryOf(ref: AggregateRef): { context: string; job: SagaJobRegistration } | undefined {
    return this.jobs.get(`${ref.context}.${parseInstanceId(ref.id).job}`);
  }

  /** The journal partitions this host owns now (their sharded instances run here). */
  ownedPartitions(): readonly number[] {
    return this.options.ownership.owned();
  }

  job(context: string, name: string): SagaJobRegistration | undefined {
    return this.jobs.get(`${context}.${name}`)?.job;
  }

  contextsOf(name: string): string[] {
    return [...this.jobs.values()].filter((entry) => entry.job.name === name).map((entry) => entry.context);
  }

  /** The SYSTEM instances this host runs: one per job, or one per owned partition of a sharded job. */
  systemInstances(): AggregateRef[] {
    const refs: AggregateRef[] = [];
    for (const { context, job } of this.jobs.values()) {
      if (job.scope !== "SYSTEM") continue;
      const ids = job.sharded ? this.options.ownership.owned().map((p) => instanceId(job.name, p)) : [job.name];
      for (const id of ids) refs.push(aggregateRef(context, SCHEDULE_AGGREGATE, id, DEFAULT_TENANT));
    }
    return refs;
  }

  /**
   * At start: enable each SYSTEM instance (kept as is when already enabled with the same rule), or
   * disable it per config; bring each enabled TENANT instance that has no rule of its own to the host's
   * rule; disable the instances an earlier shape of a job left (see isOrphan).
   */
  async startSystemJobs(send: CommandSender): Promise<CommandResult[]> {
    const results: CommandResult[] = [];
    for (const ref of this.systemInstances()) {
      const { job } = this.entryOf(ref)!;
      await this.options.store.rememberInstance(ref);
      if (this.options.enabled(job)) {
        results.push(await send(commandMessage(JobCommands.Enable, { host: true }, ref)));
      } else if ((await this.state(ref)).enabled) {
        results.push(await send(commandMessage(JobCommands.Disable, { host: true }, ref)));
      }
    }
    for (const ref of await this.options.store.instances()) {
      const entry = this.entryOf(ref);
      if (entry === undefined) continue;
      if (this.isOrphan(ref, entry.job)) {
        // Its timer would tick for a subscription that no longer exists, every slot, for ever.
        if ((await this.state(ref)).enabled) results.push(await send(commandMessage(JobCommands.Disable, { host: true }, ref)));
      } else if (entry.job.scope === "TENANT") {
        // A TENANT instance enabled without a rule of its own follows the host's, which the config may
        // have changed since: it is re-enabled with it (nothing happens when the rule is the same).
        const state = await this.state(ref);
        if (state.enabled && !state.own) results.push(await send(commandMessage(JobCommands.Enable, { host: true }, ref)));
      }
    }
    return results;
  }

  /**
   * An instance left over from an earlier shape of its job: a partition beyond the journal's
   * partition count (which was lowered), or a job that became sharded or stopped being sharded.
   */
  private isOrphan(ref: AggregateRef, job: SagaJobRegistration): boolean {
    const { partition } = parseInstanceId(ref.id);
    return job.sharded !== (partition !== undefined) || (partition !== undefined && partition >= this.partitions);
  }

  async state(ref: AggregateRef): Promise<JobInstanceState> {
    const registration = this.byContext.get(ref.context);
    if (!registration) throw new Error(`no jobs in ${ref.context}`);
    return stateOf(registration, await this.options.events.loadLatest(ref));
  }

  /** Every known instance (SYSTEM ones, and TENANT ones once enabled), optionally of one tenant. */
  async list(tenantId?: string, fireTimes = 3): Promise<JobInstanceView[]> {
    const refs = new Map<string, AggregateRef>();
    for (const ref of [...this.systemInstances(), ...(await this.options.store.instances())]) refs.set(refKey(ref), ref);
    const wanted = [...refs.values()].filter((ref) => tenantId === undefined || ref.tenantId === tenantId);
    const lastRuns = await this.lastRuns(wanted);
    const views: JobInstanceView[] = [];
    for (const ref of wanted) {
      const view = await this.view(ref, fireTimes, lastRuns);
      if (view) views.push(view);
    }
    return views.sort((a, b) => (a.context + a.id + a.tenantId < b.context + b.id + b.tenantId ? -1 : 1));
  }

  /** Every known instance's ref, once each. */
  private async instances(): Promise<AggregateRef[]> {
    const refs = new Map<string, AggregateRef>();
    for (const ref of [...this.systemInstances(), ...(await this.options.store.instances())]) if (this.entryOf(ref)) refs.set(refKey(ref), ref);
    return [...refs.values()];
  }

  /**
   * A page of instances: the names filtered and sorted first (no read), then each one's state read in
   * order until the page is full, so that a page costs its own instances (and, with a state filter,
   * those it skipped), never the whole list.
   */
  async page(query: JobQuery): Promise<Page<JobInstanceView>> {
    const after = query.cursor === undefined ? undefined : readJobCursor(query.cursor);
    const sign = query.descending === true ? -1 : 1;
    const keyed = (await this.instances())
      .filter((ref) => namesMatch(ref, query))
      .map((ref) => ({ ref, key: sortKey(ref, query.sort) }))
      .filter(({ key }) => after === undefined || (sign === 1 ? key > after : key < after))
      .sort((a, b) => (a.key < b.key ? -sign : a.key > b.key ? sign : 0));
    const picked: { ref: AggregateRef; key: string }[] = [];
    let i = 0;
    for (; i < keyed.length && picked.length < query.limit; i++) {
      if (query.state === undefined || stateMatches(await this.state(keyed[i]!.ref), query.state)) picked.push(keyed[i]!);
    }
    const refs = picked.map((p) => p.ref);
    const lastRuns = await this.lastRuns(refs);
    const items: JobInstanceView[] = [];
    for (const ref of refs) {
      const view = await this.view(ref, query.fireTimes ?? 3, lastRuns);
      if (view) items.push(view);
    }
    const more = i < keyed.length && picked.length === query.limit;
    return more ? { items, next: jobCursor(picked[picked.length - 1]!.key) } : { items };
  }

  /** How many instances are enabled, paused by an operator, and disabled otherwise (of one tenant, when given). */
  async counts(tenantId?: string): Promise<{ readonly enabled: number; readonly paused: number; readonly disabled: number }> {
    const counts = { enabled: 0, paused: 0, disabled: 0 };
    for (const ref of await this.instances()) {
      if (tenantId !== undefined && ref.tenantId !== tenantId) continue;
      const state = await this.state(ref);
      counts[state.enabled ? "enabled" : state.paused !== undefined ? "paused" : "disabled"]++;
    }
    return counts;
  }

  /** The latest run of each instance, by run-log key. */
  private async lastRuns(refs: readonly AggregateRef[]): Promise<Map<string, JobRun>> {
    return (await this.options.runs?.lastRuns(refs.map((ref) => ({ context: ref.context, instance: ref.id, tenantId: ref.tenantId })))) ?? new Map();
  }

  async view(ref: AggregateRef, fireTimes = 3, lastRuns?: Map<string, JobRun>): Promise<JobInstanceView | undefined> {
    const entry = this.entryOf(ref);
    if (!entry) return undefined;
    const lastRun = (lastRuns ?? (await this.lastRuns([ref]))).get(instanceKeyOf({ context: ref.context, instance: ref.id, tenantId: ref.tenantId }));
    const { job } = entry;
    const state = await this.state(ref);
    const rule = state.rule ?? this.options.hostRule(job);
    const timer = (await this.options.timers.timersOf(ref)).find((t) => t.key === TICK_KEY);
    return {
      context: ref.context,
      id: ref.id,
      job: job.name,
      tenantId: ref.tenantId,
      scope: job.scope,
      // A sharded job's partitions are subscriptions of their own (job-subscriptions.ts).
      subscription: state.partition === undefined ? job.subscription : partitionSubscription(job.subscription, state.partition),
      enabled: state.enabled,
      rule,
      own: state.own,
      ...(state.partition === undefined ? {} : { partition: state.partition }),
      nextFireTimes: state.enabled && timer ? this.nextTimes(rule, timer, fireTimes) : [],
      ...(state.paused === undefined ? {} : { paused: state.paused }),
      ...(lastRun === undefined ? {} : { lastRun }),
      ...(timer ? { timer: timerView(timer) } : {}),
    };
  }

  private nextTimes(rule: JobRule, timer: TimerRow, count: number): number[] {
    const times = [timer.due];
    while (times.length < count) {
      const next = this.options.cronNext(rule.expression, rule.zone, times[times.length - 1]!);
      if (next === undefined) break;
      times.push(next);
    }
    return times;
  }
}

function stateMatches(state: JobInstanceState, wanted: JobState): boolean {
  return wanted === "enabled" ? state.enabled : !state.enabled && (wanted === "disabled" || state.paused !== undefined);
}

function timerView(t: TimerRow): NonNullable<JobInstanceView["timer"]> {
  return { id: t.id, slot: t.slot, due: t.due, status: t.status, attempts: t.attempts, ...(t.lastError ? { lastError: t.lastError } : {}) };
}
