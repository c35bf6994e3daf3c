import type { Clock } from "../clock.js";
import { parseDuration, type DurationInput } from "../model/duration.js";
import { toEpochMs, type InstantInput } from "../model/schedule-rule.js";

interface Sleeper {
  readonly wakeAt: number;
  readonly seq: number;
  readonly resolve: () => void;
}

/** Lets pending promise chains (all in-process, all microtasks or immediates) run to their next wait. */
async function settle(turns = 2): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/**
 * A clock that moves only when told. `advanceTime` wakes every sleeper in due order, letting the
 * work each one starts run before moving on, so timers fire at their exact virtual times.
 */
export class VirtualClock implements Clock {
  private current: number;
  private sleepers: Sleeper[] = [];
  private seq = 0;

  constructor(start: InstantInput = 0) {
    this.current = toEpochMs(start);
  }

  now(): number {
    return this.current;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      if (signal?.aborted) return resolve();
      const onAbort = () => {
        this.sleepers = this.sleepers.filter((s) => s !== sleeper);
        resolve();
      };
      // Woken by the clock: the listener goes too, or every sleep on a long-lived signal (a
      // service's stop signal, through retries and naps) would leave one behind.
      const wake = () => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      };
      const sleeper: Sleeper = { wakeAt: this.current + Math.max(0, ms), seq: this.seq++, resolve: wake };
      this.sleepers.push(sleeper);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  /** Moves time forward by `duration`, waking sleepers (and running what they start) in order. */
  async advanceTime(duration: DurationInput): Promise<void> {
    await this.advanceTo(this.current + parseDuration(duration));
  }

  async advanceTo(instant: InstantInput): Promise<void> {
    const target = toEpochMs(instant);
    if (target < this.current) throw new RangeError("a virtual clock does not go back");
    await settle();
    for (;;) {
      const next = this.earliest();
      if (!next || next.wakeAt > target) break;
      this.sleepers = this.sleepers.filter((s) => s !== next);
      this.current = Math.max(this.current, next.wakeAt);
      next.resolve();
      await settle();
    }
    this.current = target;
    await settle();
  }

  /** Number of pending sleepers (for tests of the clock itself). */
  get pending(): number {
    return this.sleepers.length;
  }

  private earliest(): Sleeper | undefined {
    let best: Sleeper | undefined;
    for (const s of this.sleepers) if (!best || s.wakeAt < best.wakeAt || (s.wakeAt === best.wakeAt && s.seq < best.seq)) best = s;
    return best;
  }
}
