// Runs durable subscriptions over the journal: each reads events by global position from its own
// checkpoint, in a loop of its own, so that one subscription waiting out a retry back-off (or a slow
// handler) delays no other. A handler failure is retried with backoff, then the event is parked
// (durably, with its error) and the subscription goes on with the next events. Parked events can be
// re-driven.
import type { Clock } from "../clock.js";
import { PollLoop, type LoopState } from "../loop/poll-loop.js";
import type { DurationInput } from "../model/duration.js";
import { optionValues, type Backoff, type BackoffInput } from "../model/option-values.js";
import type { EventMessage } from "../model/messages.js";
import { FencedWriteError } from "../store/cluster-store.js";
import type { EventStore } from "../store/event-store.js";
import { parkedId, type ParkedEvent, type SubscriptionStore } from "../store/subscription-store.js";
import { backoffDelay } from "../model/backoff.js";
import { SideBySide } from "./side-by-side.js";

/** Which attempt of an event a handler is making, and the signal that aborts when the host stops. */
export interface HandleAttempt {
  /** 1 for the first. */
  readonly number: number;
  /** The last attempt: failing it parks the event. */
  readonly last: boolean;
  readonly signal: AbortSignal;
}

/** One durable subscription: a name (`<processor>.<function>`), which events it takes, and its handler. */
export interface Subscription {
  readonly name: string;
  accepts(event: EventMessage): boolean;
  /** Throws on a technical failure (retried, then parked). */
  handle(event: EventMessage, attempt: HandleAttempt): Promise<void>;
  /** Its own retry policy (default: the service's). */
  readonly retry?: { readonly maxAttempts: number; readonly backoff: Backoff };
  /**
   * `@Blocking`: events handled side by side, up to this many at once (default 1: one after another).
   * Events with the same `orderKey` still go in journal order; the checkpoint passes a batch once all
   * of its events are settled.
   */
  readonly concurrency?: number;
  orderKey?(event: EventMessage): string;
  /**
   * Whether this host runs the subscription now (default: always). A sharded job's partition
   * (`<name>#<partition>`) is active only while this host owns the partition: while inactive its
   * checkpoint is not touched here, and once active again it resumes from the store's checkpoint,
   * which the partition's other owners share.
   */
  active?(): boolean;
}

/** How often positions moved only in memory (events passed over) are written while busy. */
const SKIP_FLUSH_MS = 1_000;

export interface SubscriptionOptions {
  /** Attempts per event before it is parked (default 5). */
  readonly maxAttempts?: number;
  /** Retry delay after the n-th failure: min(max, initial · factor^(n-1)) (default 1 s, ×2, ≤ 1 min). */
  readonly backoff?: BackoffInput;
  /** How often an idle subscription looks for new events (default 1 s); commits on this node wake it at once. */
  readonly pollInterval?: DurationInput;
  /** Events read per batch (default 200). */
  readonly batchSize?: number;
}

export interface SubscriptionServiceOptions extends SubscriptionOptions {
  readonly events: EventStore;
  readonly store: SubscriptionStore;
  readonly clock: Clock;
  readonly subscriptions: readonly Subscription[];
  readonly onError?: (error: unknown) => void;
  readonly onParked?: (entry: ParkedEvent) => void;
}

/** A subscription's state on this host. */
interface Worker {
  readonly subscription: Subscription;
  /** The last event handled or passed over; undefined: to be read from the store (not loaded, stopped, or inactive). */
  position: number | undefined;
  /** The position the store holds, as far as this host knows. */
  persisted: number;
  flushedAt: number;
  /** Its loop: passes (the loop's, `drain`'s) run one at a time per subscription. */
  readonly loop: PollLoop<{ readonly read: number; readonly again: boolean }>;
  /** A `@Blocking` subscription's events in flight. */
  side?: SideBySide | undefined;
  /** Its position's writes, one after another. */
  writes: Promise<void>;
}

/** How often a wait reads the checkpoint of a subscription another host runs. */
const REMOTE_CHECKPOINT_POLL_MS = 50;

export class SubscriptionService {
  readonly subscriptions: readonly Subscription[];
  private readonly events: EventStore;
  private readonly store: SubscriptionStore;
  private readonly clock: Clock;
  private readonly maxAttempts: number;
  private readonly backoff: Backoff;
  private readonly pollInterval: number;
  private readonly batchSize: number;
  private readonly onError: (error: unknown) => void;
  private readonly onParked: ((entry: ParkedEvent) => void) | undefined;
  private readonly workers = new Map<string, Worker>();
  /** Journal reads in flight by start position: subscriptions at the same position share one. */
  private readonly reads = new Map<number, Promise<EventMessage[]>>();
  /** Callers waiting for subscriptions to pass a position; each returns true once satisfied. */
  private readonly waiters = new Set<() => boolean>();

  constructor(options: SubscriptionServiceOptions) {
    this.events = options.events;
    this.store = options.store;
    this.clock = options.clock;
    this.subscriptions = options.subscriptions;
    // Checked as the timers' are: a zero poll interval or retry delay would make each loop spin.
    const { count, duration, backoff } = optionValues("subscriptions");
    this.maxAttempts = count("maxAttempts", options.maxAttempts, 5);
    this.backoff = backoff(options.backoff, { initial: 1_000, factor: 2, max: 60_000 });
    this.pollInterval = duration("pollInterval", options.pollInterval, 1_000);
    this.batchSize = count("batchSize", options.batchSize, 200);
    this.onError = options.onError ?? ((error) => console.error("wow.subscriptions: poll failed", error));
    this.onParked = options.onParked;
    for (const subscription of this.subscriptions) {
      if (this.workers.has(subscription.name)) throw new Error(`subscription ${subscription.name} is registered twice`);
      const worker: Worker = {
        subscription,
        position: undefined,
        persisted: 0,
        flushedAt: 0,
        writes: Promise.resolve(),
        // A pass that read events polls again at once: there may be more.
        loop: new PollLoop({
          name: `subscription ${subscription.name}`,
          clock: this.clock,
          interval: this.pollInterval,
          poll: async (signal) => {
            const read = await this.catchUp(worker, signal);
            return { read, again: read > 0 };
          },
          onError: this.onError,
        }),
      };
      this.workers.set(subscription.name, worker);
    }
  }

  get running(): boolean {
    return [...this.workers.values()].some((w) => w.loop.running);
  }

  /** One loop per subscription: none waits on another's retries or slow handler. */
  start(): void {
    for (const worker of this.workers.values()) worker.loop.start();
  }

  /**
   * A commit on this host: the subscriptions that take one of its `events` look for new events now
   * (all of them without `events`); the others pass over those events at their next poll. (A wake
   * costs a journal read: waking every subscription made each command pay for the ones it does not concern.)
   */
  wake(events?: readonly EventMessage[]): void {
    // A read already in flight may predate the commit: later passes read afresh.
    this.reads.clear();
    for (const worker of this.workers.values()) {
      if (events === undefined || events.some((event) => worker.subscription.accepts(event))) worker.loop.wake();
    }
  }

  /** Each subscription's loop, for operators. */
  describe(): LoopState[] {
    return [...this.workers.values()].map((w) => w.loop.describe());
  }

  /**
   * Graceful: each event in hand finishes (or its retry wait is cut short and it is re-read next
   * start). Positions are written, then forgotten: while stopped, another host may move a shared
   * checkpoint (a partition's), so the next start reads them from the store.
   */
  async stop(): Promise<void> {
    const workers = [...this.workers.values()];
    await Promise.all(workers.map((w) => w.loop.stop()));
    // A @Blocking subscription's events in flight end (their retries cut short), and its position is written.
    await Promise.all(workers.map(async (w) => {
      await w.side?.drained();
      await w.writes;
      w.side = undefined;
    }));
    for (const worker of workers) {
      // A position not written is read again at the next start: its events are passed over once more, harmlessly.
      await this.flush(worker).catch((error: unknown) => this.onError(error));
      worker.position = undefined;
    }
  }

  /** One pass of every subscription (each reads from its own position). Returns how many events were read. */
  async pollOnce(signal: AbortSignal = new AbortController().signal): Promise<number> {
    const read = await Promise.all([...this.workers.values()].map((w) => w.loop.runOnce(signal)));
    return read.reduce((sum, outcome) => sum + outcome.read, 0);
  }

  /** Catches every subscription up with the journal (tests and shutdown). */
  async drain(): Promise<void> {
    while ((await this.pollOnce()) > 0) {}
  }

  /** A subscription's position: the last event it handled or passed over. */
  async checkpoint(subscription: string): Promise<number> {
    return this.workers.get(subscription)?.position ?? this.store.checkpoint(subscription);
  }

  /** Moves a subscription to `position` (0: from the beginning): an operator's replay; handlers see the events again. */
  async reset(subscription: string, position: number): Promise<void> {
    const worker = this.workers.get(subscription);
    // Set before the write: a pass in progress sees its position moved and leaves it (the reset wins).
    if (worker) {
      worker.position = position;
      worker.side = undefined;
    }
    await this.store.saveCheckpoint(subscription, position);
    if (worker) worker.persisted = position;
    this.wake();
  }

  parked(limit?: number, tenantId?: string, after?: readonly [number, string]): Promise<ParkedEvent[]> {
    return this.store.parked(limit, tenantId, after);
  }

  /** An operator's re-drive: the parked event is handled once more; on success it leaves the parked list. */
  async redrive(id: string): Promise<{ readonly found: boolean; readonly ok: boolean; readonly error?: string }> {
    const entry = await this.store.parkedEvent(id);
    const subscription = entry && this.workers.get(entry.subscription)?.subscription;
    if (!entry || !subscription) return { found: false, ok: false };
    try {
      await subscription.handle(entry.event, { number: entry.attempts + 1, last: true, signal: new AbortController().signal });
    } catch (error) {
      const message = describe(error);
      await this.store.park({ ...entry, attempts: entry.attempts + 1, error: message, parkedAt: this.clock.now() });
      return { found: true, ok: false, error: message };
    }
    await this.store.unpark(id);
    return { found: true, ok: true };
  }

  /**
   * Reads one batch past the subscription's position and takes what it accepts. A handled (or
   * parked) event moves the durable checkpoint at once; events only passed over move it in memory,
   * written now and then (re-reading them after a crash is harmless). Returns how many events were read.
   */
  private async catchUp(worker: Worker, signal: AbortSignal): Promise<number> {
    const { subscription } = worker;
    if (!this.isActive(worker)) return 0;
    let position = worker.position ?? (await this.load(worker));
    if ((subscription.concurrency ?? 1) > 1) return this.catchUpSideBySide(worker, position, await this.read(worker.side?.dispatched ?? position), signal);
    const events = await this.read(position);
    for (const event of events) {
      // Moved meanwhile (an operator's reset), stopping, or the partition went to another host: leave the rest.
      if (signal.aborted || worker.position !== position || !this.isActive(worker)) break;
      if (subscription.accepts(event)) {
        if (!(await this.handleWithRetries(subscription, event, signal))) break;
        if (worker.position !== position) break;
        position = event.position!;
        worker.position = position;
        await this.store.saveCheckpoint(subscription.name, position);
        worker.persisted = position;
        this.notifyWaiters();
      } else {
        position = event.position!;
        worker.position = position;
      }
    }
    this.notifyWaiters();
    if (this.clock.now() - worker.flushedAt >= SKIP_FLUSH_MS) await this.flush(worker);
    return events.length;
  }

  /**
   * A `@Blocking` subscription's pass: each event it takes is dispatched as it is read (SideBySide),
   * and the position follows what is settled, written as it moves.
   */
  private async catchUpSideBySide(worker: Worker, from: number, events: readonly EventMessage[], signal: AbortSignal): Promise<number> {
    const { subscription } = worker;
    let side = worker.side;
    if (side === undefined || side.dispatched < from) {
      const fresh: SideBySide = new SideBySide(from, subscription.concurrency ?? 1, subscription.orderKey ?? (() => ""), (event, cut) => this.handleWithRetries(subscription, event, cut), () => this.settle(worker, fresh));
      worker.side = side = fresh;
    }
    const mine = side;
    const start = side.dispatched;
    const fresh = events.filter((event) => event.position! > start);
    for (const event of fresh) {
      if (signal.aborted || worker.side !== mine || !this.isActive(worker)) break;
      if (!subscription.accepts(event)) mine.pass(event);
      else if (!(await mine.dispatch(event, signal))) break;
    }
    this.settle(worker, mine);
    return fresh.length;
  }

  /** A side-by-side subscription's settled position, moved in memory and written (one write at a time). */
  private settle(worker: Worker, side: SideBySide): void {
    if (worker.side !== side) return; // reset or inactive meanwhile: that position is not this one's
    const position = side.settled();
    if (worker.position !== undefined && position <= worker.position) return;
    worker.position = position;
    this.notifyWaiters();
    worker.writes = worker.writes.then(async () => {
      if (worker.side !== side || position <= worker.persisted) return;
      await this.store.saveCheckpoint(worker.subscription.name, position);
      worker.persisted = position;
      worker.flushedAt = this.clock.now();
    }).catch((error: unknown) => this.onError(error));
  }

  /** Events each subscription has still to pass on this host, given the journal's last position. */
  async lag(head: number): Promise<Map<string, number>> {
    const lag = new Map<string, number>();
    for (const worker of this.workers.values()) {
      if (!(worker.subscription.active?.() ?? true)) continue;
      lag.set(worker.subscription.name, Math.max(0, head - (worker.position ?? (await this.store.checkpoint(worker.subscription.name)))));
    }
    return lag;
  }

  /**
   * Resolves true once every subscription that `include` names (and, given `events`, that takes one
   * of them) has moved past `position` (the event handled, parked or passed over); false after
   * `timeoutMs`. One that runs on this host is followed in memory; one whose partition another host
   * owns, by the checkpoint that host writes as it handles. What a caller waiting for
   * `Command-Wait-Stage: SAGA_HANDLED` (or `EVENT_HANDLED`) waits on.
   */
  async waitUntilPast(position: number, include: (subscription: string) => boolean, timeoutMs: number, events?: readonly EventMessage[]): Promise<boolean> {
    const workers = [...this.workers.values()].filter((w) => include(w.subscription.name) && (events === undefined || events.some((e) => w.subscription.accepts(e))));
    /** Checkpoints of the subscriptions run elsewhere, as last read from the store. */
    const remote = new Map<Worker, number>();
    const passed = (w: Worker) => ((w.subscription.active?.() ?? true) ? w.position !== undefined && w.position >= position : (remote.get(w) ?? -1) >= position);
    const past = () => workers.every(passed);
    if (past()) return true;
    // A subscription a commit did not wake (none of its events concerned it) would pass only at its next poll.
    for (const worker of workers) if (!passed(worker)) worker.loop.wake();
    const timeout = new AbortController();
    const reached = new Promise<boolean>((resolve) => {
      const waiter = () => {
        if (!past()) return false;
        resolve(true);
        return true;
      };
      this.waiters.add(waiter);
      timeout.signal.addEventListener("abort", () => {
        this.waiters.delete(waiter);
        resolve(false);
      }, { once: true });
    });
    const expired = this.clock.sleep(timeoutMs, timeout.signal).then(() => timeout.abort());
    const elsewhere = this.followRemote(workers, remote, position, timeout.signal, () => this.notifyWaiters());
    const outcome = await reached;
    timeout.abort();
    await Promise.all([expired, elsewhere]);
    return outcome;
  }

  /** Reads the checkpoints of the `workers` inactive here until each is past `position` (or `signal` ends it). */
  private async followRemote(workers: readonly Worker[], remote: Map<Worker, number>, position: number, signal: AbortSignal, onRead: () => void): Promise<void> {
    while (!signal.aborted) {
      const away = workers.filter((w) => !(w.subscription.active?.() ?? true) && (remote.get(w) ?? -1) < position);
      if (away.length === 0 && workers.every((w) => w.subscription.active?.() ?? true)) return;
      for (const w of away) {
        try {
          remote.set(w, await this.store.checkpoint(w.subscription.name));
        } catch (error) {
          this.onError(error);
        }
      }
      onRead();
      await this.clock.sleep(REMOTE_CHECKPOINT_POLL_MS, signal).catch(() => undefined);
    }
  }

  private notifyWaiters(): void {
    for (const waiter of this.waiters) if (waiter()) this.waiters.delete(waiter);
  }

  /**
   * Whether the subscription runs here now. Once inactive, its position is forgotten unwritten: the
   * partition's new owner moves the shared checkpoint, and this host re-reads it if it gains the
   * partition again.
   */
  private isActive(worker: Worker): boolean {
    if (worker.subscription.active?.() ?? true) return true;
    worker.position = undefined;
    worker.side = undefined;
    return false;
  }

  /** The position from the store (an operator's reset while reading wins). */
  private async load(worker: Worker): Promise<number> {
    const stored = await this.store.checkpoint(worker.subscription.name);
    if (worker.position !== undefined) return worker.position;
    worker.position = stored;
    worker.persisted = stored;
    worker.flushedAt = this.clock.now();
    return stored;
  }

  private read(from: number): Promise<EventMessage[]> {
    let read = this.reads.get(from);
    if (!read) {
      const fresh = this.events.read(from, this.batchSize);
      const forget = () => {
        if (this.reads.get(from) === fresh) this.reads.delete(from);
      };
      fresh.then(forget, forget);
      this.reads.set(from, fresh);
      read = fresh;
    }
    return read;
  }

  /** Writes the position if it moved in memory only. */
  private async flush(worker: Worker): Promise<void> {
    worker.flushedAt = this.clock.now();
    const position = worker.position;
    if (position === undefined || position === worker.persisted) return;
    await this.store.saveCheckpoint(worker.subscription.name, position);
    worker.persisted = position;
  }

  /** True when the event is settled (handled or parked); false when stopping cut a retry short. */
  private async handleWithRetries(subscription: Subscription, event: EventMessage, signal: AbortSignal): Promise<boolean> {
    const maxAttempts = subscription.retry?.maxAttempts ?? this.maxAttempts;
    const backoff = subscription.retry?.backoff ?? this.backoff;
    for (let attempt = 1; ; attempt++) {
      try {
        await subscription.handle(event, { number: attempt, last: attempt >= maxAttempts, signal });
        return true;
      } catch (error) {
        // Stopping cut the attempt short: not a failure; the event is read again at the next start.
        if (signal.aborted) return false;
        // A write under a partition lease this host lost: the event is the partition's new owner's, neither retried nor parked here.
        if (error instanceof FencedWriteError) {
          this.onError(error);
          return false;
        }
        // The partition went to another host meanwhile (this host paused, or lost the store): so did the event.
        if (!(subscription.active?.() ?? true)) return false;
        if (attempt >= maxAttempts) {
          const entry: ParkedEvent = {
            id: parkedId(subscription.name, event.position!),
            subscription: subscription.name,
            position: event.position!,
            event,
            attempts: attempt,
            error: describe(error),
            parkedAt: this.clock.now(),
          };
          await this.store.park(entry);
          this.onParked?.(entry);
          return true;
        }
        await this.clock.sleep(backoffDelay(attempt, backoff), signal);
        if (signal.aborted || !(subscription.active?.() ?? true)) return false;
      }
    }
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  return String(error);
}
