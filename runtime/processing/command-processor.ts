import type { Clock } from "../clock.js";
import { cronNext as defaultCronNext, type CronNext } from "../cron/cron-next.js";
import { refKey } from "../model/aggregate-ref.js";
import type { CommandResult } from "../model/command-result.js";
import { ErrorCodes } from "../model/errors.js";
import type { CommandMessage } from "../model/messages.js";
import type { AggregateRegistration, Services } from "../model/registration.js";
import { DuplicateRequestError, VersionConflictError } from "../store/errors.js";
import type { AppendResult, Commit, EventStore } from "../store/event-store.js";
import { commandResult, duplicateMessage, unroutableResult } from "./command-results.js";
import { decide, expectConflict, resultOf, type DecideOptions } from "./decide.js";
import { aggregateLocks, type KeyedLock } from "./keyed-lock.js";
import { AggregateRegistry, type CommandRoute } from "./registry.js";
import { timeOrderedId } from "../model/time-ordered-id.js";

export interface CommandProcessorOptions {
  readonly events: EventStore;
  /** The aggregates' routes (one registry per host: the batch path routes with it too). */
  readonly registry: AggregateRegistry;
  readonly clock: Clock;
  /** Services by name; a handler gets the ones its registration lists. */
  readonly services?: Services;
  /** Retries of a command whose append hit a version conflict (default 5). */
  readonly maxConflictRetries?: number;
  /**
   * Milliseconds to wait before conflict retry `retry` (1-based); default `defaultConflictBackoff`
   * (the first retry at once, then jittered exponential). Waited on the clock or in real time,
   * whichever ends first (the other writer is another process, which a virtual clock does not stand
   * for); outside the aggregate's lock. Not for a scheduled delivery (`command.schedule`): the timer
   * service backs its deliveries off itself.
   */
  readonly conflictBackoff?: (retry: number) => number;
  /** Event (and timer) ids; default time-ordered UUIDs (v7). */
  readonly newId?: () => string;
  readonly cronNext?: CronNext;
}

export const DEFAULT_CONFLICT_RETRIES = 5;

const BACKOFF_BASE_MS = 2;
const BACKOFF_MAX_MS = 50;

/**
 * The default wait before conflict retry `retry` (1-based), in ms. The first retry goes at once (the
 * state it meets is already the winner's); later ones wait a jittered exponential time ("equal
 * jitter": between half and all of 2, 4, 8, … ms, at most 50), so that processes fighting over one
 * hot aggregate spread out instead of colliding in step.
 */
export function defaultConflictBackoff(retry: number, random: () => number = Math.random): number {
  if (retry <= 1) return 0;
  const cap = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** (retry - 2));
  return Math.round(cap / 2 + (random() * cap) / 2);
}

/**
 * Writes a decision's commit in place of the event store's append, with the same refusals (a timer's
 * delivery writes it with its settlement, fenced by its claim).
 */
export type CommitWriter = (commit: Commit) => Promise<AppendResult>;

/** Something that takes commands: the processor, or a test's wrapper around it. */
export type CommandSender = (command: CommandMessage) => Promise<CommandResult>;

/**
 * Decides commands one at a time: load, `decide`, and append the commit (events with schedule changes
 * in one append). Rejections are results; any other exception is a technical failure and rejects the
 * returned promise (nothing was committed).
 *
 * Commands to one aggregate sent in this process are decided in turn (a lock per aggregate, held from
 * the load to the commit), so they do not conflict with one another; a version conflict comes from
 * another process (or a timer batch, which commits without the lock), and is retried, bounded, with
 * backoff. A handler must not wait for a command to its own aggregate: that command waits for the
 * handler's turn to end.
 */
export class CommandProcessor {
  private readonly registry: AggregateRegistry;
  private readonly events: EventStore;
  private readonly clock: Clock;
  private readonly maxConflictRetries: number;
  private readonly conflictBackoff: (retry: number) => number;
  private readonly lock: KeyedLock;
  readonly decideOptions: DecideOptions;

  constructor(options: CommandProcessorOptions) {
    this.registry = options.registry;
    this.events = options.events;
    this.clock = options.clock;
    this.maxConflictRetries = options.maxConflictRetries ?? DEFAULT_CONFLICT_RETRIES;
    this.conflictBackoff = options.conflictBackoff ?? ((retry) => defaultConflictBackoff(retry));
    this.lock = aggregateLocks(options.events);
    this.decideOptions = {
      clock: options.clock,
      services: options.services ?? {},
      newId: options.newId ?? (() => timeOrderedId()),
      cronNext: options.cronNext ?? defaultCronNext,
    };
  }

  /** Bound, so it can be passed around as a CommandSender. */
  readonly send: CommandSender = (command) => this.sendWith(command, 0);

  /**
   * `send`, with `triedConflicts` version conflicts already spent (a batch's commit that met one is
   * retried here with one retry fewer); `write`, when given, writes the commit instead of the append.
   */
  async sendWith(command: CommandMessage, triedConflicts: number, write?: CommitWriter): Promise<CommandResult> {
    const route = this.registry.routeFor(command);
    if (!route) return unroutableResult(command);
    const key = refKey(command.aggregate);
    for (let attempt = triedConflicts; ; attempt++) {
      // A scheduled delivery's conflicts are retried at once: once they are exhausted, the timer service
      // retries the delivery with its own backoff (wow.timers), at times the timer's rules fix.
      if (attempt > 0 && command.schedule === undefined) {
        const wait = this.conflictBackoff(attempt);
        if (wait > 0) await this.backOff(wait);
      }
      try {
        return await this.lock.run(key, () => this.decideOnce(route, command, write));
      } catch (error) {
        if (error instanceof DuplicateRequestError) return this.duplicate(command);
        if (!(error instanceof VersionConflictError)) throw error;
        // The sender asked for the version it saw: another writer won; deciding again would not be what it asked.
        if (command.expectedVersion !== undefined) return resultOf(command, expectConflict(command.expectedVersion, error.actual));
        if (attempt >= this.maxConflictRetries) {
          return commandResult(command, "rejected", ErrorCodes.EventVersionConflict, error.message, error.actual);
        }
      }
    }
  }

  /**
   * Waits `ms` on the processor's clock or in real time, whichever ends first: the same on the system
   * clock; on a virtual clock an advance wakes it at its virtual time (and the clock sees the wait), and
   * a test that never advances its clock is not stuck behind another process's conflict.
   */
  private async backOff(ms: number): Promise<void> {
    const stop = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const realTime = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
    try {
      await Promise.race([this.clock.sleep(ms, stop.signal), realTime]);
    } finally {
      clearTimeout(timer);
      stop.abort();
    }
  }

  private async decideOnce(route: CommandRoute, command: CommandMessage, write: CommitWriter | undefined): Promise<CommandResult> {
    const input = await this.events.loadForDecision(command.aggregate, command.requestId);
    const decided = await decide(route, command, input, this.decideOptions);
    if (decided.kind === "duplicate") return resultOf(command, decided);
    // A rejection is recorded under its request id without a version check: a duplicate means a twin got there first.
    const appended = decided.commit === undefined ? undefined : await (write === undefined ? this.events.append(decided.commit) : write(decided.commit));
    return resultOf(command, decided, appended);
  }

  private async duplicate(command: CommandMessage): Promise<CommandResult> {
    const seenVersion = (await this.events.findRequest(command.aggregate, command.requestId))?.version ?? 0;
    return commandResult(command, "duplicate", ErrorCodes.DuplicateRequestId, duplicateMessage(command.requestId), seenVersion);
  }
}
