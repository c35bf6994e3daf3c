// What the HTTP API needs of a host: its routes, a way to send commands, and the operators' views and
// actions. The host implements it; the HTTP layer never sees the concrete host.
import type { JobInstanceView } from "../jobs/job-manager.js";
import type { CommandResult } from "../model/command-result.js";
import type { CommandMessage, EventMessage } from "../model/messages.js";
import type { AggregateRegistration } from "../model/registration.js";
import type { SagaJobRegistration } from "../model/saga-registration.js";
import type { ParkedEvent } from "../store/subscription-store.js";
import type { TimerQuery, TimerRow } from "../store/timer-store.js";
import type { StoredStream } from "../store/event-store.js";
import type { Page } from "../store/run-store.js";
import type { JobQuery } from "../jobs/job-listing.js";
import type { Clock } from "../clock.js";
import type { MemberState } from "../cluster/cluster-member.js";
import type { Logger } from "../ops/log.js";
import type { HostMetrics } from "../ops/metrics.js";
import type { RunStore } from "../store/run-store.js";
import type { AggregateRef } from "../model/aggregate-ref.js";

/** Whether a host can do its work; the reason when not. */
export interface Readiness {
  readonly ready: boolean;
  readonly reason?: string;
}

/** The host's operations as the API reaches them. */
export interface OpsAdmin {
  /** This host's id (run log, logs, cluster). */
  readonly host: string;
  readonly log: Logger;
  readonly metrics: HostMetrics | undefined;
  /** The run log; undefined when it is off. */
  readonly runs: RunStore | undefined;
}

export interface RedriveOutcome {
  readonly found: boolean;
  readonly ok: boolean;
  readonly error?: string;
}

/** A host as `GET /wow/hosts` shows it (times epoch ms on the store's clock): a cluster member's state. */
export type HostView = MemberState;

/** The hosts sharing the store, from any of them. */
export interface HostsView {
  /** False: one host on a store that serves one (SQLite, memory). */
  readonly clustered: boolean;
  readonly partitions: number;
  readonly hosts: readonly HostView[];
  /** Partitions no live host holds now (moments after a host died, until its lease ends). */
  readonly unowned: readonly number[];
}

/** The jobs as operators reach them. */
export interface JobAdmin {
  /** How many journal partitions there are: a sharded job has one instance per partition. */
  readonly partitions: number;
  /** The partitions this host owns now. */
  ownedPartitions(): readonly number[];
  job(context: string, name: string): SagaJobRegistration | undefined;
  /** Every known instance, of one tenant when given. */
  list(tenantId?: string): Promise<JobInstanceView[]>;
  /** A page of instances, filtered and sorted. */
  page(query: JobQuery): Promise<Page<JobInstanceView>>;
  /** How many instances are enabled, paused and disabled. */
  counts(tenantId?: string): Promise<{ readonly enabled: number; readonly paused: number; readonly disabled: number }>;
  /** One instance, if its job exists. */
  view(ref: AggregateRef, fireTimes?: number): Promise<JobInstanceView | undefined>;
  /** The contexts that declare a job of this name. */
  contextsOf(name: string): string[];
}

export interface HttpHost {
  readonly aggregates: readonly AggregateRegistration[];
  readonly jobs: JobAdmin;
  readonly ops: OpsAdmin;
  readiness(): Promise<Readiness>;
  send(command: CommandMessage): Promise<CommandResult>;
  readonly clock: Clock;
  /** What the store is ("memory", "sqlite", …). */
  readonly storeKind: string;
  /** Pending or parked timers, filtered, a page at a time. */
  timers(query: TimerQuery): Promise<TimerRow[]>;
  /** Parked events in parking order (of one tenant's aggregates), after a listed one. */
  parkedEvents(limit: number, tenantId?: string, after?: readonly [number, string]): Promise<ParkedEvent[]>;
  /** Timers due by `until`, parked timers, parked events (of one tenant's, when given). */
  backlog(until: number, tenantId?: string): Promise<{ readonly due: number; readonly parkedTimers: number; readonly parkedEvents: number }>;
  /** An aggregate's stream. */
  stream(ref: AggregateRef): Promise<StoredStream>;
  /** The pending and parked timers an aggregate owns. */
  timersOf(ref: AggregateRef): Promise<TimerRow[]>;
  timer(id: string): Promise<TimerRow | undefined>;
  parkedEvent(id: string): Promise<ParkedEvent | undefined>;
  redriveTimer(id: string): Promise<boolean>;
  redriveEvent(id: string): Promise<RedriveOutcome>;
  /** Resolves true once the subscriptions (every one, or the sagas' event handlers; given `events`, those taking one of them) have passed `position`, on whichever host runs each; false after `timeoutMs`. */
  waitForHandlers(position: number, sagasOnly: boolean, timeoutMs: number, events?: readonly EventMessage[]): Promise<boolean>;
  /** The hosts sharing the store (`GET /wow/hosts`). */
  hosts?(): Promise<HostsView>;
}
