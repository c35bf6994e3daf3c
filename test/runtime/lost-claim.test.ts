// A host whose timer claim was taken while it was deciding (it paused past the claim's lease, and
// another host claimed the timer again) commits nothing for that timer, neither in its batch nor one by
// one afterwards: the slot is the new claimer's to decide. On a store shared by hosts (PostgreSQL): a
// one-host store's claims hold no lease, so its one poller simply claims the timer again.
import { afterEach, describe, expect, it } from "vitest";
import { Decision, Host, ScheduleRule, aggregateRef, commandMessage, type AggregateRegistration, type BatchEntry, type CommandMessage, type DueBatch, type Store, type TimerStore } from "../../runtime/index.js";
import { storeOnClock, VirtualClock } from "../../runtime/testing/index.js";
import { postgresStores } from "./fixtures/stores.js";

const START = Date.parse("2026-03-01T00:00:00Z");
const FAR = START + 365 * 86_400_000;
const ref = (id: string) => aggregateRef("f", "thing", id);

const thing: AggregateRegistration<object> = {
  context: "f",
  aggregate: "thing",
  initialState: () => ({}),
  commands: {
    "f.Set": {
      decide: (_s, c: CommandMessage<{ at: number }>, scope) => {
        scope.schedule("k", ScheduleRule.at(c.body.at), { type: "f.Fire", body: {} });
        return Decision.noOp;
      },
    },
    "f.Fire": { decide: () => Decision.events({ type: "f.Fired", body: {} }) },
  },
  events: {},
};

/** `inner`, but another host claims every due timer again (as after this host's lease lapsed) just before this host's first batch commits. */
function claimedAway(inner: Store, taken: { batch?: DueBatch }): Store {
  const timers: TimerStore = Object.create(inner.timers, {
    commitBatch: {
      value: async (batch: DueBatch, entries: readonly BatchEntry[]) => {
        if (taken.batch === undefined) taken.batch = await inner.timers.claimDue(FAR, 100, { owner: "other-host", until: FAR + 60_000 });
        return inner.timers.commitBatch(batch, entries);
      },
    },
  });
  return { kind: inner.kind, events: inner.events, timers, subscriptions: inner.subscriptions, runs: inner.runs, close: () => inner.close() };
}

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
