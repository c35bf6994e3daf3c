// The runtime's promise "Sagas": a handler failure is retried, then parked, and the subscription goes on —
// and no other subscription waits on it (nor on a slow handler): each progresses on its own.
import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { aggregateRef, commandMessage } from "../../../runtime/index.js";
import { scheduleSpec, VirtualClock } from "../../../runtime/testing/index.js";
import { stores } from "../fixtures/stores.js";
import { order, probe, receiveJob, S, shopSaga, stock, suppliers } from "../sagas/saga-domain.js";

const START = "2026-10-20T00:00:00Z";
const T0 = Date.parse(START);
const MINUTE = 60_000;

describe.each(stores)("independent subscriptions ($name)", (store) => {
  it("a failing saga handler waits out its retries alone: job ticks are handled on time, and its events are parked in order", async () => {
    const p = probe();
    const s = scheduleSpec({
      aggregates: [order, stock],
      sagas: [shopSaga(p, [receiveJob({ cron: "0 * * * * *" })])], // every minute
      services: { "shop.Suppliers": suppliers },
      start: START,
      store: store.open(),
      timers: { pollInterval: "1s" },
      subscriptions: { pollInterval: "1s" }, // default retries: 5 attempts, back-off 1, 2, 4, 8 s
    });
    await s.start();
    p.fail = 1_000_000; // the saga's downstream service is down
    for (let i = 0; i < 20; i++) await s.send(commandMessage(S.CreateOrder, { product: "mug", quantity: 1 }, aggregateRef("shop", "Order", `o${i}`)));
    const handledBy: number[] = [];
    for (let m = 1; m <= 3; m++) {
      await s.advanceTime("1m");
      handledBy.push(s.derived.length);
    }
    // Each tick within the poll interval of its slot, not after the saga's 20 × 15 s of back-off.
    expect(handledBy).toEqual([1, 2, 3]);
    expect(s.derived.map((d) => d.tick.due - T0)).toEqual([MINUTE, 2 * MINUTE, 3 * MINUTE]);
    // The failing subscription itself keeps its order and its retry policy: 5 attempts, 15 s each.
    const parked = (await s.app.parked()).events;
    expect(parked.map((e) => [e.event.aggregate.id, e.attempts, e.parkedAt - T0])).toEqual(
      Array.from({ length: 12 }, (_, i) => [`o${i}`, 5, 15_000 * (i + 1)]),
    );
    await s.stop();
  });

  it("a slow handler delays only its own subscription", async () => {
    const p = probe();
    let release!: () => void;
    const stuck = new Promise<void>((resolve) => (release = resolve));
    const slowSuppliers = {
      async delivered(): Promise<string[]> {
        await stuck; // an external call that does not answer
        return ["mug"];
      },
    };
    const s = scheduleSpec({
      aggregates: [order, stock],
      sagas: [shopSaga(p, [receiveJob({ cron: "0 * * * * *" })])],
      services: { "shop.Suppliers": slowSuppliers },
      start: START,
      store: store.open(),
      timers: { pollInterval: "1s" },
      subscriptions: { pollInterval: "1s" },
    });
    await s.send(commandMessage(S.Receive, { quantity: 5 }, aggregateRef("shop", "Stock", "mug")));
    await s.advanceTime("1m"); // slot 1: the job's handler hangs
    await s.send(commandMessage(S.CreateOrder, { product: "mug", quantity: 1 }, aggregateRef("shop", "Order", "o1")));
    await s.advanceTime("2s");
    expect(p.calls).toBe(1); // the saga went on
    expect(s.derived).toEqual([]);
    release();
    await s.advanceTime("2s");
    expect(s.derived.map((d) => d.tick.slot)).toEqual([1]);
    await s.stop();
  });
});

describe("VirtualClock.sleep", () => {
  it("leaves no abort listener behind when the clock wakes the sleeper (retries share one stop signal)", async () => {
    const clock = new VirtualClock(START);
    const stop = new AbortController();
    for (let i = 0; i < 20; i++) {
      const slept = clock.sleep(1_000, stop.signal);
      await clock.advanceTime("1s");
      await slept;
    }
    expect(getEventListeners(stop.signal, "abort")).toHaveLength(0);
    const aborted = clock.sleep(1_000, stop.signal);
    stop.abort();
    await aborted;
    expect(clock.pending).toBe(0);
  });
});
