// The runtime's promise "Sagas", on the virtual clock, against both journals.
import { describe, expect, it } from "vitest";
import { aggregateRef, commandMessage, createHost, derivedRequestId, SqliteStore, SystemEvents, type EventMessage, type SagaRegistration, type Store } from "../../../runtime/index.js";
import { scheduleSpec, VirtualClock } from "../../../runtime/testing/index.js";
import { stores, tempDbPath } from "../fixtures/stores.js";
import { order, probe, receiveJob, S, shopSaga, stock, type Probe } from "./saga-domain.js";

const START = "2026-05-01T00:00:00Z";
const ref = (aggregate: string, id: string) => aggregateRef("shop", aggregate, id);

function spec(store: (typeof stores)[number], p: Probe, saga: SagaRegistration = shopSaga(p)) {
  return scheduleSpec({
    aggregates: [order, stock],
    sagas: [saga],
    start: START,
    store: store.open(),
    // Event handlers retry by the subscriptions' options, jobs by wow.timers': the same here.
    timers: { pollInterval: "10m", maxAttempts: 3, backoff: { initial: "1s", factor: 2 } },
    subscriptions: { pollInterval: "10m", maxAttempts: 3, backoff: { initial: "1s", factor: 2 } },
  });
}

const HOUR = 3_600_000;

/** The shop saga with an hourly job that asks the mug's stock to reserve 2 for `tick-<slot>`. */
function reservingSaga(p: Probe): SagaRegistration {
  const job = receiveJob({
    name: "reserve",
    function: "reserve",
    subscription: "ShopSaga.reserve",
    commands: [S.Reserve],
    services: [],
    handle: (tick, context) => [
      context.command({ context: "shop", aggregate: "Stock", tenantId: tick.tenantId, id: "mug" }, { type: S.Reserve, body: { order: `tick-${tick.slot}`, quantity: 2 } }),
    ],
  });
  return shopSaga(p, [job]);
}

async function history(store: Store): Promise<EventMessage[]> {
  return store.events.read(0, 1000);
}

describe.each(stores)("sagas ($name)", (store) => {
  it("a handler's commands are sent with request ids <eventId>-<index>, and a schedule request sets a timer on the target", async () => {
    const p = probe();
    const s = spec(store, p);
    await s.send(commandMessage(S.Receive, { quantity: 5 }, ref("Stock", "mug")));
    const created = await s.send(commandMessage(S.CreateOrder, { product: "mug", quantity: 2 }, ref("Order", "o-1")));
    await s.advanceTime("1s");
    const eventId = created.events[0]!.eventId;
    const mug = await s.store.events.load(ref("Stock", "mug"));
    const reserved = mug.events.find((e) => e.type === S.Reserved)!;
    expect(reserved.requestId).toBe(derivedRequestId(eventId, 0));
    const set = mug.events.find((e) => e.type === SystemEvents.ScheduleSet)!;
    expect(set.requestId).toBe(derivedRequestId(eventId, 1));
    expect((await s.store.timers.timersOf(ref("Stock", "mug"))).map((t) => [t.key, t.command.type, t.due])).toEqual([["hold:o-1", S.Release, Date.parse(START) + 3_600_000]]);
    expect(await s.app.subscriptions.checkpoint("ShopSaga.onOrderCreated")).toBe((await history(s.store)).at(-1)!.position);
    await s.advanceTime("1h");
    expect(s.sent.map((x) => [x.command.type, x.result?.outcome])).toEqual([[S.Release, "decided"]]);
    await s.stop();
  });

  it("a command the target rejects reaches the saga's @OnRejected handler", async () => {
    const p = probe();
    const s = spec(store, p);
    await s.send(commandMessage(S.Receive, { quantity: 1 }, ref("Stock", "mug")));
    await s.send(commandMessage(S.CreateOrder, { product: "mug", quantity: 2 }, ref("Order", "o-1")));
    await s.advanceTime("1s");
    expect(p.rejections.map((r) => [r.command.type, r.errorCode, r.command.aggregate.id])).toEqual([[S.Reserve, "OutOfStock", "mug"]]);
    await s.stop();
  });

  it("a schedule request to a target that does not exist is rejected, and the rejection reaches @OnRejected", async () => {
    const p = probe();
    const s = spec(store, p);
    await s.send(commandMessage(S.Receive, { quantity: 5 }, ref("Stock", "mug")));
    await s.send(commandMessage(S.CreateOrder, { product: "mug", quantity: 1, holdOn: "ghost" }, ref("Order", "o-1")));
    await s.advanceTime("1s");
    expect(p.rejections.map((r) => [r.command.type, r.errorCode, r.command.aggregate.id])).toEqual([[S.Release, "NotFound", "ghost"]]);
    expect((await s.store.events.load(ref("Stock", "ghost"))).version).toBe(0);
    await s.stop();
  });

  it("a command a job sends that the target rejects reaches the saga's @OnRejected handler, once per tick", async () => {
    const p = probe();
    const s = spec(store, p, reservingSaga(p));
    await s.send(commandMessage(S.Receive, { quantity: 1 }, ref("Stock", "mug")));
    await s.advanceTime("2h");
    expect(s.derivedCommands.map((c) => c.type)).toEqual([S.Reserve, S.Reserve]);
    expect(p.rejections.map((r) => [r.command.type, r.errorCode, r.errorMsg, r.command.aggregate.id, r.command.body])).toEqual([
      [S.Reserve, "OutOfStock", "only 1 left", "mug", { order: "tick-1", quantity: 2 }],
      [S.Reserve, "OutOfStock", "only 1 left", "mug", { order: "tick-2", quantity: 2 }],
    ]);
    // The handler is given the very request the job sent (its id derived from the tick).
    expect(p.rejections.map((r) => r.command.requestId)).toEqual(s.derivedCommands.map((c) => c.requestId));
    await s.stop();
  });

  it("a job's @OnRejected handler that fails is retried (the rejection delivered again), then the tick is parked, as for an event handler", async () => {
    const p = probe();
    const saga = reservingSaga(p);
    const onReserveRejected = saga.rejections[S.Reserve]!;
    let failures = 3;
    const failing: SagaRegistration = {
      ...saga,
      rejections: {
        ...saga.rejections,
        [S.Reserve]: {
          ...onReserveRejected,
          handle: async (r, services) => {
            await onReserveRejected.handle(r, services);
            if (failures-- > 0) throw new Error("the rejection handler's service is down");
          },
        },
      },
    };
    const s = spec(store, p, failing);
    await s.send(commandMessage(S.Receive, { quantity: 1 }, ref("Stock", "mug")));
    await s.advanceTime(HOUR + 3_000); // tick 1: attempts at +1h, +1h 1s, +1h 3s (maxAttempts 3): parked
    const { events } = await s.app.parked();
    expect(events.map((e) => [e.subscription, e.attempts])).toEqual([["ShopSaga.reserve", 3]]);
    expect(events[0]!.error).toContain("the rejection handler's service is down");
    await s.advanceTime("1h"); // tick 2: the subscription went on
    expect(p.rejections.map((r) => (r.command.body as { order: string }).order)).toEqual(["tick-1", "tick-1", "tick-1", "tick-2"]);
    // Re-handling tick 1 sent the same request: decided once (rejected once), the rejection delivered each time.
    expect(new Set(p.rejections.slice(0, 3).map((r) => r.command.requestId)).size).toBe(1);
    expect((await s.store.events.load(ref("Stock", "mug"))).events.map((e) => e.type)).toEqual([S.Received]);
    await s.stop();
  });

  it("a scheduled command's own rejection at its due time reaches no handler", async () => {
    const p = probe();
    const s = spec(store, p);
    await s.send(commandMessage(S.Receive, { quantity: 5 }, ref("Stock", "mug")));
    await s.send(commandMessage(S.CreateOrder, { product: "mug", quantity: 1 }, ref("Order", "x-1")));
    await s.advanceTime("1h");
    await s.advanceTime("2s");
    expect(s.sent.map((x) => [x.command.type, x.result?.errorCode])).toEqual([[S.Release, "NotHeld"]]);
    expect(p.rejections).toEqual([]);
    await s.stop();
  });

  it("context.cancel asks the target to cancel its schedule", async () => {
    const p = probe();
    const s = spec(store, p);
    await s.send(commandMessage(S.Receive, { quantity: 5 }, ref("Stock", "mug")));
    await s.send(commandMessage(S.CreateOrder, { product: "mug", quantity: 1 }, ref("Order", "o-1")));
    await s.advanceTime("1s");
    expect(await s.store.timers.timersOf(ref("Stock", "mug"))).toHaveLength(1);
    await s.send(commandMessage(S.CancelOrder, {}, ref("Order", "o-1")));
    await s.advanceTime("1s");
    expect(await s.store.timers.timersOf(ref("Stock", "mug"))).toEqual([]);
    await s.advanceTime("2h");
    expect(s.sent).toEqual([]);
    await s.stop();
  });

  it("a failing handler is retried with backoff, then the event is parked and the subscription goes on; a re-drive handles it", async () => {
    const p = probe();
    const s = spec(store, p);
    await s.send(commandMessage(S.Receive, { quantity: 5 }, ref("Stock", "mug")));
    p.fail = 3;
    await s.send(commandMessage(S.CreateOrder, { product: "mug", quantity: 1 }, ref("Order", "o-1")));
    await s.send(commandMessage(S.CreateOrder, { product: "mug", quantity: 1 }, ref("Order", "o-2")));
    await s.advanceTime("1s"); // attempt 1, then 1 s backoff
    expect(p.calls).toBe(2);
    await s.advanceTime("2s"); // attempt 3 fails: parked; o-2 handled
    expect(p.calls).toBe(4);
    const { events } = await s.app.parked();
    expect(events.map((e) => [e.subscription, e.event.aggregate.id, e.attempts])).toEqual([["ShopSaga.onOrderCreated", "o-1", 3]]);
    expect(events[0]!.error).toContain("the saga's service is down");
    const mug = await s.store.events.load(ref("Stock", "mug"));
    expect(mug.events.filter((e) => e.type === S.Reserved).map((e) => (e.body as { order: string }).order)).toEqual(["o-2"]);
    expect(await s.app.subscriptions.redrive(events[0]!.id)).toEqual({ found: true, ok: true });
    expect((await s.app.parked()).events).toEqual([]);
    const after = await s.store.events.load(ref("Stock", "mug"));
    expect(after.events.filter((e) => e.type === S.Reserved).map((e) => (e.body as { order: string }).order)).toEqual(["o-2", "o-1"]);
    await s.stop();
  });

  it("an event handled again (checkpoint lost) sends the same requests: duplicates, nothing decided twice", async () => {
    const p = probe();
    const s = spec(store, p);
    await s.send(commandMessage(S.Receive, { quantity: 5 }, ref("Stock", "mug")));
    await s.send(commandMessage(S.CreateOrder, { product: "mug", quantity: 1 }, ref("Order", "o-1")));
    await s.advanceTime("1s");
    const before = await history(s.store);
    await s.app.subscriptions.reset("ShopSaga.onOrderCreated", 0);
    await s.advanceTime("1s");
    expect(p.calls).toBe(2);
    expect(await history(s.store)).toEqual(before);
    await s.stop();
  });
});

describe("sagas: durable checkpoints (sqlite)", () => {
  it("a restarted host goes on from its checkpoints: no event is handled twice, none is missed", async () => {
    const path = tempDbPath();
    const clock = new VirtualClock(START);
    const p = probe();
    const open = () => createHost({ registrations: [order, stock, shopSaga(p)], store: new SqliteStore(path), clock, subscriptions: { pollInterval: "1s" } });
    const first = open();
    await first.start();
    await first.send(commandMessage(S.Receive, { quantity: 5 }, ref("Stock", "mug")));
    await first.send(commandMessage(S.CreateOrder, { product: "mug", quantity: 1 }, ref("Order", "o-1")));
    await clock.advanceTime("1s");
    await first.stop();
    await first.store.close();
    const second = open();
    await second.send(commandMessage(S.CreateOrder, { product: "mug", quantity: 1 }, ref("Order", "o-2")));
    await second.start();
    await clock.advanceTime("1s");
    expect(p.calls).toBe(2);
    const mug = await second.store.events.load(ref("Stock", "mug"));
    expect(mug.events.filter((e) => e.type === S.Reserved).map((e) => (e.body as { order: string }).order)).toEqual(["o-1", "o-2"]);
    await second.stop();
    await second.store.close();
  });
});
