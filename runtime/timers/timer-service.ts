import { randomUUID } from "node:crypto";
import type { Clock } from "../clock.js";
import { cronNext as defaultCronNext, type CronNext } from "../cron/cron-next.js";
import { PollLoop, type LoopState, type PollOutcome } from "../loop/poll-loop.js";
import { refKey } from "../model/aggregate-ref.js";
import type { CommandResult } from "../model/command-result.js";
import { ErrorCodes } from "../model/errors.js";
import type { CommandMessage } from "../model/messages.js";
import { slotRequestId } from "../model/request-ids.js";
import type { CommandProcessor } from "../processing/command-processor.js";
import { isUnroutable, UnroutableCommandError } from "../processing/command-results.js";
import { decideBatch } from "../processing/decide-batch.js";
import { resultOf } from "../processing/decide.js";
import type { AggregateRegistry } from "../processing/registry.js";
import { UnstorableCommitError, VersionConflictError } from "../store/errors.js";
import type { AppendResult, Commit, DecisionInput, EventStore } from "../store/event-store.js";
import type { BatchEntry, BatchOutcome, DueBatch, TimerRow, TimerSettlement, TimerStore } from "../store/timer-store.js";
import { backoffDelay } from "../model/backoff.js";
import { scheduledCommand } from "./scheduled-command.js";
import { planSlot, type SlotPlan } from "./slot-plan.js";
import { resolveTimerOptions, type ResolvedTimerOptions, type TimerOptions } from "./timer-options.js";
import type { DeliveryOutcome } from "../ops/metrics.js";
import { retryOf, type RetryDefaults } from "../model/retry-policy.js";
import type { RunStore, TimerAttempt } from "../store/run-store.js";
import { timeOrderedId } from "../model/time-ordered-id.js";

/** What happened to one delivery: a result (decided, rejected or duplicate), or a technical failure. */
export interface Delivery {
  readonly command: CommandMessage;
  readonly sentAt: number;
  readonly result?: CommandResult;
  readonly error?: unknown;
  readonly parked: boolean;
  /** The timer's slot, and which attempt at it this was (1 for the first). */
  readonly timer: { readonly id: string; readonly slot: number; readonly due: number; readonly attempt: number; readonly tenantId: string };
  readonly outcome: DeliveryOutcome;
}

export interface TimerServiceOptions extends TimerOptions {
  readonly timers: TimerStore;
  readonly events: EventStore;
  /** The one decision path: batches are decided with its registry and options, and what a batch could not commit goes through it. */
  readonly processor: CommandProcessor;
  readonly registry: AggregateRegistry;
  readonly clock: Clock;
  readonly cronNext?: CronNext;
  /** Identifies this process's claims. */
  readonly owner?: string;
  /** The store's housekeeping for a moment with nothing due (a WAL checkpoint). */
  readonly idle?: () => Promise<void>;
  readonly onDelivery?: (delivery: Delivery) => void;
  /** Where each delivery attempt is recorded (`GET /wow/timers/{id}/attempts`); none: not recorded. */
  readonly attempts?: RunStore;
  /**
   * Timers whose claim this host lost before it could write their slot (its lease lapsed and another
   * claim took them): nothing of those deliveries was written.
   */
  readonly onLost?: (lost: readonly LostClaim[]) => void;
  /** A poll that failed as a whole (the store, not a command); the loop goes on. */
  readonly onError?: (error: unknown) => void;
}

/** A timer's slot this host's claim lost: another claim took the timer, and the slot is that claimer's to decide. */
export interface LostClaim {
  readonly timer: string;
  readonly slot: number;
}

/** A one-by-one delivery's commit refused because its claim was lost (it wrote nothing). */
class ClaimLostError extends Error {
  readonly code = "WOW_TIMER_CLAIM_LOST";
  constructor(readonly timer: string, readonly slot: number) {
    super(`timer ${timer} slot ${slot}: the commit was refused, the claim lapsed and another claim took the timer (timers.deliver)`);
    this.name = "ClaimLostError";
  }
}

interface TimerPoll extends PollOutcome {
  readonly claimed: number;
}

/**
 * Delivers due timers: claims a batch, decides each slot's command (request id `timer#slot`) with the
 * one decision, and commits the batch's commits with their settlements (done / next cron slot) in one
 * transaction; what the batch could not decide or commit (a conflict, a technical failure) goes one by
 * one through the processor, then retries with backoff or parks. At least once (a crash before the
 * commit leaves the slots due; the target recognises a duplicate), never before due (only fireAt <= now
 * is claimed, and fireAt >= due).
 */
export class TimerService {
  readonly options: ResolvedTimerOptions;
  private readonly timers: TimerStore;
  private readonly events: EventStore;
  private readonly processor: CommandProcessor;
  private readonly registry: AggregateRegistry;
  private readonly clock: Clock;
  private readonly cronNext: CronNext;
  private readonly owner: string;
  private readonly idle: (() => Promise<void>) | undefined;
  private readonly onDelivery: ((delivery: Delivery) => void) | undefined;
  private readonly onError: (error: unknown) => void;
  private readonly onLost: ((lost: readonly LostClaim[]) => void) | undefined;
  private readonly loop: PollLoop<TimerPoll>;
  private readonly attemptLog: RunStore | undefined;
  /** Attempts of the poll in hand, recorded at its end. */
  private attempts: TimerAttempt[] = [];
  /** `@Retry` of the commands that declare one; the rest retry by `wow.timers`. */
  private readonly retries = new Map<string, RetryDefaults>();
  /** When the store's housekeeping last ran (on the clock), and whether timers were delivered since. */
  private idledAt = -Infinity;
  private deliveredSinceIdle = false;

  constructor(options: TimerServiceOptions) {
    this.options = resolveTimerOptions(options);
    this.timers = options.timers;
    this.events = options.events;
    this.processor = options.processor;
    this.registry = options.registry;
    this.clock = options.clock;
    this.cronNext = options.cronNext ?? defaultCronNext;
    this.owner = options.owner ?? randomUUID();
    this.idle = options.idle;
    this.onDelivery = options.onDelivery;
    this.onError = options.onError ?? ((error) => console.error("wow.timers: poll failed", error));
    this.attemptLog = options.attempts;
    this.onLost = options.onLost;
    // Checked now: a host whose registrations carry a retry policy out of range does not start.
    const defaults = { maxAttempts: this.options.maxAttempts, backoff: this.options.backoff };
    for (const [type, route] of this.registry.commands()) if (route.command.retry !== undefined) this.retries.set(type, retryOf(route.command.retry, defaults, `command ${type}`));
    this.loop = new PollLoop({ name: "timers", clock: this.clock, interval: this.options.pollInterval, poll: () => this.poll(), onError: this.onError });
  }

  get running(): boolean {
    return this.loop.running;
  }

  /** Starts the poller: drains while batches come back full, else sleeps until the next due time or the poll interval. */
  start(): void {
    this.loop.start();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
  }

  /** A commit on this host set a timer due at `due`: the poller looks now unless it already wakes by then. */
  wakeBy(due: number): void {
    this.loop.wakeBy(due);
  }

  /** The poller looks for due timers now. */
  wake(): void {
    this.loop.wake();
  }

  describe(): LoopState {
    return this.loop.describe();
  }

  /** Claims and delivers one batch of due timers (after the poll in hand); returns how many were claimed. */
  async pollOnce(): Promise<number> {
    return (await this.loop.runOnce()).claimed;
  }

  /** Delivers everything due by now (batch after batch); returns how many were claimed. */
  async drain(): Promise<number> {
    let total = 0;
    for (;;) {
      const claimed = await this.pollOnce();
      total += claimed;
      if (claimed < this.options.batchSize) return total;
    }
  }

  /** An operator's re-drive: the parked timer is pending again, due now, with fresh attempts. */
  async redrive(id: string): Promise<boolean> {
    const redriven = await this.timers.redrive(id, this.clock.now());
    if (redriven) this.wake();
    return redriven;
  }

  private async poll(): Promise<TimerPoll> {
    const now = this.clock.now();
    const limit = this.options.batchSize;
    const batch = await this.timers.claimDue(now, limit, { owner: this.owner, until: now + this.options.lease });
    if (batch.timers.length > 0) {
      try {
        await this.deliverBatch(batch, now);
      } finally {
        await this.recordAttempts();
      }
      this.deliveredSinceIdle = true;
    }
    if (batch.timers.length >= limit) return { claimed: batch.timers.length, again: true };
    let nextDueAt = await this.timers.nextDueAt();
    // Nothing due before the next look: the store's housekeeping goes now, not in a burst; after
    // deliveries, or once per interval (a host woken by commits that set later timers would run it at every wake).
    const later = this.clock.now();
    const quiet = nextDueAt === undefined || nextDueAt - later >= this.options.pollInterval;
    if (this.idle !== undefined && quiet && (this.deliveredSinceIdle || later - this.idledAt >= this.options.pollInterval)) {
      this.idledAt = later;
      this.deliveredSinceIdle = false;
      await this.idle().catch((error: unknown) => this.onError(error));
      nextDueAt = await this.timers.nextDueAt();
    }
    return { claimed: batch.timers.length, nextDueAt };
  }

  /**
   * The batch decided, its commits and settlements written in one transaction; what the batch could not
   * decide or commit goes one by one after it. A commit the store cannot keep fails its delivery alone; a
   * batch whose transaction fails as a whole goes one by one, so that one delivery's failure is not every
   * delivery's (nor stops the poller).
   */
  private async deliverBatch(batch: DueBatch, now: number): Promise<void> {
    const rows = batch.timers;
    const plans = rows.map((row) => planSlot(row, now, this.cronNext));
    const commands = rows.map((row, i) => scheduledCommand(row, plans[i]!.deliver, now));
    // A coalesced timer delivers a later slot than the claim read for: what that slot meets is read now.
    const inputs: DecisionInput[] = [];
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i]!;
      inputs.push(plans[i]!.deliver.slot === row.slot ? batch.inputs[i]! : await this.events.loadForDecision(row.target, slotRequestId(row.id, plans[i]!.deliver.slot)));
    }
    const decisions = await decideBatch(this.registry, commands, inputs, this.processor.decideOptions);
    const taken: number[] = [];
    const entries: BatchEntry[] = [];
    for (let i = 0; i < rows.length; i++) {
      const decision = decisions[i]!;
      if (decision.kind === "fallback") continue;
      taken.push(i);
      if (decision.kind === "failed") entries.push({ settlement: this.failed(rows[i]!, commands[i]!, now, decision.error) });
      else {
        const commit = decision.decided.kind === "duplicate" ? undefined : decision.decided.commit;
        entries.push(commit === undefined ? { settlement: settlementOf(rows[i]!, plans[i]!) } : { commit, settlement: settlementOf(rows[i]!, plans[i]!) });
      }
    }
    let outcomes: BatchOutcome[] | undefined;
    try {
      outcomes = await this.timers.commitBatch(batch, entries);
    } catch {
      outcomes = undefined; // nothing of the batch was written
    }
    // Refused commits were tried once: they go on with the conflict retries left; the rest from the start.
    const again = decisions.map((d) => d.kind === "fallback");
    const tried = decisions.map(() => false);
    /** Settlements the batch did not write: failures decided here, when it failed as a whole; unstorable commits'. */
    const settled: TimerSettlement[] = [];
    const lost: LostClaim[] = [];
    if (outcomes === undefined) {
      // The cause may be one commit's: each delivery goes alone, so only its own fails (retried, then parked).
      taken.forEach((i, k) => {
        if (decisions[i]!.kind === "failed") settled.push(entries[k]!.settlement);
        else again[i] = true;
      });
    } else {
      outcomes.forEach((outcome, k) => {
        const i = taken[k]!;
        const decision = decisions[i]!;
        if (outcome.ok) {
          if (decision.kind === "decided") this.report(rows[i]!, commands[i]!, now, { result: resultOf(commands[i]!, decision.decided, outcome.appended) });
        } else if ("lost" in outcome) {
          // Another host claimed the timer after this claim's lease lapsed: the slot is its to decide.
          lost.push({ timer: rows[i]!.id, slot: rows[i]!.slot });
        } else if (outcome.error instanceof UnstorableCommitError) {
          // Deciding it again would build the same commit: this attempt failed, and counts.
          settled.push(this.failed(rows[i]!, commands[i]!, now, outcome.error));
        } else {
          again[i] = true;
          tried[i] = outcome.error instanceof VersionConflictError && outcome.untried !== true;
        }
      });
    }
    const rest: number[] = [];
    rows.forEach((_, i) => again[i] && rest.push(i));
    if (rest.length > 0 || settled.length > 0) lost.push(...(await this.deliverEach(batch, rest.map((i) => rows[i]!), rest.map((i) => tried[i]!), settled)));
    if (lost.length > 0) this.lost(lost);
  }

  /**
   * One by one through the processor (`tried[i]`: `rows[i]`'s batch commit met a conflict), each commit
   * written with its settlement under `batch`'s claim; then one settle, fenced by the claim too, of
   * `settled` and the deliveries that committed nothing. Returns the slots whose claim was lost.
   */
  private async deliverEach(batch: DueBatch, rows: readonly TimerRow[], tried: readonly boolean[], settled: readonly TimerSettlement[]): Promise<LostClaim[]> {
    const settlements = new Array<TimerSettlement | NothingToSettle>(rows.length);
    const chains = chainsByTarget(rows);
    let next = 0;
    // A chain's deliveries go one after another (they would conflict on their aggregate's version);
    // chains run side by side (each commit a transaction of its own with its settlement, fenced by the claim).
    const worker = async () => {
      while (next < chains.length) {
        for (const index of chains[next++]!) settlements[index] = await this.deliver(batch, rows[index]!, tried[index] === true ? 1 : 0);
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.options.concurrency, chains.length) }, worker));
    const lost: LostClaim[] = [];
    const pending: TimerSettlement[] = [...settled];
    settlements.forEach((s, i) => {
      if (s === WRITTEN) return;
      if (s === LOST) lost.push({ timer: rows[i]!.id, slot: rows[i]!.slot });
      else pending.push(s);
    });
    const refused = new Set(await this.timers.settle(batch, pending));
    for (const s of pending) if (refused.has(s.id)) lost.push({ timer: s.id, slot: s.slot });
    return lost;
  }

  /**
   * One delivery through the processor. Its commit is written with the slot's settlement, fenced by
   * `batch`'s claim (WRITTEN); a claim lost meanwhile writes nothing (LOST). Else the settlement to
   * apply: after a duplicate, or a failure.
   */
  private async deliver(batch: DueBatch, row: TimerRow, triedConflicts: number): Promise<TimerSettlement | NothingToSettle> {
    const now = this.clock.now();
    const plan = planSlot(row, now, this.cronNext);
    const command = scheduledCommand(row, plan.deliver, now);
    const settlement = settlementOf(row, plan);
    let written = false;
    const write = async (commit: Commit): Promise<AppendResult> => {
      const outcome = (await this.timers.commitBatch(batch, [{ commit, settlement }]))[0]!;
      if (outcome.ok) {
        written = true;
        return outcome.appended!;
      }
      if ("lost" in outcome) throw new ClaimLostError(row.id, row.slot);
      throw outcome.error;
    };
    try {
      const result = await this.processor.sendWith(command, triedConflicts, write);
      // Not decided (not even recorded): the target kept moving under it. A technical failure, retried; ending the timer would lose it.
      if (result.errorCode === ErrorCodes.EventVersionConflict) throw new Error(`not decided: ${result.errorMsg}`);
      // No aggregate handles it (a typo, a type this deploy dropped): no target decided it, so it is not a
      // rejection that ends the timer; retried, then parked, until a deploy handles it and an operator re-drives.
      if (isUnroutable(command, result)) throw new UnroutableCommandError(command);
      this.report(row, command, now, { result });
      return written ? WRITTEN : settlement;
    } catch (error) {
      if (error instanceof ClaimLostError) return LOST;
      return this.failed(row, command, now, error);
    }
  }

  /** Slots whose claim was lost: their attempts of this poll are not recorded (the new claimer's are), and the loss is told. */
  private lost(lost: readonly LostClaim[]): void {
    const ids = new Set(lost.map((l) => l.timer));
    this.attempts = this.attempts.filter((a) => !ids.has(a.timer));
    this.onLost?.(lost);
  }

  /** A technical failure: retried after a backoff, or parked once the attempts are spent (the command's `@Retry`, else `wow.timers`). */
  private failed(row: TimerRow, command: CommandMessage, sentAt: number, error: unknown): TimerSettlement {
    const attempts = row.attempts + 1;
    const message = describe(error);
    const retry = this.retries.get(command.type) ?? this.options;
    const parked = attempts >= retry.maxAttempts;
    this.report(row, command, sentAt, { error, parked });
    const at = this.clock.now();
    return parked
      ? { id: row.id, slot: row.slot, outcome: { kind: "park", attempts, error: message, at } }
      : { id: row.id, slot: row.slot, outcome: { kind: "retry", attempts, error: message, fireAt: at + backoffDelay(attempts, retry.backoff) } };
  }

  /** One delivery attempt: to the observer, and into the attempts recorded at the poll's end. */
  private report(row: TimerRow, command: CommandMessage, sentAt: number, what: { readonly result?: CommandResult; readonly error?: unknown; readonly parked?: boolean }): void {
    const schedule = command.schedule!;
    const outcome: DeliveryOutcome = what.result === undefined ? (what.parked === true ? "parked" : "retrying") : what.result.outcome === "decided" ? "decided" : what.result.outcome;
    const timer = { id: row.id, slot: schedule.slot, due: schedule.due, attempt: row.attempts + 1, tenantId: row.owner.tenantId };
    if (this.attemptLog !== undefined) {
      const error = what.result === undefined ? describe(what.error) : what.result.succeeded ? undefined : `${what.result.errorCode}: ${what.result.errorMsg}`;
      this.attempts.push({ id: timeOrderedId(sentAt), timer: row.id, slot: timer.slot, due: timer.due, at: sentAt, outcome, attempt: timer.attempt, host: this.owner, tenantId: timer.tenantId, ...(error === undefined ? {} : { error }) });
    }
    this.onDelivery?.({
      command,
      sentAt,
      parked: what.parked === true,
      timer,
      outcome,
      ...(what.result === undefined ? { error: what.error } : { result: what.result }),
    });
  }

  private async recordAttempts(): Promise<void> {
    if (this.attempts.length === 0) return;
    const attempts = this.attempts;
    this.attempts = [];
    await this.attemptLog!.recordAttempts(attempts);
  }
}

/** A one-by-one delivery's fate besides a settlement still to apply: written with its commit, or its claim lost. */
const WRITTEN = Symbol("written");
const LOST = Symbol("lost");
type NothingToSettle = typeof WRITTEN | typeof LOST;

/** A delivered slot ends the timer, or moves a cron timer to its next slot. */
function settlementOf(row: TimerRow, plan: SlotPlan): TimerSettlement {
  return { id: row.id, slot: row.slot, outcome: plan.next ? { kind: "next", ...plan.next } : { kind: "done" } };
}

/** Indexes of `rows` grouped by target aggregate, each group in claim order (earliest due first). */
function chainsByTarget(rows: readonly TimerRow[]): number[][] {
  const byTarget = new Map<string, number[]>();
  rows.forEach((row, index) => {
    const key = refKey(row.target);
    const chain = byTarget.get(key);
    if (chain) chain.push(index);
    else byTarget.set(key, [index]);
  });
  return [...byTarget.values()];
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  return String(error);
}
