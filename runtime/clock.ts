/** Time as the runtime sees it. Every wait goes through the clock, so tests run on a virtual one. */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
  /**
   * Resolves after `ms` (or at once when `signal` aborts; it never rejects). An `idle` sleep is a
   * loop's look for work nobody announced: a virtual clock wakes it only when it stops at an instant
   * for some other reason, so that virtual time with nothing due costs nothing.
   */
  sleep(ms: number, signal?: AbortSignal, options?: SleepOptions): Promise<void>;
  /**
   * Marks work started now (a poll and the deliveries or handlers it runs) that time should not move
   * past before it settles, even while it awaits I/O; returns it. A virtual clock holds its time
   * for it, so what the work commits is committed at the instant it began; the system clock has
   * nothing to hold and leaves it out.
   */
  track?<T>(work: Promise<T>): Promise<T>;
}

export interface SleepOptions {
  readonly idle?: boolean;
}

/** `work`, tracked by `clock` when it tracks work. */
export function tracked<T>(clock: Clock, work: Promise<T>): Promise<T> {
  return clock.track === undefined ? work : clock.track(work);
}

/** The longest delay setTimeout holds: a longer one fires after 1 ms (with a TimeoutOverflowWarning). */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep(ms, signal) {
    return new Promise((resolve) => {
      if (signal?.aborted) return resolve();
      let left = Math.max(0, ms);
      let handle: ReturnType<typeof setTimeout>;
      const done = () => {
        clearTimeout(handle);
        signal?.removeEventListener("abort", done);
        resolve();
      };
      // A long wait goes in pieces setTimeout can hold.
      const wait = () => {
        const piece = Math.min(left, MAX_TIMEOUT_MS);
        left -= piece;
        handle = setTimeout(left > 0 ? wait : done, piece);
      };
      wait();
      signal?.addEventListener("abort", done, { once: true });
    });
  },
};
