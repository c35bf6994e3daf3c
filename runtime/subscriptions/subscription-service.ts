// Runs durable subscriptions over the journal: each reads events by global position from its own
// checkpoint; a handler failure is retried with backoff, then the event is parked (durably, with its
// error) and the subscription goes on with the next events. Parked events can be re-driven.
import type { Clock } from "../clock.js";
import type { Journal } from "../journal/journal.js";
import { parseDuration, type DurationInput } from "../model/duration.js";
import type { EventMessage } from "../model/messages.js";
import { backoffDelay } from "../timers/backoff.js";
import { parkedId, type ParkedEvent, type SubscriptionStore } from "./subscription-store.js";

/** One durable subscription: a name (`<processor>.<function>`), which events it takes, and its handler. */
export interface Subscription {
  readonly name: string;
  accepts(event: EventMessage): boolean;
  /** Throws on a technical failure (retried, then parked). */
  handle(event: EventMessage): Promise<void>;
}

/** How often positions moved only in memory (events passed over) are written while busy. */
const SKIP_FLUSH_MS = 1_000;

const WOKEN = "woken";

export interface SubscriptionOptions {
  /** Attempts per event before it is parked (default 5). */
  readonly maxAttempts?: number;
  /** Retry delay after the n-th failure: min(max, initial · factor^(n-1)) (default 1 s, ×2, ≤ 1 min). */
  readonly backoff?: { readonly initial?: DurationInput; readonly factor?: number; readonly max?: DurationInput };
  /** How often an idle subscription looks for new events (default 1 s); commits on this node wake it at once. */
  readonly pollInterval?: DurationInput;
  /** Events read per batch (default 200). */
  readonly batchSize?: number;
}

export interface SubscriptionServiceOptions extends SubscriptionOptions {
  readonly journal: Journal;
  readonly store: SubscriptionStore;
  readonly clock: Clock;
  readonly subscriptions: readonly Subscription[];
  readonly onError?: (error: unknown) => void;
  readonly onParked?: (entry: ParkedEvent) => void;
}

export class SubscriptionService {
  readonly subscriptions: readonly Subscription[];
  private readonly journal: Journal;
  private readonly store: SubscriptionStore;
  private readonly clock: Clock;
  private readonly maxAttempts: number;
  private readonly backoff: { initial: number; factor: number; max: number };
  private readonly pollInterval: number;
  private readonly batchSize: number;
  private readonly onError: (error: unknown) => void;
  private readonly onParked: ((entry: ParkedEvent) => void) | undefined;
  private loop: Promise<void> | undefined;
  private abort = new AbortController();
  private napping: AbortController | undefined;
  private woken = false;
  /** Each subscription's position (handled or passed over), and what the store holds. */
  private readonly positions = new Map<string, number>();
  private readonly persisted = new Map<string, number>();
  private flushedAt = 0;

  constructor(options: SubscriptionServiceOptions) {
    this.journal = options.journal;
    this.store = options.store;
    this.clock = options.clock;
    this.subscriptions = options.subscriptions;
    const names = new Set<string>();
    for (const s of this.subscriptions) {
      if (names.has(s.name)) throw new Error(`subscription ${s.name} is registered twice`);
      names.add(s.name);
    }
    this.maxAttempts = options.maxAttempts ?? 5;
    if (!Number.isInteger(this.maxAttempts) || this.maxAttempts < 1) throw new RangeError("subscriptions.maxAttempts must be a positive integer");
    this.backoff = {
      initial: options.backoff?.initial === undefined ? 1_000 : parseDuration(options.backoff.initial),
      factor: options.backoff?.factor ?? 2,
      max: options.backoff?.max === undefined ? 60_000 : parseDuration(options.backoff.max),
    };
    this.pollInterval = options.pollInterval === undefined ? 1_000 : parseDuration(options.pollInterval);
    this.batchSize = options.batchSize ?? 200;
    this.onError = options.onError ?? ((error) => console.error("wow.subscriptions: poll failed", error));
    this.onParked = options.onParked;
  }

  get running(): boolean {
    return this.loop !== undefined;
  }

  start(): void {
    if (this.loop || this.subscriptions.length === 0) return;
    this.abort = new AbortController();
    const signal = this.abort.signal;
    this.loop = (async () => {
      while (!signal.aborted) {
        this.woken = false;
        let handled = 0;
        try {
          handled = await this.pollOnce(signal);
        } catch (error) {
          this.onError(error);
        }
        if (signal.aborted) break;
        if (handled === 0 && !this.woken) await this.nap(this.pollInterval, signal);
      }
    })();
  }

  /** A commit on this node: look for new events now. */
  wake(): void {
    this.woken = true;
    // A reason given: no DOMException is built per wake (one per commit on a busy node).
    this.napping?.abort(WOKEN);
  }

  /** Graceful: the event in hand finishes (or its retry wait is cut short and it is re-read next start). */
  async stop(): Promise<void> {
    this.abort.abort();
    const loop = this.loop;
    this.loop = undefined;
    await loop;
    await this.flush();
  }

  /**
   * One pass: one read of the journal from the earliest position any subscription is at, then
   * each subscription takes the events past its own position. Returns how many events were read.
   */
  async pollOnce(signal: AbortSignal = new AbortController().signal): Promise<number> {
    for (const s of this.subscriptions) {
      if (!this.positions.has(s.name)) {
        const stored = await this.store.checkpoint(s.name);
        this.positions.set(s.name, stored);
        this.persisted.set(s.name, stored);
      }
    }
    const from = Math.min(...this.subscriptions.map((s) => this.positions.get(s.name)!));
    const events = await this.journal.read(from, this.batchSize);
    for (const subscription of this.subscriptions) {
      if (signal.aborted) break;
      await this.catchUp(subscription, events, signal);
    }
    if (this.clock.now() - this.flushedAt >= SKIP_FLUSH_MS) await this.flush();
    return events.length;
  }

  /** Catches every subscription up with the journal (tests and shutdown). */
  async drain(): Promise<void> {
    while ((await this.pollOnce()) > 0) {}
  }

  /** A subscription's position: the last event it handled or passed over. */
  async checkpoint(subscription: string): Promise<number> {
    return this.positions.get(subscription) ?? this.store.checkpoint(subscription);
  }

  /** Moves a subscription to `position` (0: from the beginning): an operator's replay; handlers see the events again. */
  async reset(subscription: string, position: number): Promise<void> {
    this.positions.set(subscription, position);
    this.persisted.set(subscription, position);
    await this.store.saveCheckpoint(subscription, position);
    this.wake();
  }

  parked(limit?: number): Promise<ParkedEvent[]> {
    return this.store.parked(limit);
  }

  /** An operator's re-drive: the parked event is handled once more; on success it leaves the parked list. */
  async redrive(id: string): Promise<{ readonly found: boolean; readonly ok: boolean; readonly error?: string }> {
    const entry = await this.store.parkedEvent(id);
    const subscription = entry && this.subscriptions.find((s) => s.name === entry.subscription);
    if (!entry || !subscription) return { found: false, ok: false };
    try {
      await subscription.handle(entry.event);
    } catch (error) {
      const message = describe(error);
      await this.store.park({ ...entry, attempts: entry.attempts + 1, error: message, parkedAt: this.clock.now() });
      return { found: true, ok: false, error: message };
    }
    await this.store.unpark(id);
    return { found: true, ok: true };
  }

  /**
   * A handled (or parked) event moves the durable checkpoint at once; events a subscription only
   * passes over move it in memory, written now and then (re-reading them after a crash is harmless).
   */
  private async catchUp(subscription: Subscription, events: readonly EventMessage[], signal: AbortSignal): Promise<void> {
    let position = this.positions.get(subscription.name)!;
    for (const event of events) {
      if (event.position! <= position) continue;
      if (subscription.accepts(event)) {
        if (!(await this.handleWithRetries(subscription, event, signal))) break;
        position = event.position!;
        await this.store.saveCheckpoint(subscription.name, position);
        this.persisted.set(subscription.name, position);
      } else {
        position = event.position!;
      }
      this.positions.set(subscription.name, position);
    }
  }

  /** Writes the positions that moved in memory only. */
  private async flush(): Promise<void> {
    this.flushedAt = this.clock.now();
    for (const [name, position] of this.positions) {
      if (this.persisted.get(name) === position) continue;
      await this.store.saveCheckpoint(name, position);
      this.persisted.set(name, position);
    }
  }

  /** True when the event is settled (handled or parked); false when stopping cut a retry short. */
  private async handleWithRetries(subscription: Subscription, event: EventMessage, signal: AbortSignal): Promise<boolean> {
    for (let attempt = 1; ; attempt++) {
      try {
        await subscription.handle(event);
        return true;
      } catch (error) {
        if (attempt >= this.maxAttempts) {
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
        await this.clock.sleep(backoffDelay(attempt, this.backoff), signal);
        if (signal.aborted) return false;
      }
    }
  }

  private async nap(ms: number, stop: AbortSignal): Promise<void> {
    const napping = new AbortController();
    this.napping = napping;
    const onStop = () => napping.abort(WOKEN);
    stop.addEventListener("abort", onStop, { once: true });
    try {
      if (!this.woken) await this.clock.sleep(ms, napping.signal);
    } finally {
      stop.removeEventListener("abort", onStop);
      if (this.napping === napping) this.napping = undefined;
    }
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  return String(error);
}
