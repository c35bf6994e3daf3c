// Subscription options are checked as the timers' are: a value that would make each subscription's
// loop spin (a zero poll interval or retry delay) or its retries storm is refused, naming the option.
import { describe, expect, it } from "vitest";
import { MemoryStore, MemorySubscriptionStore, SubscriptionService, type SubscriptionOptions } from "../../../runtime/index.js";
import { VirtualClock } from "../../../runtime/testing/index.js";

const build = (options: SubscriptionOptions) =>
  new SubscriptionService({ ...options, events: new MemoryStore(), store: new MemorySubscriptionStore(), clock: new VirtualClock("2026-01-01T00:00:00Z"), subscriptions: [] });

describe("SubscriptionService options", () => {
  it.each<[string, SubscriptionOptions]>([
    ["pollInterval", { pollInterval: 0 }],
    ["pollInterval", { pollInterval: "0ms" }],
    ["pollInterval", { pollInterval: "PT0S" }],
    ["backoff.initial", { backoff: { initial: 0 } }],
    ["backoff.factor", { backoff: { factor: Number.NaN } }],
    ["backoff.factor", { backoff: { factor: 0.5 } }],
    ["backoff.max", { backoff: { initial: "1m", max: "1s" } }],
    ["maxAttempts", { maxAttempts: 0 }],
    ["batchSize", { batchSize: 0 }],
    ["batchSize", { batchSize: 2.5 }],
  ])("refuses %s in %o", (name, options) => {
    expect(() => build(options)).toThrow(new RegExp(`^subscriptions\\.${name.replace(".", "\\.")}\\b`));
  });

  it("accepts the forms a duration may take", () => {
    expect(() => build({ pollInterval: "250ms", backoff: { initial: "PT1S", factor: 1.5, max: "10m" }, maxAttempts: 3, batchSize: 50 })).not.toThrow();
  });
});
