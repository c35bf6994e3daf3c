// Timer options that would turn the poller into a busy loop (or retries into a storm) are refused
// when the service is built, with an error naming the option.
import { describe, expect, it } from "vitest";
import { AggregateRegistry, CommandProcessor, MemoryStore, resolveTimerOptions, TimerService, TIMER_DEFAULTS, type TimerOptions } from "../../runtime/index.js";
import { VirtualClock } from "../../runtime/testing/index.js";

describe("resolveTimerOptions", () => {
  it("defaults, and durations in any accepted form", () => {
    expect(resolveTimerOptions()).toEqual(TIMER_DEFAULTS);
    expect(resolveTimerOptions({ pollInterval: "30d", lease: "PT1M", backoff: { initial: "250ms", factor: 1.5, max: "1h" } })).toMatchObject({
      pollInterval: 30 * 86_400_000,
      lease: 60_000,
      backoff: { initial: 250, factor: 1.5, max: 3_600_000 },
    });
  });

  it.each<[string, TimerOptions]>([
    ["pollInterval", { pollInterval: 0 }],
    ["pollInterval", { pollInterval: "0s" }],
    ["pollInterval", { pollInterval: "soon" }],
    ["pollInterval", { pollInterval: "9".repeat(400) }],
    ["lease", { lease: 0 }],
    ["lease", { lease: Number.POSITIVE_INFINITY }],
    ["backoff.initial", { backoff: { initial: 0 } }],
    ["backoff.initial", { backoff: { initial: -5 } }],
    ["backoff.factor", { backoff: { factor: Number.NaN } }],
    ["backoff.factor", { backoff: { factor: -2 } }],
    ["backoff.factor", { backoff: { factor: 0.5 } }],
    ["backoff.factor", { backoff: { factor: Number.POSITIVE_INFINITY } }],
    ["backoff.factor", { backoff: { factor: "2" as unknown as number } }],
    ["backoff.max", { backoff: { initial: "10s", max: "1s" } }],
    ["batchSize", { batchSize: 1e300 }],
    ["maxAttempts", { maxAttempts: 0 }],
    ["concurrency", { concurrency: 2.5 }],
  ])("refuses a bad %s: %j", (name, options) => {
    expect(() => resolveTimerOptions(options)).toThrow(RangeError);
    expect(() => resolveTimerOptions(options)).toThrow(`timers.${name}`);
  });

  it("misfireThreshold is gone, and says so rather than being ignored", () => {
    expect(() => resolveTimerOptions({ misfireThreshold: "60s" } as TimerOptions)).toThrow(/timers\.misfireThreshold/);
  });

  it("the timer service refuses them when it is built, not by polling without pause", () => {
    const build = (pollInterval: number) => {
      const store = new MemoryStore();
      const registry = new AggregateRegistry([]);
      const clock = new VirtualClock(0);
      return new TimerService({ timers: store.timers, events: store.events, registry, processor: new CommandProcessor({ events: store.events, registry, clock }), clock, pollInterval });
    };
    expect(() => build(0)).toThrow(/timers\.pollInterval/);
    expect(() => build(1)).not.toThrow();
  });
});
