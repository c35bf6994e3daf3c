// How a job's runs go and how a timer retries a command, as declared: `@OnSchedule(overlap, timeout,
// jitter)` and `@Retry(maxAttempts, backoff, maxBackoff)` reach the manifest as written, with the
// defaults left out, and wrong values are refused where they stand.
import { describe, expect, it } from "vitest";
import { compile, diagnose } from "./helpers.js";

const shop = (job: string, handler = "") => `
  context shop
  aggregate Order {
    command PlaceOrder { item: string }
    command CancelOrder {}
    event OrderPlaced { item: string }
    event OrderCancelled {}
    @OnCommand(produces = [OrderPlaced], schedules = [CancelOrder])
    on PlaceOrder
    ${handler}
    @OnCommand(produces = [OrderCancelled])
    on CancelOrder
  }
  saga Ticker {
    ${job}
    job tick
  }
`;

describe("run policies", () => {
  it("reach the manifest as written: a job's overlap, timeout, jitter and retry, and a command's retry", () => {
    const result = compile(
      shop(
        '@OnSchedule(name = "tick", cron = "0 0 * * * *", commands = [PlaceOrder], overlap = BUFFER_ONE, timeout = "90s", jitter = "PT5S")\n    @Retry(maxAttempts = 2, maxBackoff = "1h")',
        '@Retry(maxAttempts = 7, backoff = "250ms")',
      ),
    );
    expect(result.diagnostics).toEqual([]);
    const context = result.manifest!.contexts["shop"]!;
    expect(context.jobs["tick"]).toMatchObject({ overlap: "BUFFER_ONE", timeout: "90s", jitter: "PT5S", retry: { maxAttempts: 2, maxBackoff: "1h" } });
    const commands = context.aggregates["Order"]!.commands;
    expect(commands["CancelOrder"]!.handler.retry).toEqual({ maxAttempts: 7, backoff: "250ms" });
    expect(commands["PlaceOrder"]!.handler.retry).toBeUndefined();
  });

  it("leave the defaults out: BUFFER_ALL, no timeout, no jitter, the host's retries", () => {
    const job = compile(shop('@OnSchedule(name = "tick", cron = "0 0 * * * *", commands = [PlaceOrder])')).manifest!.contexts["shop"]!.jobs["tick"]!;
    expect(job.overlap).toBe("BUFFER_ALL");
    expect(Object.keys(job)).not.toContain("timeout");
    expect(Object.keys(job)).not.toContain("jitter");
    expect(Object.keys(job)).not.toContain("retry");
  });

  it("refuse an unknown overlap with the nearest policy, and arguments of the wrong kind", () => {
    const result = compile(shop('@OnSchedule(name = "tick", cron = "0 0 * * * *", overlap = SKIPP)\n    @Retry(maxAttempts = "5", backoff = 10)'));
    expect(result.diagnostics.map((d) => d.code)).toEqual(["WOW4008", "WOW3014", "WOW3014"]);
    expect(result.diagnostics[0]!.hint).toContain("Did you mean 'SKIP'?");
    expect(result.diagnostics[0]!.hint).toContain("BUFFER_ALL, BUFFER_ONE, SKIP");
  });

  it("refuse attempts that are not a whole number from 1 to 1000, and name the limit", () => {
    for (const attempts of ["0", "2.5", "1001"]) {
      const result = compile(shop(`@OnSchedule(name = "tick", cron = "0 0 * * * *")\n    @Retry(maxAttempts = ${attempts})`));
      expect(result.diagnostics.map((d) => [d.code, d.message])).toEqual([["WOW4013", `maxAttempts must be a whole number from 1 to 1000, got ${attempts}.`]]);
    }
  });

  it("refuse a duration of 0 and one the runtime's parser cannot read, pointing at the string", () => {
    expect(diagnose(shop('@OnSchedule(name = "tick", cron = "0 0 * * * *", timeout = "0s", jitter = "1 fortnight")'))).toEqual(["WOW4012 14:62", "WOW4012 14:77"]);
  });

  it("put @Retry only on a job or a command handler", () => {
    const onSaga = compile(`
      context shop
      aggregate Order {
        command PlaceOrder { item: string }
        event OrderPlaced { item: string }
        @OnCommand(produces = [OrderPlaced])
        on PlaceOrder
      }
      saga Notify {
        @Retry(maxAttempts = 3)
        @OnEvent(commands = [])
        on OrderPlaced
      }
    `);
    expect(onSaga.diagnostics.map((d) => d.code)).toEqual(["WOW3012"]);
    expect(onSaga.diagnostics[0]!.hint).toContain("a job, or a command handler");
  });

  it("warn that @Blocking changes nothing on a command handler, and build all the same", () => {
    const result = compile(shop('@OnSchedule(name = "tick", cron = "0 0 * * * *")', "@Blocking"));
    expect(result.diagnostics.map((d) => [d.code, d.severity])).toEqual([["WOW4015", "warning"]]);
    expect(result.manifest).toBeDefined();
  });
});
