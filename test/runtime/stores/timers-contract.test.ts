// The timer store's contract, for every store: claims (with what each slot meets), settlements,
// listings, re-drives, and the batch commit with its checks.
import { describe, expect, it } from "vitest";
import { DuplicateRequestError, VersionConflictError, aggregateRef, slotRequestId, type AggregateRef, type Commit, type DueBatch, type TimerSpec } from "../../../runtime/index.js";
import { stores } from "../fixtures/stores.js";
import { A, B, LEASE, commit, done, set, timer } from "./contract-helpers.js";

const ids = (batch: DueBatch) => batch.timers.map((t) => t.id);

describe.each(stores)("timer store contract: $name", (factory) => {
  it("claims only due timers, earliest first, at most the limit", async () => {
    const store = factory.open();
    const j = store.timers;
    const specs = [timer("t3", "k3", 3000), timer("t1", "k1", 1000), timer("t2", "k2", 2000), timer("t9", "k9", 90_000)];
    await store.events.append(commit(A, 0, "r1", 1, specs.map(set)));
    expect(await j.nextDueAt()).toBe(1000);
    expect(ids(await j.claimDue(999, 10, LEASE))).toEqual([]);
    expect(ids(await j.claimDue(3000, 2, { owner: "me", until: 13_000 }))).toEqual(["t1", "t2"]);
    if (factory.shared) {
      // leased: not claimable again before the lease ends; a lease that ran out (its holder died) lets another claim it
      expect(ids(await j.claimDue(3000, 10, { owner: "me", until: 13_000 }))).toEqual(["t3"]);
      expect(ids(await j.claimDue(12_999, 10, { owner: "other", until: 20_000 }))).toEqual([]);
      expect(ids(await j.claimDue(13_000, 10, { owner: "other", until: 20_000 })).sort()).toEqual(["t1", "t2", "t3"]);
      expect(await j.nextDueAt()).toBe(20_000);
    } else {
      // one host: its poller is the only claimer, and a claim leaves the timers due until they are settled
      expect(ids(await j.claimDue(3000, 10, LEASE))).toEqual(["t1", "t2", "t3"]);
      expect(await j.nextDueAt()).toBe(1000);
    }
  });

  it("claims each timer with what its current slot's command meets: the slot's request record, or the target's stream", async () => {
    const store = factory.open();
    const toB = (id: string, key: string, due: number): TimerSpec => ({ ...timer(id, key, due), target: B });
    await store.events.append(commit(A, 0, "r1", 1, [set(toB("t1", "k1", 1000)), set(toB("t2", "k2", 1000))]));
    await store.events.append(commit(B, 0, slotRequestId("t1", 1), 1)); // t1's slot 1 already decided
    const batch = await store.timers.claimDue(5000, 10, LEASE);
    expect(batch.timers.map((t) => [t.id, t.target.id])).toEqual([
      ["t1", "b-1"],
      ["t2", "b-1"],
    ]);
    expect(batch.inputs[0]).toEqual({ decided: { requestId: "t1#1", version: 1, errorCode: "Ok" } });
    expect(batch.inputs[1]!.stream).toMatchObject({ version: 1, deleted: false });
    expect(batch.inputs[1]!.stream!.events.map((e) => e.position)).toEqual([2]);
  });

  it("settles: done deletes, next moves the slot, retry delays, park keeps the row with its error", async () => {
    const store = factory.open();
    const j = store.timers;
    const specs = ["a", "b", "c", "d"].map((k, i) => timer(`t-${k}`, k, 1000 + i));
    await store.events.append(commit(A, 0, "r1", 1, specs.map(set)));
    const claim = await j.claimDue(5000, 10, { owner: "me", until: 35_000 });
    await j.settle(claim, [
      done("t-a"),
      { id: "t-b", slot: 1, outcome: { kind: "next", slot: 2, due: 60_000 } },
      { id: "t-c", slot: 1, outcome: { kind: "retry", attempts: 1, fireAt: 6000, error: "boom" } },
      { id: "t-d", slot: 1, outcome: { kind: "park", attempts: 10, error: "dead", at: 5000 } },
    ]);
    expect(await j.timer("t-a")).toBeUndefined();
    expect(await j.timer("t-b")).toMatchObject({ slot: 2, due: 60_000, fireAt: 60_000, attempts: 0, status: "pending" });
    expect(await j.timer("t-c")).toMatchObject({ slot: 1, due: 1002, fireAt: 6000, attempts: 1, lastError: "boom", status: "pending" });
    expect(await j.timer("t-d")).toMatchObject({ status: "parked", attempts: 10, lastError: "dead", parkedAt: 5000 });
    expect((await j.list({ status: "parked" })).map((t) => t.id)).toEqual(["t-d"]);
    expect((await j.list({ status: "pending" })).map((t) => [t.id, t.due])).toEqual([["t-c", 1002], ["t-b", 60_000]]);
    expect((await j.list({ status: "pending", limit: 1 })).map((t) => t.id)).toEqual(["t-c"]);
    expect(ids(await j.claimDue(6000, 10, { owner: "me", until: 36_000 }))).toEqual(["t-c"]);
    const later = await j.claimDue(1_000_000, 10, { owner: "me", until: 2_000_000 });
    expect(ids(later).sort()).toEqual(["t-b", "t-c"]); // the parked one is never claimed
  });

  it("lists one tenant's pending and parked timers, past the limit of the others'", async () => {
    const store = factory.open();
    const j = store.timers;
    const other = aggregateRef("ctx", "agg", "c-1", "t2");
    await store.events.append(commit(A, 0, "r1", 1, [1, 2, 3].map((n) => set(timer(`a-${n}`, `k${n}`, 1000 + n)))));
    await store.events.append(commit(other, 0, "r1", 1, [set(timer("c-1", "k", 9000, other)), set(timer("c-2", "k2", 9500, other))]));
    expect((await j.list({ status: "pending", limit: 2, tenantId: "t2" })).map((t) => t.id)).toEqual(["c-1", "c-2"]);
    expect((await j.list({ status: "pending", limit: 2, tenantId: "t1" })).map((t) => t.id)).toEqual(["a-1", "a-2"]);
    const claim = await j.claimDue(10_000, 10, LEASE);
    await j.settle(claim, [
      { id: "a-1", slot: 1, outcome: { kind: "park", attempts: 3, error: "x", at: 100 } },
      { id: "c-2", slot: 1, outcome: { kind: "park", attempts: 3, error: "y", at: 200 } },
    ]);
    expect((await j.list({ status: "parked", limit: 1, tenantId: "t2" })).map((t) => t.id)).toEqual(["c-2"]);
    expect((await j.list({ status: "parked", tenantId: "t3" })).map((t) => t.id)).toEqual([]);
    expect((await j.list({ status: "parked" })).map((t) => t.id)).toEqual(["a-1", "c-2"]);
  });

  it("searches pending timers by aggregate id, key and command type, with a tenant, a page at a time after a listed one", async () => {
    const store = factory.open();
    const j = store.timers;
    const other = aggregateRef("ctx", "agg", "c-1", "t2");
    const ring = (spec: TimerSpec): TimerSpec => ({ ...spec, command: { type: "ctx.Ring", body: {} } });
    await store.events.append(commit(A, 0, "r1", 1, [set(timer("a-1", "expire", 3000)), set(ring(timer("a-2", "remind", 1000))), set(timer("a-3", "remind-2", 2000))]));
    await store.events.append(commit(B, 0, "r1", 1, [set(timer("b-1", "expire", 1500, B))]));
    await store.events.append(commit(other, 0, "r1", 1, [set(ring(timer("c-1", "expire", 500, other)))]));
    const list = async (query: Omit<Parameters<typeof j.list>[0], "status">) => (await j.list({ status: "pending", ...query })).map((t) => t.id);
    expect(await list({ aggregateId: "a-1" })).toEqual(["a-2", "a-3", "a-1"]);
    expect(await list({ key: "expire" })).toEqual(["c-1", "b-1", "a-1"]);
    expect(await list({ key: "expire", tenantId: "t1" })).toEqual(["b-1", "a-1"]);
    expect(await list({ command: "ctx.Ring" })).toEqual(["c-1", "a-2"]);
    expect(await list({ command: "ctx.Ring", aggregateId: "c-1", tenantId: "t1" })).toEqual([]);
    expect(await list({ key: "nothing" })).toEqual([]);
    // A key set again with another command is listed under its new command only.
    await store.events.append(commit(other, 1, "r2", 1, [set(timer("c-2", "expire", 500, other))]));
    expect(await list({ command: "ctx.Ring" })).toEqual(["a-2"]);
    expect(await list({ command: "ctx.Do", aggregateId: "c-1" })).toEqual(["c-2"]);
    await store.events.append(commit(other, 2, "r3", 1, [set(ring(timer("c-1", "expire", 500, other)))]));
    // Pages: after a listed timer's due time and id, in due order, each page only its own rows.
    const first = await j.list({ status: "pending", limit: 2 });
    expect(first.map((t) => t.id)).toEqual(["c-1", "a-2"]);
    const last = first[first.length - 1]!;
    expect(await list({ limit: 2, after: [last.due, last.id] })).toEqual(["b-1", "a-3"]);
    expect(await list({ limit: 2, after: [2000, "a-3"] })).toEqual(["a-1"]);
    expect(await list({ tenantId: "t1", after: [1500, "b-1"] })).toEqual(["a-3", "a-1"]);
    expect(await j.counts(2000, "t1")).toEqual({ due: 3, parked: 0 });
    expect(await j.counts(2000, "t2")).toEqual({ due: 1, parked: 0 });
    expect(await j.counts(2000)).toEqual({ due: 4, parked: 0 });
  });

  it("ignores a settlement for a slot the timer is no longer at, or a timer that was replaced", async () => {
    const store = factory.open();
    const j = store.timers;
    await store.events.append(commit(A, 0, "r1", 1, [set(timer("t1", "k", 1000))]));
    const claim = await j.claimDue(1000, 10, LEASE);
    await store.events.append(commit(A, 1, "r2", 1, [set(timer("t2", "k", 2000))]));
    expect(await j.settle(claim, [{ id: "t1", slot: 1, outcome: { kind: "next", slot: 2, due: 5000 } }])).toEqual([]);
    expect(await j.timer("t1")).toBeUndefined();
    await j.settle(claim, [done("t2", 7)]);
    expect(await j.timer("t2")).toMatchObject({ slot: 1, status: "pending" });
  });

  it("redrives a parked timer: pending, due now, attempts reset; not a pending one", async () => {
    const store = factory.open();
    const j = store.timers;
    await store.events.append(commit(A, 0, "r1", 1, [set(timer("t1", "k", 1000)), set(timer("t2", "k2", 1000))]));
    const claim = await j.claimDue(1000, 1, LEASE);
    await j.settle(claim, [{ id: "t1", slot: 1, outcome: { kind: "park", attempts: 3, error: "x", at: 1500 } }]);
    expect(await j.redrive("t2", 2000)).toBe(false);
    expect(await j.redrive("t1", 2000)).toBe(true);
    expect(await j.redrive("t1", 2000)).toBe(false);
    expect(await j.timer("t1")).toMatchObject({ status: "pending", attempts: 0, fireAt: 2000 });
    expect(await j.list({ status: "parked" })).toEqual([]);
  });

  it("bounds what a claim returns by the limit, however many timers are due", async () => {
    const store = factory.open();
    const specs = Array.from({ length: 250 }, (_, i) => timer(`t${i}`, `k${i}`, 1000 + (i % 7)));
    await store.events.append(commit(A, 0, "r1", 1, specs.map(set)));
    const first = await store.timers.claimDue(10_000, 100, LEASE);
    expect(first.timers).toHaveLength(100);
    expect(first.timers.map((t) => t.due)).toEqual([...first.timers.map((t) => t.due)].sort((a, b) => a - b));
    await store.timers.settle(first, first.timers.map((t) => done(t.id)));
    expect((await store.timers.claimDue(10_000, 100, LEASE)).timers).toHaveLength(100);
  });

  it("commits a batch with its settlements at once; a refused commit applies nothing of its entry and refuses its aggregate's later commits", async () => {
    const store = factory.open();
    const j = store.timers;
    const specs = ["a", "b", "c", "d", "e"].map((k, i) => timer(`t-${k}`, k, 1000 + i));
    await store.events.append(commit(A, 0, "r1", 1, specs.map(set)));
    await store.events.append(commit(B, 0, "rb", 1));
    const batch = await j.claimDue(5000, 10, { owner: "me", until: 35_000 });
    const outcomes = await j.commitBatch(batch, [
      { commit: commit(A, 1, "r2", 2), settlement: done("t-a") },
      { settlement: { id: "t-b", slot: 1, outcome: { kind: "next", slot: 2, due: 60_000 } } },
      { commit: commit(B, 0, "rb2", 1), settlement: done("t-c") }, // stale: B is at 1
      { commit: commit(B, 1, "rb3", 1), settlement: done("t-d") }, // decided on top of the refused one
      { commit: commit(A, 2, "r1", 1), settlement: done("t-e") }, // r1 already decided for A
    ]);
    expect(outcomes.map((o) => o.ok)).toEqual([true, true, false, false, false]);
    expect(outcomes[0]).toMatchObject({ ok: true, appended: { version: 2 } });
    const first = outcomes[0]!;
    expect(first.ok && first.appended?.events.map((e) => e.position)).toEqual([3, 4]);
    expect(outcomes[2]).toMatchObject({ ok: false, error: expect.any(VersionConflictError) });
    expect(outcomes[3]).toMatchObject({ ok: false, error: expect.any(VersionConflictError), untried: true });
    expect(outcomes[2]).not.toHaveProperty("untried");
    expect(outcomes[4]).toMatchObject({ ok: false, error: expect.any(DuplicateRequestError) });
    expect((await store.events.load(A)).version).toBe(2);
    expect((await store.events.load(B)).version).toBe(1);
    expect(await store.events.findRequest(B, "rb2")).toBeUndefined();
    expect(await store.events.findRequest(B, "rb3")).toBeUndefined();
    expect(await j.timer("t-a")).toBeUndefined();
    expect(await j.timer("t-b")).toMatchObject({ slot: 2, fireAt: 60_000 });
    for (const id of ["t-c", "t-d", "t-e"]) expect(await j.timer(id)).toMatchObject({ slot: 1, status: "pending" });
  });

  it("fences a lapsed claim: once another claimer took a timer, the first one's commit and settlement for it write nothing and are reported lost", async () => {
    const store = factory.open();
    const j = store.timers;
    await store.events.append(commit(A, 0, "r1", 1, [set(timer("t1", "k1", 1000)), set(timer("t2", "k2", 1000)), set(timer("t3", "k3", 1000))]));
    await store.events.append(commit(B, 0, "rb", 1));
    const first = await j.claimDue(1000, 10, { owner: "host-a", until: 2000 });
    expect(ids(first).sort()).toEqual(["t1", "t2", "t3"]);
    // host-a pauses past its lease; host-b, judging by the time it gives, claims one of them again
    const second = await j.claimDue(2000, 1, { owner: "host-b", until: 32_000 });
    expect(second.timers).toHaveLength(1);
    const taken = second.timers[0]!.id;
    const [held, other] = ["t1", "t2", "t3"].filter((id) => id !== taken) as [string, string];
    const outcomes = await j.commitBatch(first, [
      { commit: commit(A, 1, "a-1", 2), settlement: done(taken) },
      { commit: commit(A, 2, "a-2", 1), settlement: done(other) }, // decided on top of the lost one
      { commit: commit(B, 1, "b-1", 1), settlement: done(held) },
    ]);
    expect(outcomes[0]).toEqual({ ok: false, lost: true });
    expect(outcomes[1]).toMatchObject({ ok: false, error: expect.any(VersionConflictError), untried: true });
    expect(outcomes[2]).toMatchObject({ ok: true, appended: { version: 2 } });
    expect((await store.events.load(A)).version).toBe(1);
    expect(await store.events.findRequest(A, "a-1")).toBeUndefined();
    expect(await j.timer(taken)).toMatchObject({ slot: 1, status: "pending", ...(factory.shared ? { fireAt: 32_000 } : {}) });
    expect(await j.timer(held)).toBeUndefined();
    // a job's tick (the next cron slot) under the lost claim is refused too; the rest of the settlement applies
    expect(await j.settle(first, [{ id: taken, slot: 1, outcome: { kind: "next", slot: 2, due: 60_000 } }, done(other)])).toEqual([taken]);
    expect(await j.timer(taken)).toMatchObject({ slot: 1, status: "pending" });
    expect(await j.timer(other)).toBeUndefined();
    // the claim that holds it decides the slot
    const mine = await j.commitBatch(second, [{ commit: commit(A, 1, "b-on-a", 1), settlement: { id: taken, slot: 1, outcome: { kind: "next", slot: 2, due: 60_000 } } }]);
    expect(mine).toMatchObject([{ ok: true, appended: { version: 2 } }]);
    expect(await j.timer(taken)).toMatchObject({ slot: 2, due: 60_000, status: "pending" });
    // and a settlement once applied ends the claim: the old batch cannot apply it again
    expect(await j.settle(second, [{ id: taken, slot: 2, outcome: { kind: "park", attempts: 1, error: "x", at: 3000 } }])).toEqual([taken]);
    expect(await j.timer(taken)).toMatchObject({ slot: 2, status: "pending" });
  });

  it("checks a batch's versions at its commit, not at its claim: a commit in between is a conflict", async () => {
    const store = factory.open();
    await store.events.append(commit(A, 0, "r1", 1, [set(timer("t1", "k", 1000))]));
    const batch = await store.timers.claimDue(5000, 10, LEASE);
    expect(batch.inputs[0]!.stream!.version).toBe(1);
    await store.events.append(commit(A, 1, "r3", 1)); // lands after the claim, before the batch commits
    const outcomes = await store.timers.commitBatch(batch, [{ commit: commit(A, 1, "t1#1", 1), settlement: done("t1") }, { commit: commit(B, 0, "rb", 1), settlement: done("none") }]);
    expect(outcomes[0]).toMatchObject({ ok: false, error: expect.any(VersionConflictError) });
    expect(outcomes[1]).toMatchObject({ ok: true, appended: { version: 1 } });
    expect((await store.events.load(A)).version).toBe(2);
    expect(await store.timers.timer("t1")).toMatchObject({ status: "pending" });
    // claimed again, the batch commits; the batch's own commits move the versions its later commits are checked against
    const again = await store.timers.claimDue(50_000, 10, { owner: "me", until: 90_000 });
    const outcomes2 = await store.timers.commitBatch(again, [
      { commit: commit(A, 2, "t1#1", 1), settlement: done("t1") },
      { commit: commit(A, 2, "r4", 1), settlement: done("none") },
      { commit: commit(A, 3, "r5", 1), settlement: done("none") },
    ]);
    expect(outcomes2.map((o) => o.ok)).toEqual([true, false, false]);
    expect(outcomes2[1]).toMatchObject({ ok: false, error: expect.any(VersionConflictError) });
    expect((await store.events.load(A)).version).toBe(3);
    expect(await store.timers.timer("t1")).toBeUndefined();
  });

  it("commits a claimed batch as one-by-one commits would: positions, versions, requests, ended and moved timers", async () => {
    const store = factory.open();
    const j = store.timers;
    const toB = (id: string, key: string, due: number): TimerSpec => ({ ...timer(id, key, due), target: B });
    await store.events.append(commit(A, 0, "r1", 1, [timer("t1", "k1", 1000), toB("t2", "k2", 1100), timer("t3", "k3", 1200), timer("t4", "k4", 1300)].map(set)));
    await store.events.append(commit(B, 0, "rb", 2));
    const batch = await j.claimDue(5000, 10, LEASE);
    expect(ids(batch)).toEqual(["t1", "t2", "t3", "t4"]);
    expect(batch.inputs.map((input) => input.stream?.version)).toEqual([1, 1, 1, 1]);
    const outcomes = await j.commitBatch(batch, [
      { commit: commit(A, 1, "t1#1", 2), settlement: done("t1") },
      { commit: commit(B, 1, "t2#1", 1), settlement: done("t2") },
      { commit: commit(A, 2, "t3#1", 0), settlement: { id: "t3", slot: 1, outcome: { kind: "next", slot: 2, due: 9000 } } },
      { commit: commit(A, 2, "t4#1", 1), settlement: { id: "t4", slot: 1, outcome: { kind: "retry", attempts: 1, error: "boom", fireAt: 7000 } } },
    ]);
    expect(outcomes.map((o) => o.ok && o.appended && [o.appended.version, o.appended.events.map((e) => e.position)])).toEqual([
      [2, [4, 5]],
      [2, [6]],
      [2, []],
      [3, [7]],
    ]);
    // what the batch answered is what is stored
    expect((await store.events.read(3, 10)).map((e) => [e.aggregate.id, e.version, e.sequence, e.position])).toEqual([
      ["a-1", 2, 1, 4],
      ["a-1", 2, 2, 5],
      ["b-1", 2, 1, 6],
      ["a-1", 3, 1, 7],
    ]);
    expect((await store.events.load(A)).version).toBe(3);
    expect((await store.events.load(B)).version).toBe(2);
    expect(await store.events.findRequest(B, "t2#1")).toEqual({ requestId: "t2#1", version: 2, errorCode: "Ok" });
    expect(await store.events.findRequest(A, "t3#1")).toEqual({ requestId: "t3#1", version: 2, errorCode: "Ok" });
    expect(await j.timer("t1")).toBeUndefined();
    expect(await j.timer("t2")).toBeUndefined();
    expect(await j.timer("t3")).toMatchObject({ slot: 2, due: 9000, status: "pending" });
    expect(await j.timer("t4")).toMatchObject({ slot: 1, attempts: 1, fireAt: 7000, lastError: "boom" });
    // a settlement for a slot the timer is not at leaves it
    const later = await j.claimDue(9000, 10, { owner: "me", until: 99_000 });
    expect(ids(later)).toEqual(["t4", "t3"]);
    expect((await j.commitBatch(later, [{ commit: commit(A, 3, "t3#2", 0), settlement: done("t3", 1) }]))[0]!.ok).toBe(true);
    expect(await j.timer("t3")).toMatchObject({ slot: 2, status: "pending" });
  });

  it("refuses a batch's commit whose request id was recorded but not claimed, or is recorded twice by the batch", async () => {
    const store = factory.open();
    const C = aggregateRef("ctx", "agg", "c-1", "t1");
    await store.events.append(commit(A, 0, "r1", 1, [set(timer("ta", "k", 1000)), set({ ...timer("tb", "k2", 1000), target: B })]));
    await store.events.append(commit(C, 0, "rc", 1));
    const batch = await store.timers.claimDue(5000, 10, LEASE);
    const outcomes = await store.timers.commitBatch(batch, [
      { commit: commit(B, 0, "tb#1", 1), settlement: done("tb") },
      { commit: commit(C, 1, "rc", 1), settlement: done("none") }, // rc: recorded before, not part of the claim
      { commit: commit(A, 1, "ta#1", 1), settlement: done("ta") },
    ]);
    expect(outcomes.map((o) => o.ok)).toEqual([true, false, true]);
    expect(outcomes[1]).toMatchObject({ ok: false, error: expect.any(DuplicateRequestError) });
    expect((await store.events.load(A)).version).toBe(2);
    expect((await store.events.load(C)).version).toBe(1);
    /** Claims, then commits `first` and `second`: the second is refused as a duplicate. */
    const secondIsDuplicate = async (ref: AggregateRef, first: Commit, second: Commit) => {
      const claimed = await store.timers.claimDue(5000, 10, LEASE);
      const result = await store.timers.commitBatch(claimed, [
        { commit: first, settlement: done("none") },
        { commit: second, settlement: done("none") },
      ]);
      expect(result.map((o) => o.ok)).toEqual([true, false]);
      expect(result[1]).toMatchObject({ ok: false, error: expect.any(DuplicateRequestError) });
      expect((await store.events.load(ref)).version).toBe(first.request.version);
    };
    // a request id of a stream that the claim did not read
    await secondIsDuplicate(A, commit(A, 2, "r3", 1), commit(A, 3, "r1", 1));
    // a request id the batch records twice
    await secondIsDuplicate(B, commit(B, 1, "rb2", 1), commit(B, 2, "rb2", 1));
  });

  it("ends a claimed batch's slots by timer and slot when a commit of the batch set the same timer key again", async () => {
    const store = factory.open();
    await store.events.append(commit(A, 0, "r1", 1, [set(timer("t1", "k1", 1000))]));
    const batch = await store.timers.claimDue(5000, 10, LEASE);
    // the delivery sets its own key again: a new timer in the same row; the ended slot is the old timer's
    const again = commit(A, 1, "t1#1", 1, [set(timer("t1b", "k1", 8000))]);
    const outcomes = await store.timers.commitBatch(batch, [{ commit: again, settlement: done("t1") }]);
    expect(outcomes[0]!.ok).toBe(true);
    expect(await store.timers.timer("t1")).toBeUndefined();
    expect(await store.timers.timer("t1b")).toMatchObject({ key: "k1", due: 8000, status: "pending" });
  });

  it("commits a batch's schedule changes and deletions with its events, and refuses a request id twice within the batch", async () => {
    const store = factory.open();
    await store.events.append(commit(B, 0, "rb", 1, [set(timer("tb", "kb", 9000, B))]));
    const batch = await store.timers.claimDue(0, 10, LEASE);
    const deleteB: Commit = { ...commit(B, 1, "rb2", 1), deleted: true, timers: [{ kind: "cancelAll" }] };
    const outcomes = await store.timers.commitBatch(batch, [
      { commit: commit(A, 0, "r1", 1, [set(timer("ta", "ka", 5000))]), settlement: done("none") },
      { commit: commit(A, 1, "r1", 1), settlement: done("none") },
      { commit: deleteB, settlement: done("none") },
    ]);
    expect(outcomes.map((o) => o.ok)).toEqual([true, false, true]);
    expect(outcomes[1]).toMatchObject({ ok: false, error: expect.any(DuplicateRequestError) });
    expect((await store.timers.timer("ta"))?.due).toBe(5000);
    expect(await store.timers.timer("tb")).toBeUndefined();
    expect(await store.events.load(B)).toMatchObject({ version: 2, deleted: true });
    expect((await store.events.read(0, 10)).map((e) => [e.aggregate.id, e.version, e.position])).toEqual([
      ["b-1", 1, 1],
      ["a-1", 1, 2],
      ["b-1", 2, 3],
    ]);
  });
});
