// VirtualClock / scheduleSpec: one advanceTime delivers every timer due by then, at its virtual time,
// however many batches the backlog takes (the timer service drains full batches without sleeping).
import { describe, expect, it } from "vitest";
import { aggregateRef, commandMessage } from "../../runtime/index.js";
import { VirtualClock, scheduleSpec } from "../../runtime/testing/index.js";
import { stores } from "./fixtures/stores.js";
import { FIRE, SEED, seeder, target, type SeedBody } from "./fixtures/timer-domain.js";

const START = Date.parse("2026-03-01T00:00:00Z");

describe.each(stores)("advanceTime with a backlog of due timers ($name)", (store) => {
  it.each([
    { timers: 40, batchSize: 7 },
    { timers: 3_000, batchSize: 200 },
  ])("$timers timers due at one instant, batches of $batchSize: all sent at that instant by one advanceTime", async ({ timers, batchSize }) => {
    const spec = scheduleSpec({ aggregates: [seeder, target(() => spec.clock.now())], start: START, store: store.open(), timers: { batchSize } });
    const body: SeedBody = { from: 0, dues: Array.from({ length: timers }, () => START + 1_000), targets: timers };
    await spec.send(commandMessage(SEED, body, aggregateRef("load", "seeder", "s")));
    const sent = await spec.advanceTime("1s");
    expect(sent).toHaveLength(timers);
    expect(sent.every((s) => s.command.type === FIRE && s.at === START + 1_000 && s.result?.outcome === "decided")).toBe(true);
    expect(await spec.store.timers.list({ status: "pending", limit: timers })).toEqual([]);
    await spec.stop();
  });
});

describe("VirtualClock settling", () => {
  it("fails with a clear error when work at an instant never settles (a loop that never sleeps on the clock)", async () => {
    const clock = new VirtualClock(START, { maxTurnsPerInstant: 500 });
    let running = true;
    const busy = (async () => {
      while (running) {
        clock.now();
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    })();
    await expect(clock.advanceTime("1s")).rejects.toThrow(/did not settle within 500 event-loop turns/);
    running = false;
    await busy;
  });

  it("fails the same way for a loop that sleeps 0 ms over and over at one instant", async () => {
    const clock = new VirtualClock(START, { maxTurnsPerInstant: 500 });
    let running = true;
    void (async () => {
      while (running) await clock.sleep(0);
    })();
    await expect(clock.advanceTime("1s")).rejects.toThrow(/did not settle within 500 event-loop turns/);
    running = false;
  });
});
