// The test kit's virtual time: it jumps from one due instant to the next (loops do not wake every
// virtual second), `stop()` is downtime until `start()`, the clock can be stepped back as NTP would
// step a host's, and a spec on the stores of an earlier one resumes where it left off.
import { describe, expect, it } from "vitest";
import { MemoryStore, ScheduleRule, aggregateRef, commandMessage } from "../../runtime/index.js";
import { VirtualClock, scheduleSpec } from "../../runtime/testing/index.js";
import { order as orderAggregate, T } from "./fixtures/order-domain.js";
import { order, probe, receiveJob, S, shopSaga, stock } from "./sagas/saga-domain.js";

const START = "2026-10-20T00:00:00Z";
const suppliers = { delivered: async () => ["mug"] };

function jobSpec(options: { start?: string; clock?: VirtualClock; store?: MemoryStore; cron?: string } = {}) {
  return scheduleSpec({
    aggregates: [order, stock],
    sagas: [shopSaga(probe(), [receiveJob({ cron: options.cron ?? "0 0 6 * * *" })])],
    services: { "shop.Suppliers": suppliers },
    ...(options.clock ? { clock: options.clock } : { start: options.start ?? START }),
    ...(options.store ? { store: options.store } : {}),
  });
}

describe("virtual time costs nothing while nothing is due", () => {
  it("30 days of a daily job: one tick a day, and the loops poll a few times per due instant, not per virtual second", async () => {
    const spec = jobSpec();
    await spec.advanceTime("30d");
    expect(spec.derived.map((d) => d.tick.slot)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    const polls = spec.app.core.timers.describe().polls + spec.app.subscriptions.describe().reduce((n, loop) => n + loop.polls, 0);
    // Every loop looked at each of the ~30 instants something was due (plus the work each tick caused);
    // a loop woken each virtual second of its poll interval would have polled 2,592,000 times.
    expect(polls).toBeLessThan(3_000);
    await spec.stop();
  });
});

describe("stop() is downtime until start()", () => {
  it("nothing ticks or is delivered while stopped, however far time moves; the next start applies the misfire policy", async () => {
    const spec = jobSpec({ cron: "0 * * * * *" }); // every minute, COALESCE
    await spec.advanceTime("2m");
    expect(spec.derived.map((d) => [d.tick.slot, d.tick.skipped])).toEqual([
      [1, 0],
      [2, 0],
    ]);
    await spec.stop();
    await spec.advanceTime("5m30s");
    expect(spec.derived).toHaveLength(2); // downtime: no tick
    await spec.start();
    await spec.advanceTime("1s");
    // COALESCE: of the five slots missed while stopped, only the latest runs; `skipped` counts the rest
    expect(spec.derived.slice(2).map((d) => [d.tick.slot, d.tick.skipped])).toEqual([[7, 4]]);
    await spec.stop();
  });

  it("a scheduled command due during the downtime is delivered at the start, not before", async () => {
    const spec = scheduleSpec({ aggregates: [orderAggregate], services: { paymentPolicy: { gracePeriod: "15m" }, probe: () => {} }, start: START });
    const ref = aggregateRef("eshop-order", "order", "o-1");
    await spec.send(commandMessage(T.CreateOrder, { items: ["mug"] }, ref));
    await spec.send(commandMessage(T.ConfirmOrder, {}, ref)); // schedules its CancelOrder 15 minutes later
    await spec.stop();
    expect(await spec.advanceTime("20m")).toEqual([]);
    await spec.start();
    const sent = await spec.advanceTime("1s");
    expect(sent.map((s) => [s.command.type, new Date(s.at).toISOString()])).toEqual([[T.CancelOrder, "2026-10-20T00:20:00.000Z"]]);
    await spec.stop();
  });
});

describe("a virtual clock stepped back (NTP)", () => {
  it("reads the earlier time, and the runtime still never delivers early", async () => {
    const spec = scheduleSpec({ aggregates: [orderAggregate], services: { paymentPolicy: { gracePeriod: "15m" }, probe: () => {} }, start: START });
    const ref = aggregateRef("eshop-order", "order", "o-1");
    await spec.send(commandMessage(T.CreateOrder, { items: ["mug"] }, ref));
    const due = Date.parse(START) + 60_000;
    await spec.send(commandMessage(T.SetSchedule, { key: "k", rule: ScheduleRule.at(due), command: { type: T.Touch, body: {} } }, ref));
    await spec.advanceTime("55s");
    spec.clock.setTime(Date.parse(START) + 45_000); // stepped back 10 s
    expect(spec.clock.now()).toBe(Date.parse(START) + 45_000);
    // 10 s later on the monotonic line the timer's sleep ends, but the clock reads only 55 s past START
    expect(await spec.advanceTime("10s")).toEqual([]);
    const sent = await spec.advanceTime("5s");
    expect(sent.map((s) => [s.command.type, s.at])).toEqual([[T.Touch, due]]);
    expect(sent.every((s) => s.at >= s.due)).toBe(true);
    await spec.stop();
  });

  it("refuses to advance backwards, and says how to step the reading back", async () => {
    const clock = new VirtualClock(START);
    await expect(clock.advanceTo(Date.parse(START) - 1)).rejects.toThrow(/setTime/);
  });
});

describe("a spec on the stores and clock of an earlier one", () => {
  it("resumes its subscriptions from their checkpoints (no event handled twice) and its timers", async () => {
    const clock = new VirtualClock(START);
    const store = new MemoryStore();
    const first = jobSpec({ clock, store });
    await first.send(commandMessage(S.Receive, { quantity: 5 }, aggregateRef("shop", "Stock", "mug")));
    await first.send(commandMessage(S.CreateOrder, { product: "mug", quantity: 1 }, aggregateRef("shop", "Order", "o-1")));
    await first.advanceTime("1s");
    const reserved = async () => (await store.events.load(aggregateRef("shop", "Stock", "mug"))).events.filter((e) => e.type === S.Reserved).length;
    expect(await reserved()).toBe(1);
    const handledBefore = await first.app.subscriptions.checkpoint("ShopSaga.onOrderCreated");
    await first.stop();

    const second = jobSpec({ clock, store });
    await second.advanceTime("1s");
    expect(await second.app.subscriptions.checkpoint("ShopSaga.onOrderCreated")).toBe(handledBefore);
    expect(await reserved()).toBe(1);
    // the hold the first spec's saga asked for is released by the second, an hour after it was set
    const sent = await second.advanceTime("1h");
    expect(sent.map((s) => [s.command.type, s.result?.outcome])).toEqual([[S.Release, "decided"]]);
    await second.stop();
  });

  it("re-drives a parked timer through the host", async () => {
    const spec = scheduleSpec({ aggregates: [order, stock], start: START, timers: { maxAttempts: 1 } });
    await spec.send(commandMessage(S.Receive, { quantity: 1 }, aggregateRef("shop", "Stock", "mug")));
    const set = await spec.send(
      commandMessage("wow.ScheduleCommand", { key: "boom", rule: ScheduleRule.after("1m"), command: { type: S.Explode, body: {} } }, aggregateRef("shop", "Stock", "mug")),
    );
    expect(set.succeeded).toBe(true);
    const [failed] = await spec.advanceTime("1m");
    expect(failed).toMatchObject({ parked: true });
    const [parked] = await spec.store.timers.list({ status: "parked" });
    expect(await spec.redrive("timer", parked!.id)).toBe(true);
    expect(await spec.redrive("timer", parked!.id)).toBe(false); // pending now: nothing to re-drive
    const [again] = await spec.advanceTime("1s");
    expect(again).toMatchObject({ parked: true, command: { requestId: `${parked!.id}#1` } });
    await spec.stop();
  });
});
