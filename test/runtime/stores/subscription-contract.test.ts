// The subscription store's contract, for every store: checkpoints, parked events, job instance index.
import { describe, expect, it } from "vitest";
import { aggregateRef, parkedId, type EventMessage, type SubscriptionStore } from "../../../runtime/index.js";
import { stores } from "../fixtures/stores.js";

const factories = stores.map((f) => ({
  name: f.name,
  open() {
    const opened = f.open();
    return { store: opened.subscriptions, reopen: async (): Promise<SubscriptionStore> => (await f.reopen(opened)).subscriptions };
  },
}));

const event = (position: number): EventMessage => ({
  eventId: `e-${position}`,
  type: "shop.OrderCreated",
  body: { n: position },
  aggregate: aggregateRef("shop", "Order", `o-${position}`, "acme"),
  version: 1,
  sequence: 1,
  commandId: "c",
  requestId: "r",
  createdAt: 1000 + position,
  position,
});

describe.each(factories)("subscription store contract: $name", (factory) => {
  it("keeps a checkpoint per subscription, 0 before any, durably", async () => {
    const { store, reopen } = factory.open();
    expect(await store.checkpoint("A.on")).toBe(0);
    await store.saveCheckpoint("A.on", 7);
    await store.saveCheckpoint("B.on", 3);
    await store.saveCheckpoint("A.on", 9);
    const again = await reopen();
    expect([await again.checkpoint("A.on"), await again.checkpoint("B.on")]).toEqual([9, 3]);
  });

  it("parks events with their error, lists them in parking order, replaces a re-parked one, unparks", async () => {
    const { store, reopen } = factory.open();
    await store.park({ id: parkedId("A.on", 5), subscription: "A.on", position: 5, event: event(5), attempts: 3, error: "boom", parkedAt: 20 });
    await store.park({ id: parkedId("B.on", 2), subscription: "B.on", position: 2, event: event(2), attempts: 1, error: "bang", parkedAt: 10 });
    await store.park({ id: parkedId("A.on", 5), subscription: "A.on", position: 5, event: event(5), attempts: 4, error: "boom again", parkedAt: 30 });
    const again = await reopen();
    const parked = await again.parked();
    expect(parked.map((p) => [p.id, p.attempts, p.error])).toEqual([
      ["B.on@2", 1, "bang"],
      ["A.on@5", 4, "boom again"],
    ]);
    expect(parked[1]!.event).toEqual(event(5));
    expect(await again.parked(1)).toHaveLength(1);
    expect((await again.parkedEvent("A.on@5"))?.position).toBe(5);
    expect(await again.unpark("A.on@5")).toBe(true);
    expect(await again.unpark("A.on@5")).toBe(false);
    expect(await again.parkedEvent("A.on@5")).toBeUndefined();
  });

  it("pages through parked events after a listed one, and counts them by tenant", async () => {
    const { store } = factory.open();
    for (const [n, at] of [[1, 10], [2, 10], [3, 20]] as const) await store.park({ id: parkedId("A.on", n), subscription: "A.on", position: n, event: event(n), attempts: 1, error: "x", parkedAt: at });
    const globex = { ...event(4), aggregate: aggregateRef("shop", "Order", "o-4", "globex") };
    await store.park({ id: parkedId("A.on", 4), subscription: "A.on", position: 4, event: globex, attempts: 1, error: "x", parkedAt: 15 });
    expect((await store.parked(2)).map((p) => p.id)).toEqual(["A.on@1", "A.on@2"]);
    expect((await store.parked(2, undefined, [10, "A.on@2"])).map((p) => p.id)).toEqual(["A.on@4", "A.on@3"]);
    expect((await store.parked(10, "acme", [10, "A.on@1"])).map((p) => p.id)).toEqual(["A.on@2", "A.on@3"]);
    expect([await store.countParked(), await store.countParked("acme"), await store.countParked("globex"), await store.countParked("initech")]).toEqual([4, 3, 1, 0]);
  });

  it("lists one tenant's parked events, past the limit of the others'", async () => {
    const { store } = factory.open();
    await store.park({ id: parkedId("A.on", 1), subscription: "A.on", position: 1, event: event(1), attempts: 1, error: "x", parkedAt: 10 });
    const globex = { ...event(2), aggregate: aggregateRef("shop", "Order", "o-2", "globex") };
    await store.park({ id: parkedId("A.on", 2), subscription: "A.on", position: 2, event: globex, attempts: 1, error: "y", parkedAt: 20 });
    expect((await store.parked(1, "globex")).map((p) => p.id)).toEqual(["A.on@2"]);
    expect((await store.parked(1, "acme")).map((p) => p.id)).toEqual(["A.on@1"]);
    expect(await store.parked(10, "initech")).toEqual([]);
  });

  it("remembers job instances once each", async () => {
    const { store, reopen } = factory.open();
    const a = aggregateRef("shop", "schedule", "report", "acme");
    const b = aggregateRef("shop", "schedule", "report", "globex");
    await store.rememberInstance(a);
    await store.rememberInstance(b);
    await store.rememberInstance(a);
    expect(await (await reopen()).instances()).toEqual([a, b]);
  });
});
