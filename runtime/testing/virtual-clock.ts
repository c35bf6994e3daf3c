import type { Clock, SleepOptions } from "../clock.js";
import { parseDuration, type DurationInput } from "../model/duration.js";
import { toEpochMs, type InstantInput } from "../model/schedule-rule.js";

interface Sleeper {
  /** On the monotonic time line (`advanceTime` moves it; `setTime` does not). */
  readonly wakeAt: number;
  readonly seq: number;
  readonly resolve: () => void;
}

/**
 * Event-loop turns in a row in which nothing used the clock, after which the work at an instant
 * counts as done. Every step of the runtime's work reads the clock (a poll, a decision, a pass of a
 * subscription) or sleeps on it, and runs in-process: microtasks, or one `setImmediate` between the
 * batches of a drain, so a drain uses the clock in every turn. One quiet turn would do; the second
 * is margin for a step that waits a turn before it reads the clock. (Each is paid per wake.)
 */
const QUIET_TURNS = 2;

/**
 * Quiet turns in a row after which work `track`ed as in flight, and not settled, counts as waiting
 * for something the run at this instant does not bring (a promise a test resolves after the advance):
 * time moves on without it. Work that awaits I/O or `setImmediate` settles long before.
 */
const IN_FLIGHT_QUIET_TURNS = 10_000;

/** Turns one virtual instant may take before the clock gives up: a loop that never sleeps on it. */
const DEFAULT_MAX_TURNS = 100_000;

export interface VirtualClockOptions {
  /** Event-loop turns the work at one virtual instant may take before `advanceTo` fails (default 100,000). */
  readonly maxTurnsPerInstant?: number;
}

function turn(): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(resolve));
}

/**
 * A clock that moves only when told. `advanceTime` wakes every sleeper in due order, and at each
 * instant lets all the work run until it is quiet again (and the work in flight that was `track`ed
 * has settled) before moving on, so timers fire at their exact virtual times (a backlog of many
 * batches included). It jumps from one instant something is due to the next: idle sleeps (a loop's
 * look for unannounced work) run only at those instants, so time with nothing due costs nothing.
 *
 * Sleeps are measured on a monotonic time line, as the system's timers are: `setTime` steps the
 * clock's reading (back or forward, as NTP would) without moving sleepers.
 */
export class VirtualClock implements Clock {
  /** The monotonic time line sleepers wait on. */
  private current: number;
  /** What `now()` reads beyond the monotonic time (moved by `setTime`). */
  private offset = 0;
  private sleepers: Sleeper[] = [];
  private idleSleepers: Sleeper[] = [];
  private seq = 0;
  /** Bumped by every use of the clock: how `settle` sees that work is still going on. */
  private uses = 0;
  /** Turns spent at the current instant in this `advanceTo`. */
  private turnsHere = 0;
  private readonly maxTurns: number;
  /** Tracked work not settled yet. */
  private inFlight = 0;
  /** A store's operations under way (`io`): time waits for them however many turns they take. */
  private pendingIo = 0;

  constructor(start: InstantInput = 0, options: VirtualClockOptions = {}) {
    this.current = toEpochMs(start);
    this.maxTurns = options.maxTurnsPerInstant ?? DEFAULT_MAX_TURNS;
  }

  now(): number {
    this.uses++;
    return this.current + this.offset;
  }

  /**
   * Sets what the clock reads, without moving time for sleepers: stepping back (or forward) as NTP
   * steps a system clock. Nothing that waits wakes early or late for it; work that reads the clock
   * sees the new time.
   */
  setTime(instant: InstantInput): void {
    this.uses++;
    this.offset = toEpochMs(instant) - this.current;
  }

  sleep(ms: number, signal?: AbortSignal, options?: SleepOptions): Promise<void> {
    this.uses++;
    const idle = options?.idle === true;
    return new Promise((resolve) => {
      if (signal?.aborted) return resolve();
      const onAbort = () => {
        this.uses++;
        if (idle) this.idleSleepers = this.idleSleepers.filter((s) => s !== sleeper);
        else this.sleepers = this.sleepers.filter((s) => s !== sleeper);
        resolve();
      };
      // Woken by the clock: the listener goes too, or every sleep on a long-lived signal (a
      // service's stop signal, through retries and naps) would leave one behind.
      const wake = () => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      };
      const sleeper: Sleeper = { wakeAt: this.current + Math.max(0, ms), seq: this.seq++, resolve: wake };
      if (idle) this.idleSleepers.push(sleeper);
      else this.sleepers.push(sleeper);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  /**
   * Marks `work` as in flight at the current instant: time does not move on until it settles, even
   * while it awaits something other than this clock (a service's I/O, `setImmediate`) for more turns
   * than the work of an instant usually goes quiet for (up to IN_FLIGHT_QUIET_TURNS). Returns `work`.
   */
  track<T>(work: Promise<T>): Promise<T> {
    this.inFlight++;
    const done = () => {
      this.inFlight--;
      this.uses++; // what follows the work's end gets its turns too
    };
    void work.then(done, done);
    return work;
  }

  /**
   * Marks `work` as a store's I/O, which always ends (in a result or an error): while it is under way,
   * the work at the current instant is not quiet, however many event-loop turns a database server's
   * round trips and commits take. Returns `work`.
   */
  io<T>(work: Promise<T>): Promise<T> {
    this.pendingIo++;
    const done = () => {
      this.pendingIo--;
      this.uses++;
    };
    void work.then(done, done);
    return work;
  }

  /** Moves time forward by `duration`, waking sleepers (and running what they start) in order. */
  async advanceTime(duration: DurationInput): Promise<void> {
    await this.advanceTo(this.current + this.offset + parseDuration(duration));
  }

  /**
   * Moves time forward to `instant` (as the clock reads). At each instant on the way (now, every
   * sleeper's wake time, `instant` itself) the idle sleepers due by then wake too, and the work runs
   * until it is quiet before time moves on; throws if it never is.
   */
  async advanceTo(instant: InstantInput): Promise<void> {
    const target = toEpochMs(instant) - this.offset;
    if (target < this.current) throw new RangeError("a virtual clock does not go back: step its reading back with setTime");
    this.turnsHere = 0;
    await this.settle();
    for (;;) {
      const next = this.earliest();
      if (next && next.wakeAt <= target) {
        this.sleepers = this.sleepers.filter((s) => s !== next);
        this.moveTo(next.wakeAt);
        next.resolve();
      } else if (this.current < target) {
        this.moveTo(target);
      } else {
        return;
      }
      this.wakeIdle();
      // Work at the new instant may sleep until it too (a zero wait): the loop wakes it before returning.
      await this.settle();
    }
  }

  /** Number of pending sleepers, idle ones included (for tests of the clock itself). */
  get pending(): number {
    return this.sleepers.length + this.idleSleepers.length;
  }

  /** The idle sleepers due by now, at an instant the clock stopped at. */
  private wakeIdle(): void {
    if (this.idleSleepers.length === 0) return;
    const due = this.idleSleepers.filter((s) => s.wakeAt <= this.current);
    if (due.length === 0) return;
    this.idleSleepers = this.idleSleepers.filter((s) => s.wakeAt > this.current);
    for (const sleeper of due) sleeper.resolve();
  }

  private moveTo(instant: number): void {
    if (instant > this.current) this.turnsHere = 0;
    this.current = Math.max(this.current, instant);
  }

  /** Yields turns until QUIET_TURNS pass in a row without a use of the clock (IN_FLIGHT_QUIET_TURNS while tracked work is in flight), and no store I/O is under way. */
  private async settle(): Promise<void> {
    for (let quiet = 0; quiet < (this.inFlight > 0 ? IN_FLIGHT_QUIET_TURNS : QUIET_TURNS); ) {
      const seen = this.uses;
      await turn();
      if (this.pendingIo > 0) {
        quiet = 0;
        continue;
      }
      if (++this.turnsHere > this.maxTurns) {
        throw new Error(
          `VirtualClock: the work at ${new Date(this.current).toISOString()} did not settle within ${this.maxTurns} event-loop turns ` +
            "(a loop that keeps running without sleeping on the clock, or that sleeps 0 ms over and over)",
        );
      }
      quiet = this.uses === seen ? quiet + 1 : 0;
    }
  }

  private earliest(): Sleeper | undefined {
    let best: Sleeper | undefined;
    for (const s of this.sleepers) if (!best || s.wakeAt < best.wakeAt || (s.wakeAt === best.wakeAt && s.seq < best.seq)) best = s;
    return best;
  }
}
