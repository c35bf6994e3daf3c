// One run of a job for a tick: the overlap policy first (a slot that came while a run of the instance
// was in progress may be skipped), then the slot's jitter, the handler under its timeout, the commands
// it derived (request ids of the slot: a backfill of a slot that ran sends nothing new), and the run
// recorded in the run log with its outcome, counted, logged, and alerted on failure. A failure is
// thrown on, for the subscription to retry by the job's policy and park after its last attempt.
import type { AggregateRef } from "../model/aggregate-ref.js";
import { UndeclaredOutputError } from "../model/errors.js";
import type { CommandMessage, EventMessage } from "../model/messages.js";
import { servicesFor, type Services } from "../model/registration.js";
import { jobSlotRequestId } from "../model/request-ids.js";
import type { JobContext, SagaJobRegistration, SagaRegistration, ScheduleTick } from "../model/saga-registration.js";
import type { Alerts } from "../ops/alerts.js";
import { errorField, type Logger } from "../ops/log.js";
import type { MetricsSink } from "../ops/metrics.js";
import { timeOrderedId } from "../model/time-ordered-id.js";
import { FencedWriteError } from "../store/cluster-store.js";
import type { JobRun, RunOutcome, RunStore } from "../store/run-store.js";
import { instanceKeyOf } from "../store/run-store.js";
import { jobContextOf, requestOf } from "../sagas/saga-requests.js";
import { sendDerived, type SagaRuntime } from "../sagas/saga-subscriptions.js";
import type { HandleAttempt } from "../subscriptions/subscription-service.js";
import { tickKind, type TickedBody } from "./job-messages.js";
import { jitterOf, type JobPolicy } from "./job-policy.js";

/** What a job's runs report to: the run log (absent when `wow.runs.enabled` is false), metrics, the log, alerts. */
export interface JobOps {
  readonly runs?: RunStore;
  readonly metrics: MetricsSink;
  readonly log: Logger;
  readonly alerts: Alerts;
  /** This host's id, on every run it records. */
  readonly host: string;
}

export interface JobRunnerRuntime extends SagaRuntime {
  readonly ops: JobOps;
  readonly onDerived?: (job: SagaJobRegistration, tick: ScheduleTick, commands: readonly CommandMessage[]) => void;
}

/** A run past its timeout. */
export class JobTimeoutError extends Error {
  override readonly name = "JobTimeout";
  constructor(ms: number) {
    super(`the run took longer than its timeout (${ms} ms)`);
  }
}

/** The last run of an instance that this host ran: when it started and finished, and whether a waiting slot was taken. */
interface LastRun {
  started: number;
  finished: number;
  /** BUFFER_ONE: a slot that came during it is already waiting. */
  buffered: boolean;
}

export function tickOf(event: EventMessage): ScheduleTick {
  const b = event.body as TickedBody;
  const tick: ScheduleTick = { tenantId: event.aggregate.tenantId, job: b.job, slot: b.slot, due: b.due, skipped: b.skipped, kind: tickKind(b) };
  return b.partition === undefined ? tick : { ...tick, partition: b.partition };
}

export class JobRunner {
  private readonly services: Services;
  private readonly last = new Map<string, LastRun>();

  constructor(
    private readonly saga: SagaRegistration,
    private readonly job: SagaJobRegistration,
    readonly policy: JobPolicy,
    private readonly runtime: JobRunnerRuntime,
  ) {
    this.services = servicesFor(job.services, runtime.services, job.subscription);
  }

  /** Handles one tick event (one attempt of it). */
  async run(event: EventMessage, attempt: HandleAttempt): Promise<void> {
    const { clock, ops } = this.runtime;
    const tick = tickOf(event);
    const instance = event.aggregate;
    const key = instanceKeyOf({ context: instance.context, instance: instance.id, tenantId: instance.tenantId });
    const fireAt = tick.kind === "scheduled" ? tick.due + jitterOf(key, tick.due, this.policy.jitter) : tick.due;
    if (attempt.number === 1 && tick.kind === "scheduled" && !this.admit(key, fireAt)) {
      const now = clock.now();
      return this.report(this.runOf(tick, instance, event, { started: now, finished: now, outcome: "skipped", attempt: 1, commands: [] }));
    }
    if (tick.kind === "backfill" && attempt.number === 1 && (await ops.runs?.ran({ context: instance.context, instance: instance.id, tenantId: instance.tenantId }, tick.due))) {
      ops.log.debug({ event: "job.backfill-ran", context: instance.context, instance: instance.id, tenantId: instance.tenantId, due: new Date(tick.due).toISOString() }, "slot already ran: not run again");
      return;
    }
    // Jitter: never before the slot's own delay (after a restart too: the delay is the slot's).
    if (fireAt > clock.now()) await clock.sleep(fireAt - clock.now(), attempt.signal);
    if (attempt.signal.aborted) throw new Error("the host is stopping");
    const started = clock.now();
    let commands: string[] = [];
    try {
      const requests = await this.handle(tick, event, attempt.signal);
      commands = requests.map((r) => r.requestId);
      const refused: string[] = [];
      for (const request of requests) {
        const code = await sendDerived(this.saga, request, this.runtime);
        if (code !== undefined) refused.push(`${request.type} (request ${request.requestId}) rejected: ${code}`);
      }
      const outcome: RunOutcome = refused.length === 0 ? "succeeded" : "failed";
      await this.report(this.runOf(tick, instance, event, { started, finished: clock.now(), outcome, attempt: attempt.number, commands, ...(refused.length ? { error: refused.join("; ") } : {}) }));
    } catch (error) {
      // Stopping cut it short: not a run; the tick is read again at the next start. A record refused
      // by fencing (this host lost the partition's lease): the tick is the new owner's to run and record.
      if (attempt.signal.aborted || error instanceof FencedWriteError) throw error;
      const outcome: RunOutcome = attempt.last ? "parked" : "retrying";
      await this.report(this.runOf(tick, instance, event, { started, finished: clock.now(), outcome, attempt: attempt.number, commands, error: describe(error) }), error);
      throw error;
    } finally {
      this.finished(key, started, clock.now());
    }
  }

  /**
   * Whether a scheduled slot coming at `fireAt` runs under the overlap policy, given this host's last
   * run of the instance: BUFFER_ALL runs every slot in turn; SKIP skips a slot that came while a run
   * was in progress; BUFFER_ONE lets the first such slot wait and skips the rest.
   */
  private admit(key: string, fireAt: number): boolean {
    const last = this.last.get(key);
    if (last === undefined || fireAt >= last.finished || this.policy.overlap === "BUFFER_ALL") return true;
    if (this.policy.overlap === "SKIP" || fireAt < last.started || last.buffered) return false;
    last.buffered = true;
    return true;
  }

  private finished(key: string, started: number, finished: number): void {
    this.last.set(key, { started, finished, buffered: false });
  }

  /** The handler under the timeout; its outputs checked against the declaration and made requests. */
  private async handle(tick: ScheduleTick, event: EventMessage, stop: AbortSignal): Promise<CommandMessage[]> {
    const { clock } = this.runtime;
    const run = new AbortController();
    const onStop = () => run.abort(stop.reason);
    stop.addEventListener("abort", onStop, { once: true });
    const context: JobContext = jobContextOf(run.signal);
    const handled = Promise.resolve().then(() => this.job.handle(tick, context, this.services));
    const timeout = this.policy.timeout;
    let outputs;
    try {
      if (timeout === undefined) outputs = await handled;
      else {
        // What the handler does after its timeout is not waited for, nor sent; a late rejection of it is not an error.
        handled.catch(() => undefined);
        const expiry = new AbortController();
        const expired = clock.sleep(timeout, expiry.signal).then(() => {
          if (expiry.signal.aborted) return undefined;
          run.abort(new JobTimeoutError(timeout));
          throw new JobTimeoutError(timeout);
        });
        try {
          outputs = await Promise.race([handled, expired]);
        } finally {
          expiry.abort();
        }
      }
    } finally {
      stop.removeEventListener("abort", onStop);
    }
    for (const output of outputs ?? []) {
      if (!this.job.commands.includes(output.command.type)) throw new UndeclaredOutputError("UndeclaredCommand", this.job.subscription, String(output.command.type), this.job.commands);
    }
    const now = clock.now();
    const ref = event.aggregate;
    // A slot's requests are the slot's (scheduled or backfilled alike); a manual trigger's are its own event's.
    const base = tick.kind === "manual" ? undefined : (index: number) => jobSlotRequestId(`${ref.context}/${ref.tenantId}/${ref.id}`, tick.due, index);
    const requests = (outputs ?? []).map((output, index) => requestOf(output, event, index, now, base?.(index)));
    this.runtime.onDerived?.(this.job, tick, requests);
    return requests;
  }

  private runOf(tick: ScheduleTick, instance: AggregateRef, event: EventMessage, r: Pick<JobRun, "started" | "finished" | "outcome" | "attempt" | "commands"> & { error?: string }): JobRun {
    return {
      id: timeOrderedId(r.started),
      context: instance.context,
      job: this.job.name,
      instance: instance.id,
      tenantId: instance.tenantId,
      ...(tick.partition === undefined ? {} : { partition: tick.partition }),
      slot: tick.slot,
      due: tick.due,
      kind: tick.kind,
      host: this.runtime.ops.host,
      tick: event.eventId,
      ...r,
    };
  }

  /** The run recorded, counted and logged; a failed one alerted. */
  private async report(run: JobRun, error?: unknown): Promise<void> {
    const { ops } = this.runtime;
    await ops.runs?.record(run);
    const durationMs = run.finished - run.started;
    ops.metrics.jobRun(run.context, run.job, run.outcome, durationMs);
    const fields = {
      event: "job.run",
      context: run.context,
      job: run.job,
      instance: run.instance,
      tenantId: run.tenantId,
      slot: run.slot,
      due: new Date(run.due).toISOString(),
      kind: run.kind,
      outcome: run.outcome,
      attempt: run.attempt,
      durationMs,
      run: run.id,
      tick: run.tick,
      requestIds: run.commands,
      ...(error === undefined ? (run.error === undefined ? {} : { error: run.error }) : { err: errorField(error) }),
    };
    if (run.outcome === "succeeded" || run.outcome === "skipped") ops.log.info(fields, `job ${run.job} ${run.outcome}`);
    else ops.log.warn(fields, `job ${run.job} ${run.outcome}`);
    if (run.outcome === "failed" || run.outcome === "retrying" || run.outcome === "parked") ops.alerts.jobFailed(run);
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

