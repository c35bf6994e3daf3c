// The runtime's promise "Delivery of a scheduled command": a technical failure is retried up to max-attempts, then
// parked; nothing is dropped silently. A delivery whose decision cannot be stored (an event body holding a
// BigInt, which JSON has no form for) is such a failure — of that delivery alone: other timers, and
// ordinary commands committed at the same moment, land. On both journals (memory refuses what SQLite
// cannot store), whether it lands in a timer batch's commit or goes alone.
import { afterEach, describe, expect, it } from "vitest";
import { Decision, Host, ScheduleRule, aggregateRef, commandMessage, type AggregateRegistration, type CommandMessage, type Delivery, type Store } from "../../runtime/index.js";
import { UnstorableCommitError, VersionConflictError, type Commit } from "../../runtime/index.js";
import { storeOnClock, VirtualClock } from "../../runtime/testing/index.js";
import { stores } from "./fixtures/stores.js";

const START = Date.parse("2026-03-01T00:00:00Z");
const ref = (id: string) => aggregateRef("p", "thing", id);

/** `p.Set` schedules `p.Fire` commands; `p.Fire` (or `p.Now`) with `bad` decides an event JSON cannot hold. */
const thing: AggregateRegistration<object> = {
  context: "p",
  aggregate: "thing",
  initialState: () => ({}),
  commands: {
    "p.Set": {
      decide: (_s, c: CommandMessage<{ key: string; at: number; bad?: boolean; badSpec?: boolean }>, scope) => {
        const body = c.body.badSpec ? { n: 1n } : { bad: c.body.bad === true };
        scope.schedule(c.body.key, ScheduleRule.at(c.body.at), { type: "p.Fire", body });
        return Decision.noOp;
      },
    },
    "p.Fire": { decide: (_s, c: CommandMessage<{ bad: boolean }>) => fired(c.body.bad) },
    "p.Now": { decide: (_s, c: CommandMessage<{ bad: boolean }>) => fired(c.body.bad) },
  },
  events: {},
};
const fired = (bad: boolean) => Decision.events({ type: "p.Fired", body: bad ? { amount: 10n } : { amount: 10 } });

describe.each(stores)("an unstorable decision fails alone: $name", (store) => {
  let journal: Store;
  let host: Host;
  afterEach(async () => {
    await host.stop();
    await journal.close();
  });

  function start() {
    journal = store.open();
    const clock = new VirtualClock(START);
    const deliveries: Delivery[] = [];
    const errors: unknown[] = [];
    host = new Host({
      store: storeOnClock(journal, clock),
      aggregates: [thing],
      clock,
      timers: { pollInterval: 1000, maxAttempts: 3, backoff: { initial: 1000, factor: 2 } },
      onDelivery: (d) => deliveries.push(d),
      onError: (e) => errors.push(e),
    });
    host.start();
    return { clock, deliveries, errors };
  }
  const firedOn = async (id: string) => (await journal.events.load(ref(id))).events.filter((e) => e.type === "p.Fired").length;

  it("retried to max-attempts and parked with its error; the other timers fire (same moment and later)", async () => {
    const { clock, deliveries, errors } = start();
    await host.send(commandMessage("p.Set", { key: "bad", at: START + 1000, bad: true }, ref("a1")));
    await host.send(commandMessage("p.Set", { key: "same", at: START + 1000 }, ref("a2")));
    await host.send(commandMessage("p.Set", { key: "later", at: START + 120_000 }, ref("a3")));
    await clock.advanceTime("10m");
    expect(errors).toEqual([]);
    expect([await firedOn("a1"), await firedOn("a2"), await firedOn("a3")]).toEqual([0, 1, 1]);
    const parked = await journal.timers.list({ status: "parked" });
    expect(parked.map((t) => [t.key, t.attempts])).toEqual([["bad", 3]]);
    expect(parked[0]!.lastError).toContain("BigInt");
    expect(deliveries.filter((d) => d.error !== undefined).map((d) => [d.command.aggregate.id, d.parked])).toEqual([
      ["a1", false],
      ["a1", false],
      ["a1", true],
    ]);
    expect(await journal.timers.list({ status: "pending" })).toEqual([]);
  });

  it("ordinary commands sent at the same moment: the unstorable one fails, the others commit", async () => {
    start();
    const results = await Promise.allSettled([
      host.send(commandMessage("p.Now", { bad: false }, ref("b1"))),
      host.send(commandMessage("p.Now", { bad: true }, ref("b2"))),
      host.send(commandMessage("p.Now", { bad: false }, ref("b3"))),
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect((results[1] as PromiseRejectedResult).reason).toBeInstanceOf(UnstorableCommitError);
    expect([await firedOn("b1"), await firedOn("b2"), await firedOn("b3")]).toEqual([1, 0, 1]);
    expect((await journal.events.load(ref("b2"))).version).toBe(0);
  });

  it("a schedule whose command JSON cannot hold is refused with its decision: nothing is committed, no timer", async () => {
    start();
    await expect(host.send(commandMessage("p.Set", { key: "k", at: START + 1000, badSpec: true }, ref("c1")))).rejects.toBeInstanceOf(UnstorableCommitError);
    expect(await journal.events.load(ref("c1"))).toMatchObject({ version: 0, events: [] });
    expect(await journal.timers.timersOf(ref("c1"))).toEqual([]);
  });
});

describe.each(stores)("a store refuses an unstorable commit alone: $name", (store) => {
  const commit = (id: string, version: number, body: unknown): Commit => {
    const aggregate = ref(id);
    const requestId = `r-${id}-${version}`;
    const event = { eventId: `e-${id}-${version}`, type: "p.Fired", body, aggregate, version, sequence: 1, commandId: requestId, requestId, createdAt: START };
    return { aggregate, expectedVersion: version - 1, events: [event], request: { requestId, version, errorCode: "Ok" }, timers: [] };
  };
  const done = { id: "none", slot: 1, outcome: { kind: "done" } } as const;

  it("append: UnstorableCommitError, nothing written", async () => {
    const journal = store.open();
    try {
      await expect(journal.events.append(commit("x", 1, { n: 1n }))).rejects.toBeInstanceOf(UnstorableCommitError);
      expect(await journal.events.load(ref("x"))).toMatchObject({ version: 0, events: [] });
      expect(await journal.events.findRequest(ref("x"), "r-x-1")).toBeUndefined();
    } finally {
      await journal.close();
    }
  });

  it("commitBatch: that entry and its aggregate's later ones are refused; the rest commit", async () => {
    const journal = store.open();
    try {
      const entries = [commit("g1", 1, {}), commit("x", 1, { n: 1n }), commit("x", 2, {}), commit("g2", 1, {})];
      // as the timer service calls it: after a claim (SQLite's bulk path checks against what the claim read)
      const batch = await journal.timers.claimDue(START, 10, { owner: "me", until: START + 30_000 });
      const outcomes = await journal.timers.commitBatch(batch, entries.map((c) => ({ commit: c, settlement: done })));
      expect(outcomes.map((o) => o.ok)).toEqual([true, false, false, true]);
      expect(outcomes[1]).toMatchObject({ ok: false, error: expect.any(UnstorableCommitError) });
      expect(outcomes[2]).toMatchObject({ ok: false, error: expect.any(VersionConflictError), untried: true });
      expect([(await journal.events.load(ref("g1"))).version, (await journal.events.load(ref("x"))).version, (await journal.events.load(ref("g2"))).version]).toEqual([1, 0, 1]);
    } finally {
      await journal.close();
    }
  });
});
