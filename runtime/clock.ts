/** Time as the runtime sees it. Every wait goes through the clock, so tests run on a virtual one. */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
  /** Resolves after `ms` (or at once when `signal` aborts; it never rejects). */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep(ms, signal) {
    return new Promise((resolve) => {
      if (signal?.aborted) return resolve();
      const done = () => {
        clearTimeout(handle);
        signal?.removeEventListener("abort", done);
        resolve();
      };
      const handle = setTimeout(done, Math.max(0, ms));
      signal?.addEventListener("abort", done, { once: true });
    });
  },
};
