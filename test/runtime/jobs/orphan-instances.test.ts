// The runtime's promise "`@OnSchedule` jobs": a sharded job runs one instance per journal partition. When the
// partition count is lowered, or a job stops (or starts) being sharded, the instances of its old
// shape have no subscription left to handle their ticks: the next host to start disables them, so
// their timers stop ticking (each tick was an event nobody read, every slot, for ever).
import { describe, expect, it } from "vitest";
import {
  aggregateRef, commandMessage, createHost, JobCommands, MemoryStore, singleHostOwnership, type EventMessage,
} from "../../../runtime/index.js";
import { VirtualClock } from "../../../runtime/testing/index.js";
import { order, probe, receiveJob, shopSaga, stock, suppliers } from "../sagas/saga-domain.js";

function cluster() {
  const clock = new VirtualClock("2026-10-20T00:00:00Z");
  const journal = new MemoryStore();
  const host = (partitions: number, sharded: boolean) =>
    createHost({
      registrations: [order, stock, shopSaga(probe(), [receiveJob({ sharded })])],
      store: journal,
      clock,
      ownership: singleHostOwnership(partitions),
      services: { "shop.Suppliers": suppliers },
      timers: { pollInterval: "1m" },
      subscriptions: { pollInterval: "1m" },
    });
  /** The instances that ticked (`receive#3`), in the journal after `from`. */
  const ticked = async (from: number) =>
    (await journal.events.read(from, 10_000)).filter((e: EventMessage) => e.type.endsWith("Ticked")).map((e) => e.aggregate.id).sort();
  const last = async () => (await journal.events.read(0, 100_000)).at(-1)?.position ?? 0;
  return { clock, host, ticked, last };
}

describe("instances left by an earlier shape of a job", () => {
  it("partitions beyond a lowered count are disabled at start and tick no more; the others go on", async () => {
    const { clock, host, ticked, last } = cluster();
    const four = host(4, true);
    await four.start();
    await clock.advanceTime("1h");
    expect(await ticked(0)).toEqual(["receive#0", "receive#1", "receive#2", "receive#3"]);
    await four.stop();

    const two = host(2, true);
    await two.start();
    const from = await last();
    await clock.advanceTime("2h");
    expect(await ticked(from)).toEqual(["receive#0", "receive#0", "receive#1", "receive#1"]);
    const listed = (await two.jobs.list()).map((i) => [i.id, i.enabled]);
    expect(listed).toEqual([["receive#0", true], ["receive#1", true], ["receive#2", false], ["receive#3", false]]);
    await two.stop();
  });

  it("a job that stops being sharded: its partition instances are disabled, the one instance ticks", async () => {
    const { clock, host, ticked, last } = cluster();
    const sharded = host(2, true);
    await sharded.start();
    await clock.advanceTime("1h");
    await sharded.stop();

    const single = host(2, false);
    await single.start();
    const from = await last();
    await clock.advanceTime("1h");
    expect(await ticked(from)).toEqual(["receive"]);
    // Disabled, their timers cancelled: no tick is delivered to them (and refused) every slot.
    const listed = (await single.jobs.list()).map((i) => [i.id, i.enabled, i.timer?.status ?? "none"]);
    expect(listed).toEqual([["receive#0", false, "none"], ["receive#1", false, "none"], ["receive", true, "pending"]]);
    await single.stop();
  });

  it("an instance beyond the partition count cannot be enabled by hand", async () => {
    const { host } = cluster();
    const two = host(2, true);
    await two.start();
    const result = await two.send(commandMessage(JobCommands.Enable, {}, aggregateRef("shop", "schedule", "receive#5")));
    expect([result.outcome, result.errorCode]).toEqual(["rejected", "NotFound"]);
    expect(result.errorMsg).toContain("its instances are receive#0 to receive#1");
    await two.stop();
  });
});
