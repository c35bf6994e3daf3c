// `@Blocking` on Node: the handler's events run beside its subscription's ordered loop, those of
// different aggregates side by side (up to wow.subscriptions.blocking-concurrency), those of one
// aggregate in order, and the checkpoint passes a batch only once all of it is handled.
import { describe, expect, it } from "vitest";
import { aggregateRef, commandMessage, type SagaRegistration, type WowConfig } from "../../../runtime/index.js";
import { scheduleSpec, VirtualClock } from "../../../runtime/testing/index.js";
import { stores } from "../fixtures/stores.js";
import { order, probe, S, shopSaga, stock } from "./saga-domain.js";

const START = "2026-10-20T00:00:00Z";
const T0 = Date.parse(START);

/** The shop saga whose OrderCreated handler takes 1 s (virtual) and records when each event started and ended. */
function slowSaga(clock: VirtualClock, blocking: boolean, seen: { order: string; start: number; end: number }[]): SagaRegistration {
  const saga = shopSaga(probe());
  const handler = saga.events[S.OrderCreated]!;
  return {
    ...saga,
    events: {
      [S.OrderCreated]: {
        ...handler,
        blocking,
        commands: [],
        schedules: [],
        async handle(event) {
          const start = clock.now();
          await clock.sleep(1_000);
          seen.push({ order: `${event.aggregate.id}#${(event.body as { n: number }).n}`, start: start - T0, end: clock.now() - T0 });
          return [];
        },
      },
    },
  };
}

const config = (concurrency: number) => ({ wow: { schedules: {}, timers: { "poll-interval": "1s", "max-attempts": 3 }, subscriptions: { "blocking-concurrency": concurrency } } }) as unknown as WowConfig;

describe.each(stores)("@Blocking handlers ($name)", (store) => {
  it("run side by side across aggregates, up to the concurrency limit; the checkpoint passes them once all are done", async () => {
    const clock = new VirtualClock(START);
    const seen: { order: string; start: number; end: number }[] = [];
    const s = scheduleSpec({ aggregates: [order, stock], sagas: [slowSaga(clock, true, seen)], clock, store: store.open(), config: config(2) });
    for (const id of ["a", "b", "c"]) await s.send(commandMessage(S.CreateOrder, { product: "mug", quantity: 1, n: 1 }, aggregateRef("shop", "Order", id)));
    await s.advanceTime("3s");
    expect(seen.map((x) => [x.order, x.start, x.end])).toEqual([["a#1", 0, 1_000], ["b#1", 0, 1_000], ["c#1", 1_000, 2_000]]);
    expect(await s.app.subscriptions.checkpoint("ShopSaga.onOrderCreated")).toBe(3);
    await s.stop();
  });

  it("keep one aggregate's events in journal order", async () => {
    const clock = new VirtualClock(START);
    const seen: { order: string; start: number; end: number }[] = [];
    const two = { ...order, commands: { ...order.commands, [S.CreateOrder]: { ...order.commands[S.CreateOrder]!, create: false } } };
    const s = scheduleSpec({ aggregates: [two, stock], sagas: [slowSaga(clock, true, seen)], clock, store: store.open(), config: config(8) });
    await s.send(commandMessage(S.CreateOrder, { product: "mug", quantity: 1, n: 1 }, aggregateRef("shop", "Order", "a")));
    await s.send(commandMessage(S.CreateOrder, { product: "mug", quantity: 1, n: 2 }, aggregateRef("shop", "Order", "a")));
    await s.send(commandMessage(S.CreateOrder, { product: "mug", quantity: 1, n: 1 }, aggregateRef("shop", "Order", "b")));
    await s.advanceTime("3s");
    // b's event runs beside a's first; a's second waits for a's first.
    expect(seen.map((x) => [x.order, x.start, x.end])).toEqual([["a#1", 0, 1_000], ["b#1", 0, 1_000], ["a#2", 1_000, 2_000]]);
    await s.stop();
  });

  it("without @Blocking, one after another", async () => {
    const clock = new VirtualClock(START);
    const seen: { order: string; start: number; end: number }[] = [];
    const s = scheduleSpec({ aggregates: [order, stock], sagas: [slowSaga(clock, false, seen)], clock, store: store.open(), config: config(8) });
    for (const id of ["a", "b"]) await s.send(commandMessage(S.CreateOrder, { product: "mug", quantity: 1, n: 1 }, aggregateRef("shop", "Order", id)));
    await s.advanceTime("3s");
    expect(seen.map((x) => [x.order, x.start])).toEqual([["a#1", 0], ["b#1", 1_000]]);
    await s.stop();
  });
});
