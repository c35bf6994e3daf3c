import { randomUUID } from "node:crypto";
import { tracked, type Clock } from "../clock.js";
import { UnstorableCommitError, VersionConflictError, type BatchEntry, type BatchOutcome, type Journal, type TimerRow, type TimerSettlement } from "../journal/journal.js";
import { refKey } from "../model/aggregate-ref.js";
import type { CommandResult } from "../model/command-result.js";
import { ErrorCodes } from "../model/errors.js";
import type { CommandMessage } from "../model/messages.js";
import type { BatchDecider, BatchDecision } from "../processing/batch-decider.js";
import type { CommandSender } from "../processing/command-processor.js";
import { isUnroutable, UnroutableCommandError } from "../processing/command-results.js";
import { backoffDelay } from "./backoff.js";
import { cronNext as defaultCronNext, type CronNext } from "./cron-next.js";
import { scheduledCommand } from "./scheduled-command.js";
import { planSlot, type SlotPlan } from "./slot-plan.js";
import { resolveTimerOptions, type ResolvedTimerOptions, type TimerOptions } from "./timer-options.js";

/** What happened to one delivery: a result (decided, rejected or duplicate), or a technical failure. */
export interface Delivery {
  readonly command: CommandMessage;
  readonly sentAt: number;
  readonly result?: CommandResult;
  readonly error?: unknown;
  readonly parked: boolean;
}

export interface TimerServiceOptions extends TimerOptions {
  readonly journal: Journal;
  readonly clock: Clock;
  readonly send: CommandSender;
  /**
   * The set-based path: a batch is decided in memory and committed with its settlements in one
   * transaction, where the journal can (`loadForDecisions` + `commitBatch`). Only for a `send` that is
   * the plain processor's (the batch does not go through `send`).
   */
  readonly batch?: BatchDecider;
  readonly cronNext?: CronNext;
  /** Identifies this process's claims. */
  readonly owner?: string;
  readonly onDelivery?: (delivery: Delivery) => void;
  /** A poll that failed as a whole (the store, not a command); the loop goes on. */
  readonly onError?: (error: unknown) => void;
}

/**
 * Delivers due timers: claims a batch (leased; on the batch path read, its commits and settlements
 * then written in one transaction), sends each slot as a command with request id
 * `timer#slot`, then settles the batch: done / next cron slot / retry with backoff / parked.
 * At least once (a crash before settling redelivers after the lease; the target recognises the
 * duplicate), never before due (only fireAt <= now is claimed, and fireAt >= due).
 */
export class TimerService {
  readonly options: ResolvedTimerOptions;
  private readonly journal: Journal;
  private readonly clock: Clock;
  private readonly send: CommandSender;
  private readonly batch: BatchDecider | undefined;
  private readonly cronNext: CronNext;
  private readonly owner: string;
  private readonly onDelivery: ((delivery: Delivery) => void) | undefined;
  private readonly onError: (error: unknown) => void;
  private loop: Promise<void> | undefined;
  private abort = new AbortController();
  private napping: AbortController | undefined;
  private polling: Promise<void> = Promise.resolve();

  constructor(options: TimerServiceOptions) {
    this.options = resolveTimerOptions(options);
    this.journal = options.journal;
    this.clock = options.clock;
    this.send = options.send;
    const journal = options.journal;
    this.batch = journal.dueTimers && journal.loadForDecisions && journal.commitBatch ? options.batch : undefined;
    this.cronNext = options.cronNext ?? defaultCronNext;
    this.owner = options.owner ?? randomUUID();
    this.onDelivery = options.onDelivery;
    this.onError = options.onError ?? ((error) => console.error("wow.timers: poll failed", error));
  }

  get running(): boolean {
    return this.loop !== undefined;
  }

  /** Starts the poller: drains while batches come back full, else sleeps until min(next due, poll interval). */
  start(): void {
    if (this.loop) return;
    this.abort = new AbortController();
    const signal = this.abort.signal;
    this.loop = (async () => {
      while (!signal.aborted) {
        let claimed = 0;
        let failed = false;
        try {
          claimed = await tracked(this.clock, this.pollOnce());
        } catch (error) {
          failed = true;
          this.onError(error);
        }
        if (signal.aborted) break;
        // A full batch: more is due now; the next poll goes as soon as other I/O has had its turn (no timer, not even 0 ms).
        if (!failed && claimed >= this.options.batchSize) {
          await new Promise<void>((resolve) => setImmediate(resolve));
          continue;
        }
        // After a failed poll, a whole interval: the batch path's unleased timers are still due now.
        let wait = failed ? this.options.pollInterval : await this.idleWait();
        // Nothing due before the next poll: the journal's housekeeping (a WAL checkpoint) goes now, not in a
        // burst; the wait is measured again after it.
        if (!failed && wait >= this.options.pollInterval && this.journal.idle !== undefined) {
          await this.journal.idle().catch((error: unknown) => this.onError(error));
          wait = await this.idleWait();
        }
        await this.nap(wait, signal);
      }
    })();
  }

  /** Cuts the poller's current sleep short (a commit on this node set a timer): it looks for due timers now. */
  wake(): void {
    this.napping?.abort();
  }

  async stop(): Promise<void> {
    this.abort.abort();
    const loop = this.loop;
    this.loop = undefined;
    await loop;
  }

  /**
   * Claims and delivers one batch of due timers; returns how many were claimed. Polls of one service
   * run one after another (the batch path reads its batch without a lease: two overlapping polls
   * would deliver the same timers twice, each decided once).
   */
  pollOnce(): Promise<number> {
    const poll = this.polling.then(() => this.poll());
    this.polling = poll.then(
      () => undefined,
      () => undefined,
    );
    return poll;
  }

  private async poll(): Promise<number> {
    const now = this.clock.now();
    const batch = this.batch;
    const limit = this.options.batchSize;
    const rows = batch ? await this.journal.dueTimers!(now, limit) : await this.journal.claimDue(now, limit, now + this.options.lease, this.owner);
    if (rows.length === 0) return 0;
    if (batch) await this.deliverBatch(batch, rows, now);
    else await this.deliverEach(rows);
    return rows.length;
  }

  /** One by one through `send` (or `senders[i]` for `rows[i]`), then one settle, with `settled` (other slots' settlements). */
  private async deliverEach(rows: readonly TimerRow[], senders?: readonly CommandSender[], settled: readonly TimerSettlement[] = []): Promise<void> {
    const settlements = new Array<TimerSettlement>(rows.length);
    const chains = chainsByTarget(rows);
    let next = 0;
    // A chain's deliveries go one after another (they would conflict on their aggregate's version);
    // chains run side by side, so their commits share the journal's group transactions.
    const worker = async () => {
      while (next < chains.length) {
        for (const index of chains[next++]!) settlements[index] = await this.deliver(rows[index]!, senders?.[index] ?? this.send);
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.options.concurrency, chains.length) }, worker));
    await this.journal.settle(settled.length === 0 ? settlements : [...settled, ...settlements]);
  }

  /**
   * Set-based: the batch decided in memory, its commits and settlements written in one transaction;
   * what the batch could not decide or commit (conflicts, technical failures) goes one by one after it.
   * A commit the journal cannot store fails its delivery alone; a batch whose transaction fails as a whole
   * goes one by one, so that one delivery's failure is not every delivery's (nor stops the poller).
   */
  private async deliverBatch(batch: BatchDecider, rows: readonly TimerRow[], now: number): Promise<void> {
    const plans = rows.map((row) => planSlot(row, now, this.cronNext));
    const commands = rows.map((row, i) => scheduledCommand(row, plans[i]!.deliver, now));
    const decisions: BatchDecision[] = await batch.decide(this.journal, commands);
    const taken: number[] = [];
    const entries: BatchEntry[] = [];
    for (let i = 0; i < rows.length; i++) {
      const decision = decisions[i]!;
      if (decision.kind === "fallback") continue;
      taken.push(i);
      if (decision.kind === "failed") entries.push({ settlement: this.failed(rows[i]!, commands[i]!, now, decision.error) });
      else entries.push(decision.commit ? { commit: decision.commit, settlement: settlementOf(rows[i]!, plans[i]!) } : { settlement: settlementOf(rows[i]!, plans[i]!) });
    }
    let outcomes: BatchOutcome[] | undefined;
    try {
      outcomes = await this.journal.commitBatch!(entries);
    } catch {
      outcomes = undefined; // nothing of the batch was written
    }
    // Refused commits were tried once: they go on with the attempts left (`afterConflict`); the rest from the start.
    const again = decisions.map((d) => d.kind === "fallback");
    const tried = decisions.map(() => false);
    /** Settlements the batch did not write: failures decided here, when it failed as a whole; unstorable commits'. */
    const settled: TimerSettlement[] = [];
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
          if (decision.kind === "decided") this.onDelivery?.({ command: commands[i]!, sentAt: now, result: decision.result(outcome.appended), parked: false });
        } else if (outcome.error instanceof UnstorableCommitError) {
          // Deciding it again would build the same commit: this attempt failed, and counts.
          settled.push(this.failed(rows[i]!, commands[i]!, now, outcome.error));
        } else {
          again[i] = true;
          tried[i] = outcome.error instanceof VersionConflictError && outcome.untried !== true;
        }
      });
    }
    const rest = rows.filter((_, i) => again[i]);
    const senders = rows.flatMap((_, i) => (again[i] ? [tried[i] ? batch.afterConflict : this.send] : []));
    if (rest.length > 0 || settled.length > 0) await this.deliverEach(rest, senders, settled);
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

  parked(limit?: number, tenantId?: string): Promise<TimerRow[]> {
    return this.journal.parked(limit, tenantId);
  }

  /** An operator's re-drive: the parked timer is pending again, due now, with fresh attempts. */
  async redrive(id: string): Promise<boolean> {
    const redriven = await this.journal.redrive(id, this.clock.now());
    if (redriven) this.wake();
    return redriven;
  }

  private async nap(ms: number, stop: AbortSignal): Promise<void> {
    const napping = new AbortController();
    this.napping = napping;
    const onStop = () => napping.abort();
    stop.addEventListener("abort", onStop, { once: true });
    try {
      await this.clock.sleep(ms, napping.signal);
    } finally {
      stop.removeEventListener("abort", onStop);
      if (this.napping === napping) this.napping = undefined;
    }
  }

  private async idleWait(): Promise<number> {
    const nextFireAt = await this.journal.nextFireAt();
    const poll = this.options.pollInterval;
    if (nextFireAt === undefined) return poll;
    return Math.max(0, Math.min(poll, nextFireAt - this.clock.now()));
  }

  private async deliver(row: TimerRow, send: CommandSender): Promise<TimerSettlement> {
    const now = this.clock.now();
    const plan = planSlot(row, now, this.cronNext);
    const command = scheduledCommand(row, plan.deliver, now);
    try {
      const result = await send(command);
      // Not decided (not even recorded): the target kept moving under it. A technical failure, retried; ending the timer would lose it.
      if (result.errorCode === ErrorCodes.EventVersionConflict) throw new Error(`not decided: ${result.errorMsg}`);
      // No aggregate handles it (a typo, a type this deploy dropped): no target decided it, so it is not a
      // rejection that ends the timer; retried, then parked, until a deploy handles it and an operator re-drives.
      if (isUnroutable(command, result)) throw new UnroutableCommandError(command);
      this.onDelivery?.({ command, sentAt: now, result, parked: false });
      return settlementOf(row, plan);
    } catch (error) {
      return this.failed(row, command, now, error);
    }
  }

  /** A technical failure: retried after a backoff, or parked once the attempts are spent. */
  private failed(row: TimerRow, command: CommandMessage, sentAt: number, error: unknown): TimerSettlement {
    const attempts = row.attempts + 1;
    const message = describe(error);
    const parked = attempts >= this.options.maxAttempts;
    this.onDelivery?.({ command, sentAt, error, parked });
    const at = this.clock.now();
    return parked
      ? { id: row.id, slot: row.slot, outcome: { kind: "park", attempts, error: message, at } }
      : { id: row.id, slot: row.slot, outcome: { kind: "retry", attempts, error: message, fireAt: at + backoffDelay(attempts, this.options.backoff) } };
  }

}

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
