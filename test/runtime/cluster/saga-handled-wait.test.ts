// The runtime's promise for `Command-Wait-Stage: SAGA_HANDLED` on several hosts: the answer waits
// until the saga handled the command's events, also when another host owns their partition (it
// follows that host's checkpoint); it does not answer early because this host does not run them.
import { describe, expect, it } from "vitest";
import { aggregateRef, commandMessage, createHost, MemoryStore, type PartitionOwnership } from "../../../runtime/index.js";
import { partitionOf } from "../../../runtime/model/partition-of.js";
import { VirtualClock } from "../../../runtime/testing/index.js";
import { order, probe, S, shopSaga, stock } from "../sagas/saga-domain.js";

const own = (partitions: number[]): PartitionOwnership => ({ partitions: 2, owned: () => partitions, owns: (p) => partitions.includes(p) });

describe("waiting for the sagas on a cluster", () => {
  it("waits for the host that owns the events' partition to handle them", async () => {
    const clock = new VirtualClock("2026-10-20T00:00:00Z");
    const store = new MemoryStore();
    const p = probe();
    const host = (ownership: PartitionOwnership) =>
      createHost({ registrations: [order, stock, shopSaga(p)], store, clock, ownership, subscriptions: { pollInterval: "1s" }, timers: { pollInterval: "1m" } });
    const a = host(own([0]));
    const b = host(own([1]));
    await a.start();
    await b.start();
    try {
      // An order whose stream B's partition holds.
      let n = 0;
      while (partitionOf(aggregateRef("shop", "Order", `o${n}`), 2) !== 1) n++;
      const result = await a.send(commandMessage(S.CreateOrder, { product: "mug", quantity: 1 }, aggregateRef("shop", "Order", `o${n}`)));
      expect(result.outcome).toBe("decided");
      const last = Math.max(...result.events.map((e) => e.position!));
      let answered: boolean | undefined;
      const waiting = a.waitForHandlers(last, true, 60_000, result.events).then((ok) => (answered = ok));
      await clock.advanceTime(0);
      expect(answered, "answered before any host handled the event").toBeUndefined();
      expect(p.calls).toBe(0);
      await clock.advanceTime("5s"); // B's next poll handles it; A reads B's checkpoint
      await waiting;
      expect(answered).toBe(true);
      expect(p.calls).toBe(1);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("answers false after its timeout while the owner has not handled them", async () => {
    const clock = new VirtualClock("2026-10-20T00:00:00Z");
    const store = new MemoryStore();
    const p = probe();
    const a = createHost({ registrations: [order, stock, shopSaga(p)], store, clock, ownership: own([0]), subscriptions: { pollInterval: "1s" }, timers: { pollInterval: "1m" } });
    await a.start(); // partition 1's owner is down
    try {
      let n = 0;
      while (partitionOf(aggregateRef("shop", "Order", `o${n}`), 2) !== 1) n++;
      const result = await a.send(commandMessage(S.CreateOrder, { product: "mug", quantity: 1 }, aggregateRef("shop", "Order", `o${n}`)));
      const waiting = a.waitForHandlers(Math.max(...result.events.map((e) => e.position!)), true, 3_000, result.events);
      await clock.advanceTime("4s");
      expect(await waiting).toBe(false);
      expect(p.calls).toBe(0);
    } finally {
      await a.close();
    }
  });
});
