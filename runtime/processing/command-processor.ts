import type { Clock } from "../clock.js";
import { DuplicateRequestError, VersionConflictError, type Journal } from "../journal/journal.js";
import { refKey } from "../model/aggregate-ref.js";
import type { CommandResult } from "../model/command-result.js";
import { eventsOf } from "../model/decision.js";
import { CommandRejected, ErrorCodes } from "../model/errors.js";
import type { CommandMessage, EventMessage } from "../model/messages.js";
import { servicesFor, type AggregateRegistration, type Services } from "../model/registration.js";
import { cronNext as defaultCronNext, type CronNext } from "../timers/cron-next.js";
import { buildCommit } from "./commit-builder.js";
import { guardCommand } from "./command-guard.js";
import { commandResult, duplicateMessage, unroutableResult } from "./command-results.js";
import { AggregateRegistry, type CommandRoute } from "./registry.js";
import { ScopeRecorder } from "./scope-recorder.js";
import { timeOrderedId } from "./time-ordered-id.js";

export interface CommandProcessorOptions {
  readonly journal: Journal;
  readonly aggregates: readonly AggregateRegistration[];
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

/** Wow's error code for a command whose `expectedVersion` (`Command-Aggregate-Version`) is not the aggregate's version (HTTP 409). */
export const CommandExpectVersionConflict = "CommandExpectVersionConflict";

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
 * Runs tasks one after another per key, tasks of different keys side by side. A key is kept only while
 * a task holds or awaits it (memory stays bounded by the keys in use). Not reentrant: a task that
 * waits for another task of its own key never ends.
 */
export class KeyedLock {
  /** Per key, the promise the next task waits for: settled when the last task queued so far ends. */
  private readonly tails = new Map<string, Promise<void>>();

  /** Keys held or awaited now. */
  get size(): number {
    return this.tails.size;
  }

  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const before = this.tails.get(key);
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    this.tails.set(key, mine);
    try {
      if (before !== undefined) await before; // never rejects
      return await task();
    } finally {
      if (this.tails.get(key) === mine) this.tails.delete(key); // nobody queued behind: drop the key
      release();
    }
  }
}

/** One lock per journal, shared by every processor over it (a host has two: its own, and the batch path's `afterConflict`). */
const locksByJournal = new WeakMap<Journal, KeyedLock>();

/** The per-aggregate lock (by `refKey`) of the processors over `journal` in this process. */
export function aggregateLocks(journal: Journal): KeyedLock {
  let lock = locksByJournal.get(journal);
  if (lock === undefined) {
    lock = new KeyedLock();
    locksByJournal.set(journal, lock);
  }
  return lock;
}

/** Something that takes commands: the processor, or a test's wrapper around it. */
export type CommandSender = (command: CommandMessage) => Promise<CommandResult>;

/**
 * Decides commands: load (replay), guard (duplicate, expected version, create/delete), decide, and
 * commit events with schedule changes in one append. Rejections are results; any other exception is a
 * technical failure and rejects the returned promise (nothing was committed).
 *
 * Commands to one aggregate sent in this process are decided in turn (a lock per aggregate, shared by
 * the processors over one journal, held from the load to the commit), so they do not conflict with
 * one another; a version conflict comes from another process (or the timer service's batch path,
 * which commits without the lock), and is retried, bounded, with backoff. Each attempt decides on its
 * own copy of the command's body: a handler that normalises it in place cannot compound over retries
 * (nor change the caller's object). A handler must not wait for a command to its own aggregate: that
 * command waits for the handler's turn to end.
 */
export class CommandProcessor {
  private readonly registry: AggregateRegistry;
  private readonly journal: Journal;
  private readonly clock: Clock;
  private readonly services: Services;
  private readonly maxConflictRetries: number;
  private readonly conflictBackoff: (retry: number) => number;
  private readonly locks: KeyedLock;
  private readonly newId: () => string;
  private readonly cronNext: CronNext;

  constructor(options: CommandProcessorOptions) {
    this.registry = new AggregateRegistry(options.aggregates);
    this.journal = options.journal;
    this.clock = options.clock;
    this.services = options.services ?? {};
    this.maxConflictRetries = options.maxConflictRetries ?? DEFAULT_CONFLICT_RETRIES;
    this.conflictBackoff = options.conflictBackoff ?? ((retry) => defaultConflictBackoff(retry));
    this.locks = aggregateLocks(options.journal);
    this.newId = options.newId ?? (() => timeOrderedId());
    this.cronNext = options.cronNext ?? defaultCronNext;
  }

  /** Bound, so it can be passed around as a CommandSender. */
  readonly send: CommandSender = async (command) => {
    const route = this.registry.route(command.type, command.aggregate);
    if (!route || route.aggregate.context !== command.aggregate.context || route.aggregate.aggregate !== command.aggregate.aggregate) {
      return unroutableResult(command);
    }
    const key = refKey(command.aggregate);
    for (let attempt = 0; ; attempt++) {
      // A scheduled delivery's conflicts are retried at once: once they are exhausted, the timer service
      // retries the delivery with its own backoff (wow.timers), at times the timer's rules fix.
      if (attempt > 0 && command.schedule === undefined) {
        const wait = this.conflictBackoff(attempt);
        if (wait > 0) await this.backOff(wait);
      }
      try {
        return await this.locks.run(key, () => this.decideOnce(route, command));
      } catch (error) {
        if (error instanceof DuplicateRequestError) return this.duplicate(command);
        if (!(error instanceof VersionConflictError)) throw error;
        // The sender asked for the version it saw: another writer won; deciding again would not be what it asked.
        if (command.expectedVersion !== undefined) return expectConflict(command, error.actual);
        if (attempt >= this.maxConflictRetries) {
          return commandResult(command, "rejected", ErrorCodes.EventVersionConflict, error.message, error.actual);
        }
      }
    }
  };

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

  private async decideOnce(route: CommandRoute, command: CommandMessage): Promise<CommandResult> {
    const ref = command.aggregate;
    const { decided, stream } = await this.journal.loadForDecision(ref, command.requestId);
    if (decided) return this.duplicate(command, decided.version);
    if (command.expectedVersion !== undefined && command.expectedVersion !== stream.version) return expectConflict(command, stream.version);
    const guard = guardCommand(route, stream.version, stream.deleted);
    if (guard) return this.rejected(command, guard.code, guard.message, stream.version);
    const state = replay(route.aggregate, stream.events);
    const scope = new ScopeRecorder(this.clock.now());
    let decision;
    try {
      decision = await route.command.decide(state, freshCopy(command), scope, servicesFor(route.command.services, this.services, command.type));
    } catch (error) {
      if (error instanceof CommandRejected) return this.rejected(command, error.code, error.message, stream.version);
      throw error;
    }
    let commit;
    try {
      commit = buildCommit({
        command,
        expectedVersion: stream.version,
        events: eventsOf(decision),
        schedules: scope.changes,
        deletes: route.command.delete === true,
        now: this.clock.now(),
        newId: this.newId,
        cronNext: this.cronNext,
      });
    } catch (error) {
      if (error instanceof CommandRejected) return this.rejected(command, error.code, error.message, stream.version);
      throw error;
    }
    const appended = await this.journal.append(commit);
    return commandResult(command, "decided", ErrorCodes.Ok, "", appended.version, appended.events);
  }

  /** A rejection is recorded under its request id, so a re-send is a duplicate and is not decided again. */
  private async rejected(command: CommandMessage, code: string, message: string, version: number): Promise<CommandResult> {
    try {
      await this.journal.append({ aggregate: command.aggregate, events: [], timers: [], request: { requestId: command.requestId, version, errorCode: code } });
    } catch (error) {
      if (error instanceof DuplicateRequestError) return this.duplicate(command);
      throw error;
    }
    return commandResult(command, "rejected", code, message, version);
  }

  private async duplicate(command: CommandMessage, version?: number): Promise<CommandResult> {
    const seenVersion = version ?? (await this.journal.findRequest(command.aggregate, command.requestId))?.version ?? 0;
    return commandResult(command, "duplicate", ErrorCodes.DuplicateRequestId, duplicateMessage(command.requestId), seenVersion);
  }
}

/** A version conflict with the command's `expectedVersion`: not recorded under its request id (nothing was decided; the same request may come again with the version it now expects). */
function expectConflict(command: CommandMessage, actual: number): CommandResult {
  return commandResult(command, "rejected", CommandExpectVersionConflict, `expected version ${command.expectedVersion}, the aggregate is at ${actual}`, actual);
}

/** The command as one attempt decides it: its body a deep copy of the caller's, so that changes made in place stay in that attempt. */
function freshCopy(command: CommandMessage): CommandMessage {
  const body = command.body;
  return typeof body !== "object" || body === null ? command : { ...command, body: copyData(body, new Map()) };
}

/**
 * A deep copy of plain data (objects, arrays, dates; cycles kept). Instances of other classes (a Map,
 * a domain value object) are shared as they are: copying them could lose their prototype or private
 * state.
 */
function copyData(value: unknown, seen: Map<object, unknown>): unknown {
  if (typeof value !== "object" || value === null) return value;
  const done = seen.get(value);
  if (done !== undefined) return done;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    seen.set(value, out);
    for (const item of value) out.push(copyData(item, seen));
    return out;
  }
  if (value instanceof Date) return new Date(value.getTime());
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  const out: Record<string, unknown> = proto === null ? Object.create(null) : {};
  seen.set(value, out);
  for (const key of Object.keys(value)) {
    // defineProperty: a `__proto__` key (JSON.parse makes it an own property) must stay a property, not become the prototype.
    Object.defineProperty(out, key, { value: copyData((value as Record<string, unknown>)[key], seen), writable: true, enumerable: true, configurable: true });
  }
  return out;
}

/** Folds domain events into state; system events (`wow.*`) touch it only where the registration has an applier for them. */
export function replay<S>(registration: AggregateRegistration<S>, events: readonly EventMessage[]): S {
  let state = registration.initialState();
  for (const event of events) {
    const apply = registration.events[event.type];
    if (apply) state = apply(state, event);
  }
  return state;
}
