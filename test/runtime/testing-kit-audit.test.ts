// The test kit, audited: advanceTime waits for deliveries in flight, `given` seeds one version per
// event, expectations can name a schedule's due time, and a parked delivery shows as parked. Saga
// handlers in flight hold the clock as deliveries do.
import { describe, expect, it } from "vitest";
import { ScheduleRule, aggregateRef, commandMessage, type SagaRegistration } from "../../runtime/index.js";
import { aggregateSpec, scheduleSpec } from "../../runtime/testing/index.js";
import { GRACE_KEY, T, order } from "./fixtures/order-domain.js";
import { order as shopOrder, probe, S, shopSaga, stock } from "./sagas/saga-domain.js";

const services = { paymentPolicy: { gracePeriod: "15m" } };
const ref = aggregateRef("eshop-order", "order", "o-1");

/** A probe that waits for real event-loop turns (not the virtual clock) before it answers. */
const turns = (n: number) => async () => {
  for (let i = 0; i < n; i++) await new Promise<void>((resolve) => setImmediate(resolve));
};

describe("scheduleSpec.advanceTime waits for the deliveries in flight at each instant", () => {
  it("commits a delivery whose service awaits setImmediate at its due time, before advanceTime returns", async () => {
    const spec = scheduleSpec({ aggregates: [order], services: { ...services, probe: turns(20) }, start: "2026-10-20T00:00:00Z" });
    await spec.send(commandMessage(T.CreateOrder, { items: ["mug"] }, ref));
    await spec.send(commandMessage(T.SetSchedule, { key: "p", rule: ScheduleRule.after("1m"), command: { type: T.Ping, body: { n: 1 } } }, ref));
    const sent = await spec.advanceTime("1m");
    expect(sent.map((s) => [s.command.type, new Date(s.at).toISOString(), s.result?.outcome])).toEqual([[T.Ping, "2026-10-20T00:01:00.000Z", "decided"]]);
    await spec.advanceTime("10m");
    const pinged = (await spec.store.events.load(ref)).events.filter((e) => e.type === T.Pinged);
    expect(pinged.map((e) => new Date(e.createdAt).toISOString())).toEqual(["2026-10-20T00:01:00.000Z"]);
    await spec.stop();
  });
});

describe("aggregateSpec.given", () => {
  it("commits each given event at its own version, as a journal holds the commands' events", async () => {
    const then = await aggregateSpec(order).given({ type: T.OrderCreated, body: { items: ["mug"] } }, { type: T.OrderConfirmed, body: {} }).when({ type: T.PayOrder, body: {} });
    then.expectEventTypes(T.OrderPaid);
    expect(then.result.aggregateVersion).toBe(3);
  });
});

describe("the due time of a schedule", () => {
  const confirm = () =>
    aggregateSpec(order, { services, start: "2026-10-20T00:00:00Z" }).given({ type: T.OrderCreated, body: { items: ["mug"] } }).when({ type: T.ConfirmOrder, body: {} });
  const grace = { key: GRACE_KEY, rule: ScheduleRule.after("15m"), command: { type: T.CancelOrder, body: { reason: "PAYMENT_TIMEOUT" } } };

  it("aggregateSpec: expectSchedules checks `due` when given, and records it", async () => {
    const then = await confirm();
    then.expectSchedules({ ...grace, due: "2026-10-20T00:15:00Z" }).expectSchedules(grace);
    expect(() => then.expectSchedules({ ...grace, due: "2026-10-20T00:16:00Z" })).toThrow(/schedules/);
    expect(then.schedules.map((s) => new Date(s.due).toISOString())).toEqual(["2026-10-20T00:15:00.000Z"]);
  });

  it("scheduleSpec: a sent command records its slot's due time", async () => {
    const spec = scheduleSpec({ aggregates: [order], services: { ...services, probe: () => {} }, start: "2026-10-20T00:00:00Z" });
    await spec.send(commandMessage(T.CreateOrder, { items: ["mug"] }, ref));
    await spec.send(commandMessage(T.ConfirmOrder, {}, ref));
    await spec.stop();
    await spec.clock.advanceTime("20m"); // downtime: sent late
    await spec.start();
    const sent = await spec.advanceTime("1s");
    expect(sent.map((s) => [new Date(s.due).toISOString(), new Date(s.at).toISOString()])).toEqual([["2026-10-20T00:15:00.000Z", "2026-10-20T00:20:00.000Z"]]);
    await spec.stop();
  });
});

describe("scheduleSpec: a parked delivery", () => {
  it("is recorded as parked (and the failures before it as not)", async () => {
    const failing = () => Promise.reject(new Error("probe down"));
    const spec = scheduleSpec({ aggregates: [order], services: { ...services, probe: failing }, timers: { maxAttempts: 2 }, start: "2026-10-20T00:00:00Z" });
    await spec.send(commandMessage(T.CreateOrder, { items: ["mug"] }, ref));
    await spec.send(commandMessage(T.SetSchedule, { key: "p", rule: ScheduleRule.after("1m"), command: { type: T.Ping, body: {} } }, ref));
    const sent = await spec.advanceTime("1h");
    expect(sent.map((s) => [s.command.type, s.parked, String(s.error)])).toEqual([
      [T.Ping, false, "Error: probe down"],
      [T.Ping, true, "Error: probe down"],
    ]);
    await spec.stop();
  });
});

describe("scheduleSpec.advanceTime waits for saga handlers in flight", () => {
  it("a saga handler that awaits setImmediate sends its command at the instant of the event, not at a later virtual time", async () => {
    const p = probe();
    const base = shopSaga(p);
    const onCreated = base.events[S.OrderCreated]!;
    const saga: SagaRegistration = {
      ...base,
      events: {
        ...base.events,
        [S.OrderCreated]: { ...onCreated, handle: async (event, context, services) => (await turns(20)(), onCreated.handle(event, context, services)) },
      },
    };
    const start = "2026-05-01T00:00:00Z";
    const s = scheduleSpec({ aggregates: [shopOrder, stock], sagas: [saga], start, timers: { pollInterval: "10m" }, subscriptions: { pollInterval: "10m" } });
    await s.send(commandMessage(S.Receive, { quantity: 5 }, aggregateRef("shop", "Stock", "mug")));
    await s.send(commandMessage(S.CreateOrder, { product: "mug", quantity: 2 }, aggregateRef("shop", "Order", "o-1")));
    await s.advanceTime("30m");
    const reserved = (await s.store.events.load(aggregateRef("shop", "Stock", "mug"))).events.filter((e) => e.type === S.Reserved);
    expect(reserved.map((e) => new Date(e.createdAt).toISOString())).toEqual([new Date(start).toISOString()]);
    await s.stop();
  });
});
