// The host's metrics in Prometheus' text format (prom-client), each host with a registry of its own
// (several hosts in one process do not mix their figures; a host that already serves metrics merges
// `registry`). Gauges that need the store (backlog, parked, lag) are read when scraped.
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import { LatenessHistory, type LatenessMinute } from "./lateness-history.js";

/** Outcomes of one delivery attempt of a timer's slot. */
export type DeliveryOutcome = "decided" | "rejected" | "duplicate" | "retrying" | "parked";

/** Writes refused by fencing: a partition's checkpoint or job run, or a timer slot whose claim was lost. */
export type FencedWrite = "checkpoint" | "run" | "timer";

/** What the gauges read from the host when scraped. */
export interface MetricSources {
  /** Timers due by now and not yet delivered. */
  dueBacklog(now: number): Promise<number>;
  parked(): Promise<{ readonly timers: number; readonly events: number }>;
  /** Events each subscription has still to pass (the journal's head minus its position). */
  subscriptionLag(): Promise<ReadonlyMap<string, number>>;
}

/** What the runtime reports as it works: a no-op when metrics are off. */
export interface MetricsSink {
  delivered(outcome: DeliveryOutcome, latenessMs: number | undefined): void;
  jobRun(context: string, job: string, outcome: string, durationMs: number): void;
  decided(context: string, aggregate: string, seconds: number): void;
  storeError(loop: string): void;
  /** `count` writes of this host refused by fencing (it had lost their lease or claim). */
  fenced(write: FencedWrite, count: number): void;
}

const LATENESS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];
const DURATION_BUCKETS = [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 300];
const DECISION_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1];

export class HostMetrics implements MetricsSink {
  readonly registry = new Registry();
  /** Delivery lateness per minute, for the console's chart. */
  readonly lateness: LatenessHistory;
  private readonly latenessSeconds: Histogram;
  private readonly deliveries: Counter<"outcome">;
  private readonly runs: Counter<"context" | "job" | "outcome">;
  private readonly runSeconds: Histogram<"context" | "job">;
  private readonly decisionSeconds: Histogram<"context" | "aggregate">;
  private readonly storeErrors: Counter<"loop">;
  private readonly fencedWrites: Counter<"write">;

  constructor(now: () => number, sources?: MetricSources) {
    const registers = [this.registry];
    this.lateness = new LatenessHistory(now);
    this.latenessSeconds = new Histogram({ name: "wow_delivery_lateness_seconds", help: "How long after its due time a timer's slot was delivered.", buckets: LATENESS_BUCKETS, registers });
    this.deliveries = new Counter({ name: "wow_deliveries_total", help: "Delivery attempts of timers' slots, by outcome.", labelNames: ["outcome"], registers });
    this.runs = new Counter({ name: "wow_job_runs_total", help: "Runs of jobs, by outcome (succeeded, failed, retrying, parked, skipped).", labelNames: ["context", "job", "outcome"], registers });
    this.runSeconds = new Histogram({ name: "wow_job_run_duration_seconds", help: "How long a job's run took.", labelNames: ["context", "job"], buckets: DURATION_BUCKETS, registers });
    this.decisionSeconds = new Histogram({ name: "wow_command_decision_seconds", help: "From a command's arrival to its decision committed.", labelNames: ["context", "aggregate"], buckets: DECISION_BUCKETS, registers });
    this.storeErrors = new Counter({ name: "wow_store_errors_total", help: "Polls of the host's loops that failed as a whole (the store), by loop.", labelNames: ["loop"], registers });
    this.fencedWrites = new Counter({ name: "wow_fenced_writes_total", help: "Writes this host made under a lease or claim it had lost, refused by fencing (nothing written), by write: checkpoint, run, timer.", labelNames: ["write"], registers });
    if (sources === undefined) return;
    new Gauge({
      name: "wow_due_backlog",
      help: "Timers due by now and not yet delivered.",
      registers,
      async collect() {
        this.set(await sources.dueBacklog(now()));
      },
    });
    new Gauge({
      name: "wow_parked",
      help: "Parked timers and subscription events, waiting for an operator.",
      labelNames: ["kind"],
      registers,
      async collect() {
        const parked = await sources.parked();
        this.set({ kind: "timer" }, parked.timers);
        this.set({ kind: "event" }, parked.events);
      },
    });
    new Gauge({
      name: "wow_subscription_lag_events",
      help: "Events a subscription has still to pass on this host.",
      labelNames: ["subscription"],
      registers,
      async collect() {
        this.reset();
        for (const [subscription, lag] of await sources.subscriptionLag()) this.set({ subscription }, lag);
      },
    });
  }

  delivered(outcome: DeliveryOutcome, latenessMs: number | undefined): void {
    this.deliveries.inc({ outcome });
    if (latenessMs === undefined) return;
    const lateness = Math.max(0, latenessMs);
    this.latenessSeconds.observe(lateness / 1000);
    this.lateness.observe(lateness);
  }

  jobRun(context: string, job: string, outcome: string, durationMs: number): void {
    this.runs.inc({ context, job, outcome });
    if (outcome !== "skipped") this.runSeconds.observe({ context, job }, durationMs / 1000);
  }

  decided(context: string, aggregate: string, seconds: number): void {
    this.decisionSeconds.observe({ context, aggregate }, seconds);
  }

  storeError(loop: string): void {
    this.storeErrors.inc({ loop });
  }

  fenced(write: FencedWrite, count: number): void {
    this.fencedWrites.inc({ write }, count);
  }

  /** The text a scraper reads, and its content type. */
  async scrape(): Promise<{ readonly contentType: string; readonly text: string }> {
    return { contentType: this.registry.contentType, text: await this.registry.metrics() };
  }

  latenessMinutes(minutes: number): LatenessMinute[] {
    return this.lateness.minutes(minutes);
  }
}

/** Metrics off (`wow.metrics.enabled: false`): nothing is counted. */
export const noMetrics: MetricsSink = {
  delivered() {},
  jobRun() {},
  decided() {},
  storeError() {},
  fenced() {},
};
