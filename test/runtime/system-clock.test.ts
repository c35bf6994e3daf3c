// systemClock.sleep: setTimeout holds at most 2^31-1 ms (longer waits fire after 1 ms, with a
// TimeoutOverflowWarning); a long wait goes in pieces. setTimeout is replaced, so nothing sleeps.
import { afterEach, describe, expect, it, vi } from "vitest";
import { systemClock } from "../../runtime/index.js";

const MAX_TIMEOUT = 2 ** 31 - 1;

describe("systemClock.sleep", () => {
  afterEach(() => vi.restoreAllMocks());

  /** Captures setTimeout calls; `fire()` runs the pending callback. */
  function fakeTimeouts() {
    const delays: number[] = [];
    let pending: (() => void) | undefined;
    vi.spyOn(globalThis, "setTimeout").mockImplementation(((callback: () => void, delay: number) => {
      delays.push(delay);
      pending = callback;
      return { ref() {}, unref() {} } as unknown as NodeJS.Timeout;
    }) as unknown as typeof setTimeout);
    vi.spyOn(globalThis, "clearTimeout").mockImplementation(() => {});
    const fire = async () => {
      const callback = pending!;
      pending = undefined;
      callback();
      await Promise.resolve();
    };
    return { delays, fire, get pending() { return pending !== undefined; } };
  }

  it("splits a wait longer than 2^31-1 ms into waits setTimeout can hold", async () => {
    const timers = fakeTimeouts();
    let done = false;
    const thirtyDays = 30 * 86_400_000;
    void systemClock.sleep(thirtyDays).then(() => (done = true));
    while (timers.pending && !done) await timers.fire();
    await Promise.resolve();
    expect(done).toBe(true);
    expect(timers.delays.every((d) => d >= 0 && d <= MAX_TIMEOUT)).toBe(true);
    expect(timers.delays.reduce((a, b) => a + b, 0)).toBe(thirtyDays);
  });

  it("a short wait is one timeout; an abort ends a long wait at once", async () => {
    const timers = fakeTimeouts();
    await Promise.race([systemClock.sleep(1_500), timers.fire()]);
    expect(timers.delays).toEqual([1_500]);
    const abort = new AbortController();
    let done = false;
    void systemClock.sleep(3 * MAX_TIMEOUT, abort.signal).then(() => (done = true));
    await timers.fire(); // the first piece ends; the next one starts
    expect(done).toBe(false);
    abort.abort();
    await Promise.resolve();
    expect(done).toBe(true);
  });
});
