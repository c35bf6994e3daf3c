// The runtime's promise "`@OnSchedule` jobs", sharded: each journal partition's owner runs one tick per slot,
// across a hand-over too. Two hosts share one journal and one subscription store (a cluster);
// progress is kept per partition, so a partition's new owner resumes where the old one stopped.
import { describe, expect, it } from "vitest";
import { createHost, MemoryStore, SqliteStore, type Store, type PartitionOwnership } from "../../../runtime/index.js";
import { VirtualClock } from "../../../runtime/testing/index.js";
import { tempDbPath } from "../fixtures/stores.js";
import { order, probe, receiveJob, shopSaga, stock, suppliers } from "../sagas/saga-domain.js";

/** A cluster's view of who owns what, moved by the test. */
function ownership(initial: number[]): PartitionOwnership & { set(partitions: number[]): void } {
  let owned = initial;
  return { partitions: 2, owned: () => owned, owns: (p) => owned.includes(p), set: (ps) => void (owned = ps) };
}

/** Two connections to one shared store. */
const clusters: { name: string; open(): () => Store }[] = [
  {
    name: "memory",
    open: () => {
      const store = new MemoryStore();
      return () => store;
    },
  },
  {
    name: "sqlite",
    open: () => {
      const path = tempDbPath();
      // Each host its own connection.
      return () => new SqliteStore(path);
    },
  },
];

describe.each(clusters)("sharded job hand-over ($name)", (cluster) => {
  it("a partition's new owner resumes from that partition's checkpoint: no tick is lost or handled twice", async () => {
    const clock = new VirtualClock("2026-10-20T00:00:00Z");
    const connect = cluster.open();
    const handled: string[] = [];
    const errors: unknown[] = [];
    const host = (name: string, own: PartitionOwnership) => {
      return createHost({
        registrations: [order, stock, shopSaga(probe(), [receiveJob({ sharded: true })])],
        store: connect(),
        clock,
        ownership: own,
        services: { "shop.Suppliers": suppliers },
        // Hosts see each other's commits by polling: a hand-over shows within a poll interval.
        timers: { pollInterval: "1m" },
        subscriptions: { pollInterval: "1m" },
        onDerived: (_job, tick) => handled.push(`${name} p${tick.partition} s${tick.slot}`),
        onError: (error) => errors.push(error),
      });
    };
    const ownA = ownership([0]);
    const ownB = ownership([1]);
    const A = host("A", ownA);
    const B = host("B", ownB);
    await A.start();
    await B.start();
    await clock.advanceTime("1h"); // 01:00: slot 1 of each partition, each run by its owner
    await clock.advanceTime("10m");
    expect(handled.sort()).toEqual(["A p0 s1", "B p1 s1"]);

    await A.stop(); // A goes down
    await clock.advanceTime("50m"); // 02:00: partition 0's slot 2 is committed (by B's timer) while A still owns it
    ownB.set([0, 1]); // the cluster hands partition 0 to B
    await clock.advanceTime("1h"); // 03:00
    await clock.advanceTime("2m");
    expect(handled.splice(0).sort()).toEqual(["A p0 s1", "B p0 s2", "B p0 s3", "B p1 s1", "B p1 s2", "B p1 s3"]);

    ownB.set([1]); // partition 0 goes back to A, which resumes after B's slot 3, not from its own old position
    await A.start();
    await clock.advanceTime("1h"); // 04:00
    await clock.advanceTime("2m");
    expect(handled.sort()).toEqual(["A p0 s4", "B p1 s4"]);

    const ticks = (await A.store.events.read(0, 10_000)).filter((e) => e.type === "wow.schedule.Ticked").length;
    expect(ticks).toBe(8); // every committed tick ran exactly once above
    expect((await A.parked()).events).toEqual([]);
    expect(errors).toEqual([]);
    await A.close();
    await B.close();
    await A.store.close();
    await B.store.close();
  });
});
