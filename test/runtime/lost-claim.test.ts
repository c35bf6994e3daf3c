// A host whose timer claim was taken while it was deciding (it paused past the claim's lease, and
// another host claimed the timer again) commits nothing for that timer, neither in its batch nor one by
// one afterwards: the slot is the new claimer's to decide. On a store shared by hosts (PostgreSQL): a
// one-host store's claims hold no lease, so its one poller simply claims the timer again. The
// one-by-one path after a failed batch is fenced the same way on every store.
import { afterEach, describe, expect, it } from "vitest";
import { Host, commandMessage, type BatchEntry, type DueBatch, type Store } from "../../runtime/index.js";
import { storeOnClock, VirtualClock } from "../../runtime/testing/index.js";
import { postgresStores, stores } from "./fixtures/stores.js";
import { overriding, ref, START, thing } from "./fixtures/timer-thing.js";

const FAR = START + 365 * 86_400_000;

/** `inner`, but another host claims every due timer again (as after this host's lease lapsed) just before this host's first batch commits. */
function claimedAway(inner: Store, taken: { batch?: DueBatch }): Store {
  return overriding(inner, {
    commitBatch: async (batch: DueBatch, entries: readonly BatchEntry[]) => {
      if (taken.batch === undefined) taken.batch = await inner.timers.claimDue(FAR, 100, { owner: "other-host", until: FAR + 60_000 });
      return inner.timers.commitBatch(batch, entries);
    },
  });
}

/**
 * `inner`, but this host's first batch commit fails as a whole (its deliveries then go one by one), and
 * just before it fails another claimer takes every due timer again and settles it for a retry far
 * ahead (so that the one-host stores' poller, whose claims hold no lease, does not claim it again at once).
 */
function failedThenClaimedAway(inner: Store, taken: { batch?: DueBatch; lost?: readonly string[] }): Store {
  return overriding(inner, {
    commitBatch: async (batch: DueBatch, entries: readonly BatchEntry[]) => {
      if (taken.batch !== undefined) return inner.timers.commitBatch(batch, entries);
      const other = (taken.batch = await inner.timers.claimDue(FAR, 100, { owner: "other-host", until: FAR + 60_000 }));
      taken.lost = await inner.timers.settle(other, other.timers.map((t) => ({ id: t.id, slot: t.slot, outcome: { kind: "retry", attempts: 1, fireAt: FAR, error: "the other host's attempt" } })));
      throw new Error("the batch's transaction failed");
    },
  });
}

describe.each(stores)("a timer claim lost before the one-by-one fallback commits, on $name", (factory) => {
  let journal: Store;
  let host: Host;
  afterEach(async () => {
    await host.stop();
    await journal.close();
  });

  it("the fallback writes nothing for the timer (no event, no request, no settlement, no attempt) and reports the claim lost", async () => {
    const inner = factory.open();
    const taken: { batch?: DueBatch; lost?: readonly string[] } = {};
    journal = failedThenClaimedAway(inner, taken);
    const clock = new VirtualClock(START);
    const errors: unknown[] = [];
    const delivered: string[] = [];
    const lost: unknown[] = [];
    host = new Host({ store: storeOnClock(journal, clock), aggregates: [thing], clock, timers: { pollInterval: 60_000 }, onError: (e) => errors.push(e), onDelivery: (d) => delivered.push(d.outcome), onLost: (l) => lost.push(...l) });
    host.start();
    await host.send(commandMessage("f.Set", { at: START + 1000 }, ref("a")));
    const [set] = await inner.timers.timersOf(ref("a"));
    await clock.advanceTime("1s");
    expect(errors).toEqual([]);
    expect(taken.batch?.timers.map((t) => t.owner.id)).toEqual(["a"]);
    expect((await inner.events.load(ref("a"))).events.filter((e) => e.type === "f.Fired")).toEqual([]);
    expect(await inner.events.findRequest(ref("a"), `${set!.id}#1`)).toBeUndefined();
    // the other claimer's settlement held, and this host's fallback did not undo or overwrite it
    expect(taken.lost).toEqual([]);
    expect(await inner.timers.timersOf(ref("a"))).toMatchObject([{ id: set!.id, slot: 1, status: "pending", fireAt: FAR, attempts: 1, lastError: "the other host's attempt" }]);
    expect(delivered).toEqual([]);
    expect(lost).toEqual([{ timer: set!.id, slot: 1 }]);
    expect((await inner.runs.attempts(set!.id, { limit: 10 })).items).toEqual([]);
  });
});

describe.skipIf(postgresStores === undefined)("a timer claim lost mid-delivery, on PostgreSQL", () => {
  const factory = postgresStores!;
  let journal: Store;
  let host: Host;
  afterEach(async () => {
    await host.stop();
    await journal.close();
  });

  it("the host writes nothing for the timer; the claimer that holds it decides the slot", async () => {
    const inner = factory.open();
    const taken: { batch?: DueBatch } = {};
    journal = claimedAway(inner, taken);
    const clock = new VirtualClock(START);
    const errors: unknown[] = [];
    host = new Host({ store: storeOnClock(journal, clock), aggregates: [thing], clock, timers: { pollInterval: 60_000 }, onError: (e) => errors.push(e) });
    host.start();
    await host.send(commandMessage("f.Set", { at: START + 1000 }, ref("a")));
    await clock.advanceTime("1s");
    expect(errors).toEqual([]);
    expect(taken.batch?.timers.map((t) => t.owner.id)).toEqual(["a"]);
    const fired = async () => (await inner.events.load(ref("a"))).events.filter((e) => e.type === "f.Fired").length;
    expect(await fired()).toBe(0);
    const [timer] = await inner.timers.timersOf(ref("a"));
    expect(timer).toMatchObject({ slot: 1, status: "pending", fireAt: FAR + 60_000 });
    // the other host's settlement holds
    expect(await inner.timers.settle(taken.batch!, [{ id: timer!.id, slot: 1, outcome: { kind: "done" } }])).toEqual([]);
    expect(await inner.timers.timersOf(ref("a"))).toEqual([]);
  });
});
