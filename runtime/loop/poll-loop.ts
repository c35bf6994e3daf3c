// The one poll loop of the runtime (timers, each subscription, cluster chores): poll, then sleep until
// the next due instant or the poll interval, whichever comes first; a wake cuts the sleep short; stop
// ends it after the poll in hand. Polls never overlap. Each loop describes its state for operators.
import { tracked, type Clock } from "../clock.js";

/** What a poll found. */
export interface PollOutcome {
  /** There is more to do now (a full batch): poll again as soon as other I/O has had its turn. */
  readonly again?: boolean;
  /** When something is next due (epoch ms on the clock), if known: the loop sleeps no longer than that. */
  readonly nextDueAt?: number | undefined;
}

export interface PollLoopOptions<O extends PollOutcome = PollOutcome> {
  readonly name: string;
  readonly clock: Clock;
  /** The longest sleep: how often the loop looks for work nobody announced (ms, ≥ 1). */
  readonly interval: number;
  readonly poll: (signal: AbortSignal) => Promise<O>;
  /** A poll that failed as a whole; the loop goes on after a whole interval. */
  readonly onError: (error: unknown) => void;
}

/** A loop's state, as operators see it. */
export interface LoopState {
  readonly name: string;
  readonly running: boolean;
  readonly polls: number;
  readonly failures: number;
  readonly lastPollAt?: number;
  readonly lastError?: string;
  /** While it sleeps: until when at most. */
  readonly sleepingUntil?: number;
}

const WOKEN = "woken";

/** The longest wait after failed polls, however many failed in a row (unless the interval is longer). */
const MAX_BACKOFF_MS = 30_000;

export class PollLoop<O extends PollOutcome = PollOutcome> {
  private loop: Promise<void> | undefined;
  private stopping = new AbortController();
  private napping: AbortController | undefined;
  private sleepingUntil: number | undefined;
  /** While it sleeps: when its due sleep ends (Infinity: nothing is due). */
  private dueWakeAt: number | undefined;
  /** Set by a wake: the next sleep is skipped (the wake may come while a poll runs). */
  private woken = false;
  /** The end of the last poll queued: polls (the loop's, `runOnce`'s) run one at a time. */
  private tail: Promise<unknown> = Promise.resolve();
  private polls = 0;
  private failures = 0;
  /** Failed polls since the last that succeeded: the backoff after a failure. */
  private failuresInARow = 0;
  private lastPollAt: number | undefined;
  private lastError: string | undefined;

  constructor(private readonly options: PollLoopOptions<O>) {}

  get running(): boolean {
    return this.loop !== undefined;
  }

  start(): void {
    if (this.loop) return;
    this.stopping = new AbortController();
    this.loop = this.run(this.stopping.signal);
  }

  /** Ends the loop after the poll in hand (its sleep is cut short). */
  async stop(): Promise<void> {
    this.stopping.abort();
    const loop = this.loop;
    this.loop = undefined;
    await loop;
  }

  /** Polls now: cuts the current sleep short, or has the loop poll again after the poll in hand. */
  wake(): void {
    this.woken = true;
    // A reason given: no DOMException is built per wake (one per commit on a busy host).
    this.napping?.abort(WOKEN);
  }

  /**
   * Wakes the loop unless it already sleeps until `instant` or earlier (a commit set something due
   * then). Measured against its due sleep, not the poll interval: a virtual clock may run the interval's
   * look only much later. While it polls, it polls again after (the poll may have missed the commit).
   */
  wakeBy(instant: number): void {
    if (this.dueWakeAt === undefined || this.dueWakeAt > instant) this.wake();
  }

  /** One poll, queued behind the one in hand (tests, drains). */
  runOnce(signal: AbortSignal = new AbortController().signal): Promise<O> {
    const next = this.tail.then(() => this.pollCounted(signal));
    this.tail = next.catch(() => undefined);
    return next;
  }

  describe(): LoopState {
    return {
      name: this.options.name,
      running: this.running,
      polls: this.polls,
      failures: this.failures,
      ...(this.lastPollAt === undefined ? {} : { lastPollAt: this.lastPollAt }),
      ...(this.lastError === undefined ? {} : { lastError: this.lastError }),
      ...(this.sleepingUntil === undefined ? {} : { sleepingUntil: this.sleepingUntil }),
    };
  }

  private async pollCounted(signal: AbortSignal): Promise<O> {
    this.polls++;
    this.lastPollAt = this.options.clock.now();
    try {
      return await this.options.poll(signal);
    } catch (error) {
      this.failures++;
      this.lastError = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      throw error;
    }
  }

  private async run(signal: AbortSignal): Promise<void> {
    const { clock, interval } = this.options;
    while (!signal.aborted) {
      this.woken = false;
      let outcome: O | undefined;
      let failed = false;
      try {
        outcome = await tracked(clock, this.runOnce(signal));
        this.failuresInARow = 0;
      } catch (error) {
        failed = true;
        this.failuresInARow++;
        this.options.onError(error);
      }
      if (signal.aborted) break;
      if (outcome?.again === true) {
        // More is due now: the next poll goes as soon as other I/O has had its turn (no timer, not even 0 ms).
        await new Promise<void>((resolve) => setImmediate(resolve));
        continue;
      }
      if (this.woken) continue;
      // After a failure, a whole interval (what failed is likely still there), doubling while the
      // failures go on (a store that cannot be reached is not asked every interval), up to 30 s.
      if (failed) {
        await this.sleep(undefined, Math.min(interval * 2 ** (this.failuresInARow - 1), Math.max(interval, MAX_BACKOFF_MS)), signal);
        continue;
      }
      const due = outcome?.nextDueAt;
      await this.sleep(due === undefined ? undefined : Math.max(0, due - clock.now()), interval, signal);
    }
  }

  /**
   * Sleeps `dueIn` ms (something is due then) or `interval` ms (a look for unannounced work), whichever
   * is shorter. A look is an idle sleep: a virtual clock runs it only when it stops for something else.
   */
  private async sleep(dueIn: number | undefined, interval: number, stop: AbortSignal): Promise<void> {
    const { clock } = this.options;
    const napping = new AbortController();
    this.napping = napping;
    const onStop = () => napping.abort(WOKEN);
    stop.addEventListener("abort", onStop, { once: true });
    const now = clock.now();
    this.sleepingUntil = now + Math.min(dueIn ?? interval, interval);
    this.dueWakeAt = dueIn === undefined ? Infinity : now + dueIn;
    try {
      if (dueIn !== undefined && dueIn <= interval) await clock.sleep(dueIn, napping.signal);
      else {
        const sleeps = [clock.sleep(interval, napping.signal, { idle: true })];
        if (dueIn !== undefined) sleeps.push(clock.sleep(dueIn, napping.signal));
        await Promise.race(sleeps);
        napping.abort(WOKEN); // the other sleep goes too
      }
    } finally {
      stop.removeEventListener("abort", onStop);
      if (this.napping === napping) this.napping = undefined;
      this.sleepingUntil = undefined;
      this.dueWakeAt = undefined;
    }
  }
}
