// One contract, both journals: events, request ids, optimistic concurrency, timers.
import { describe, expect, it } from "vitest";
import {
  DuplicateRequestError,
  ScheduleRule,
  VersionConflictError,
  aggregateRef,
  slotRequestId,
  type AggregateRef,
  type Commit,
  type EventMessage,
  type Journal,
  type TimerSpec,
} from "../../runtime/index.js";
import { stores } from "./fixtures/stores.js";

const A = aggregateRef("ctx", "agg", "a-1", "t1");
const B = aggregateRef("ctx", "agg", "b-1", "t1");

function event(ref: AggregateRef, version: number, sequence: number, type = "ctx.Happened"): EventMessage {
  return { eventId: `${ref.id}-${version}-${sequence}`, type, body: { n: sequence }, aggregate: ref, version, sequence, commandId: `c${version}`, requestId: `r${version}`, createdAt: 1000 };
}

function commit(ref: AggregateRef, expectedVersion: number, requestId: string, count = 1, timers: Commit["timers"] = []): Commit {
  const events = Array.from({ length: count }, (_, i) => event(ref, expectedVersion + 1, i + 1));
  return { aggregate: ref, expectedVersion, events, request: { requestId, version: count > 0 ? expectedVersion + 1 : expectedVersion, errorCode: "Ok" }, timers };
}

function timer(id: string, key: string, due: number, owner: AggregateRef = A): TimerSpec {
  return {
    id,
    owner,
    key,
    rule: ScheduleRule.at(due),
    command: { type: "ctx.Do", body: { id } },
    target: owner,
    causation: { aggregate: owner, version: 1, commandId: "c", requestId: "r" },
    slot: 1,
    due,
  };
}

describe.each(stores)("journal contract: $name", (store) => {
  const open = (): Journal => store.open();

  it("loads an unknown aggregate as version 0, not deleted, no events", async () => {
    expect(await open().load(A)).toEqual({ version: 0, deleted: false, events: [] });
  });

  it("appends a commit and loads it back in order with global positions", async () => {
    const j = open();
    await j.append(commit(A, 0, "r1", 2));
    await j.append(commit(B, 0, "rb", 1));
    const appended = await j.append(commit(A, 1, "r2", 1));
    expect(appended.version).toBe(2);
    expect(appended.events[0]!.position).toBe(4);
    const loaded = await j.load(A);
    expect(loaded.version).toBe(2);
    expect(loaded.events.map((e) => [e.version, e.sequence, e.position])).toEqual([
      [1, 1, 1],
      [1, 2, 2],
      [2, 1, 4],
    ]);
    expect(loaded.events[0]).toEqual({ ...event(A, 1, 1), position: 1 });
  });

  it("reads all committed events in global order from a position", async () => {
    const j = open();
    await j.append(commit(A, 0, "r1", 2));
    await j.append(commit(B, 0, "rb", 1));
    await j.append(commit(A, 1, "r2", 1));
    expect((await j.read(0, 10)).map((e) => [e.aggregate.id, e.position])).toEqual([
      ["a-1", 1],
      ["a-1", 2],
      ["b-1", 3],
      ["a-1", 4],
    ]);
    expect((await j.read(2, 1)).map((e) => e.position)).toEqual([3]);
    expect(await j.read(4, 10)).toEqual([]);
  });

  it("loads for a decision: the request's record when already decided, else the stream (unknown: version 0)", async () => {
    const j = open();
    expect(await j.loadForDecision(A, "r1")).toEqual({ stream: { version: 0, deleted: false, events: [] } });
    await j.append(commit(A, 0, "r1"));
    await j.append({ aggregate: A, events: [], timers: [], request: { requestId: "no-op", version: 1, errorCode: "Rejected" } });
    expect(await j.loadForDecision(A, "r1")).toEqual({ decided: { requestId: "r1", version: 1, errorCode: "Ok" } });
    expect(await j.loadForDecision(A, "no-op")).toEqual({ decided: { requestId: "no-op", version: 1, errorCode: "Rejected" } });
    expect(await j.loadForDecision(B, "r1")).toEqual({ stream: { version: 0, deleted: false, events: [] } });
    const { stream } = await j.loadForDecision(A, "r2");
    expect(stream).toEqual(await j.load(A));
    expect(stream?.events).toHaveLength(1);
  });

  it("refuses a stale expected version and commits nothing of it (events, request, timers)", async () => {
    const j = open();
    await j.append(commit(A, 0, "r1"));
    await expect(j.append(commit(A, 0, "r2", 1, [{ kind: "set", timer: timer("t1", "k", 5000) }]))).rejects.toBeInstanceOf(VersionConflictError);
    expect((await j.load(A)).events).toHaveLength(1);
    expect(await j.findRequest(A, "r2")).toBeUndefined();
    expect(await j.timersOf(A)).toEqual([]);
  });

  it("refuses a request id already recorded for the aggregate, committing nothing", async () => {
    const j = open();
    await j.append(commit(A, 0, "r1"));
    await expect(j.append(commit(A, 1, "r1", 1, [{ kind: "set", timer: timer("t1", "k", 5000) }]))).rejects.toBeInstanceOf(DuplicateRequestError);
    expect((await j.load(A)).version).toBe(1);
    expect(await j.timersOf(A)).toEqual([]);
    // the same request id on another aggregate is another request
    await j.append(commit(B, 0, "r1"));
    expect(await j.findRequest(B, "r1")).toEqual({ requestId: "r1", version: 1, errorCode: "Ok" });
  });

  it("records a request without events or version check (a rejection), leaving the version", async () => {
    const j = open();
    await j.append(commit(A, 0, "r1"));
    await j.append({ aggregate: A, events: [], timers: [], request: { requestId: "rej", version: 1, errorCode: "Nope" } });
    expect(await j.findRequest(A, "rej")).toEqual({ requestId: "rej", version: 1, errorCode: "Nope" });
    expect((await j.load(A)).version).toBe(1);
    // also on an aggregate that does not exist
    await j.append({ aggregate: B, events: [], timers: [], request: { requestId: "nf", version: 0, errorCode: "NotFound" } });
    expect(await j.load(B)).toEqual({ version: 0, deleted: false, events: [] });
  });

  it("marks an aggregate deleted and drops all its timers in the same commit", async () => {
    const j = open();
    await j.append(commit(A, 0, "r1", 1, [{ kind: "set", timer: timer("t1", "k1", 5000) }, { kind: "set", timer: timer("t2", "k2", 6000) }]));
    await j.append(commit(B, 0, "rb", 1, [{ kind: "set", timer: timer("tb", "k1", 5000, B) }]));
    await j.append({ ...commit(A, 1, "r2", 1, [{ kind: "cancelAll" }]), deleted: true });
    expect((await j.load(A)).deleted).toBe(true);
    expect(await j.timersOf(A)).toEqual([]);
    expect((await j.timersOf(B)).map((t) => t.id)).toEqual(["tb"]);
  });

  it("keeps one timer per owner and key: set replaces, cancel deletes", async () => {
    const j = open();
    await j.append(commit(A, 0, "r1", 1, [{ kind: "set", timer: timer("t1", "k", 5000) }]));
    await j.append(commit(A, 1, "r2", 1, [{ kind: "set", timer: timer("t2", "k", 7000) }]));
    expect((await j.timersOf(A)).map((t) => [t.id, t.due, t.fireAt, t.status])).toEqual([["t2", 7000, 7000, "pending"]]);
    expect(await j.timer("t1")).toBeUndefined();
    await j.append(commit(A, 2, "r3", 1, [{ kind: "cancel", key: "k" }]));
    expect(await j.timersOf(A)).toEqual([]);
    expect(await j.nextFireAt()).toBeUndefined();
  });

  it("stores a timer's spec as given", async () => {
    const j = open();
    const spec = timer("t1", "k", 5000);
    await j.append(commit(A, 0, "r1", 1, [{ kind: "set", timer: spec }]));
    expect(await j.timer("t1")).toEqual({ ...spec, status: "pending", fireAt: 5000, attempts: 0 });
  });

  it("claims only due timers, earliest first, at most the limit, and leases them", async () => {
    const j = open();
    const specs = [timer("t3", "k3", 3000), timer("t1", "k1", 1000), timer("t2", "k2", 2000), timer("t9", "k9", 90_000)];
    await j.append(commit(A, 0, "r1", 1, specs.map((t) => ({ kind: "set" as const, timer: t }))));
    expect(await j.nextFireAt()).toBe(1000);
    expect(await j.claimDue(999, 10, 99_999, "me")).toEqual([]);
    expect((await j.claimDue(3000, 2, 13_000, "me")).map((t) => t.id)).toEqual(["t1", "t2"]);
    // leased: not claimable again before the lease ends
    expect((await j.claimDue(3000, 10, 13_000, "me")).map((t) => t.id)).toEqual(["t3"]);
    expect(await j.claimDue(12_999, 10, 20_000, "other")).toEqual([]);
    // a lease that ran out (its holder died) lets another claim it
    expect((await j.claimDue(13_000, 10, 20_000, "other")).map((t) => t.id).sort()).toEqual(["t1", "t2", "t3"]);
    expect(await j.nextFireAt()).toBe(20_000); // a lease's end is when the timer may be claimed again
  });

  it("settles: done deletes, next moves the slot, retry delays, park keeps the row with its error", async () => {
    const j = open();
    const specs = ["a", "b", "c", "d"].map((k, i) => timer(`t-${k}`, k, 1000 + i));
    await j.append(commit(A, 0, "r1", 1, specs.map((t) => ({ kind: "set" as const, timer: t }))));
    await j.claimDue(5000, 10, 35_000, "me");
    await j.settle([
      { id: "t-a", slot: 1, outcome: { kind: "done" } },
      { id: "t-b", slot: 1, outcome: { kind: "next", slot: 2, due: 60_000 } },
      { id: "t-c", slot: 1, outcome: { kind: "retry", attempts: 1, fireAt: 6000, error: "boom" } },
      { id: "t-d", slot: 1, outcome: { kind: "park", attempts: 10, error: "dead", at: 5000 } },
    ]);
    expect(await j.timer("t-a")).toBeUndefined();
    expect(await j.timer("t-b")).toMatchObject({ slot: 2, due: 60_000, fireAt: 60_000, attempts: 0, status: "pending" });
    expect(await j.timer("t-c")).toMatchObject({ slot: 1, due: 1002, fireAt: 6000, attempts: 1, lastError: "boom", status: "pending" });
    expect(await j.timer("t-d")).toMatchObject({ status: "parked", attempts: 10, lastError: "dead", parkedAt: 5000 });
    expect((await j.parked()).map((t) => t.id)).toEqual(["t-d"]);
    expect((await j.pendingTimers()).map((t) => [t.id, t.due])).toEqual([["t-c", 1002], ["t-b", 60_000]]);
    expect((await j.pendingTimers(1)).map((t) => t.id)).toEqual(["t-c"]);
    expect((await j.claimDue(6000, 10, 36_000, "me")).map((t) => t.id)).toEqual(["t-c"]);
    const later = await j.claimDue(1_000_000, 10, 2_000_000, "me");
    expect(later.map((t) => t.id).sort()).toEqual(["t-b", "t-c"]); // the parked one is never claimed
  });

  it("lists one tenant's pending and parked timers, past the limit of the others'", async () => {
    const j = open();
    const other = aggregateRef("ctx", "agg", "c-1", "t2");
    const set = (t: TimerSpec) => ({ kind: "set" as const, timer: t });
    await j.append(commit(A, 0, "r1", 1, [1, 2, 3].map((n) => set(timer(`a-${n}`, `k${n}`, 1000 + n)))));
    await j.append(commit(other, 0, "r1", 1, [set(timer("c-1", "k", 9000, other)), set(timer("c-2", "k2", 9500, other))]));
    expect((await j.pendingTimers(2, "t2")).map((t) => t.id)).toEqual(["c-1", "c-2"]);
    expect((await j.pendingTimers(2, "t1")).map((t) => t.id)).toEqual(["a-1", "a-2"]);
    await j.claimDue(10_000, 10, 40_000, "me");
    await j.settle([
      { id: "a-1", slot: 1, outcome: { kind: "park", attempts: 3, error: "x", at: 100 } },
      { id: "c-2", slot: 1, outcome: { kind: "park", attempts: 3, error: "y", at: 200 } },
    ]);
    expect((await j.parked(1, "t2")).map((t) => t.id)).toEqual(["c-2"]);
    expect((await j.parked(10, "t3")).map((t) => t.id)).toEqual([]);
    expect((await j.parked()).map((t) => t.id)).toEqual(["a-1", "c-2"]);
  });

  it("ignores a settlement for a slot the timer is no longer at, or a timer that was replaced", async () => {
    const j = open();
    await j.append(commit(A, 0, "r1", 1, [{ kind: "set", timer: timer("t1", "k", 1000) }]));
    await j.claimDue(1000, 10, 31_000, "me");
    await j.append(commit(A, 1, "r2", 1, [{ kind: "set", timer: timer("t2", "k", 2000) }]));
    await j.settle([{ id: "t1", slot: 1, outcome: { kind: "next", slot: 2, due: 5000 } }]);
    expect(await j.timer("t1")).toBeUndefined();
    await j.settle([{ id: "t2", slot: 7, outcome: { kind: "done" } }]);
    expect(await j.timer("t2")).toMatchObject({ slot: 1, status: "pending" });
  });

  it("redrives a parked timer: pending, due now, attempts reset; not a pending one", async () => {
    const j = open();
    await j.append(commit(A, 0, "r1", 1, [{ kind: "set", timer: timer("t1", "k", 1000) }, { kind: "set", timer: timer("t2", "k2", 1000) }]));
    await j.claimDue(1000, 1, 31_000, "me");
    await j.settle([{ id: "t1", slot: 1, outcome: { kind: "park", attempts: 3, error: "x", at: 1500 } }]);
    expect(await j.redrive("t2", 2000)).toBe(false);
    expect(await j.redrive("t1", 2000)).toBe(true);
    expect(await j.redrive("t1", 2000)).toBe(false);
    expect(await j.timer("t1")).toMatchObject({ status: "pending", attempts: 0, fireAt: 2000 });
    expect(await j.parked()).toEqual([]);
  });

  it("bounds what a claim returns by the limit, however many timers are due", async () => {
    const j = open();
    const specs = Array.from({ length: 250 }, (_, i) => timer(`t${i}`, `k${i}`, 1000 + (i % 7)));
    await j.append(commit(A, 0, "r1", 1, specs.map((t) => ({ kind: "set" as const, timer: t }))));
    const first = await j.claimDue(10_000, 100, 40_000, "me");
    expect(first).toHaveLength(100);
    expect(first.map((t) => t.due)).toEqual([...first.map((t) => t.due)].sort((a, b) => a - b));
    expect(await j.claimDue(10_000, 100, 40_000, "me")).toHaveLength(100);
    expect(await j.claimDue(10_000, 100, 40_000, "me")).toHaveLength(50);
  });

  it("loads for many decisions in one read, in order (the batch path's capability)", async () => {
    const j = open();
    if (!j.loadForDecisions) return expect(j.commitBatch).toBeUndefined();
    await j.append(commit(A, 0, "r1", 2));
    const C = aggregateRef("ctx", "agg", "c-1", "t1");
    const inputs = await j.loadForDecisions([
      { aggregate: A, requestId: "r1" },
      { aggregate: A, requestId: "r2" },
      { aggregate: C, requestId: "r1" },
    ]);
    expect(inputs[0]).toEqual({ decided: { requestId: "r1", version: 1, errorCode: "Ok" } });
    expect(inputs[1]!.stream).toMatchObject({ version: 1, deleted: false });
    expect(inputs[1]!.stream!.events.map((e) => [e.version, e.sequence, e.position])).toEqual([
      [1, 1, 1],
      [1, 2, 2],
    ]);
    expect(inputs[2]).toEqual({ stream: { version: 0, deleted: false, events: [] } });
  });

  it("commits a batch with its settlements at once; a refused commit applies nothing of its entry and refuses its aggregate's later commits", async () => {
    const j = open();
    if (!j.commitBatch) return expect(j.loadForDecisions).toBeUndefined();
    const specs = ["a", "b", "c", "d", "e"].map((k, i) => timer(`t-${k}`, k, 1000 + i));
    await j.append(commit(A, 0, "r1", 1, specs.map((t) => ({ kind: "set" as const, timer: t }))));
    await j.append(commit(B, 0, "rb", 1));
    await j.claimDue(5000, 10, 35_000, "me");
    const done = (id: string) => ({ id, slot: 1, outcome: { kind: "done" as const } });
    const outcomes = await j.commitBatch([
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
    expect((await j.load(A)).version).toBe(2);
    expect((await j.load(B)).version).toBe(1);
    expect(await j.findRequest(B, "rb2")).toBeUndefined();
    expect(await j.findRequest(B, "rb3")).toBeUndefined();
    expect(await j.timer("t-a")).toBeUndefined();
    expect(await j.timer("t-b")).toMatchObject({ slot: 2, fireAt: 60_000 });
    for (const id of ["t-c", "t-d", "t-e"]) expect(await j.timer(id)).toMatchObject({ slot: 1, status: "pending", fireAt: 35_000 });
  });

  it("checks a batch's versions at its commit, not at its load: a commit in between is a conflict", async () => {
    const j = open();
    if (!j.commitBatch || !j.loadForDecisions) return;
    await j.append(commit(A, 0, "r1", 1));
    const [input] = await j.loadForDecisions([{ aggregate: A, requestId: "r2" }]);
    expect(input!.stream!.version).toBe(1);
    await j.append(commit(A, 1, "r3", 1)); // lands after the load, before the batch commits
    const none = { id: "none", slot: 1, outcome: { kind: "done" as const } };
    const outcomes = await j.commitBatch([{ commit: commit(A, 1, "r2", 1), settlement: none }, { commit: commit(B, 0, "rb", 1), settlement: none }]);
    expect(outcomes[0]).toMatchObject({ ok: false, error: expect.any(VersionConflictError) });
    expect(outcomes[1]).toMatchObject({ ok: true, appended: { version: 1 } });
    expect((await j.load(A)).version).toBe(2);
    // loaded again, the batch commits; the batch's own commits move the versions its later commits are checked against
    await j.loadForDecisions([{ aggregate: A, requestId: "r2" }]);
    const again = await j.commitBatch([
      { commit: commit(A, 2, "r2", 1), settlement: none },
      { commit: commit(A, 2, "r4", 1), settlement: none },
      { commit: commit(A, 3, "r5", 1), settlement: none },
    ]);
    expect(again.map((o) => o.ok)).toEqual([true, false, false]);
    expect(again[1]).toMatchObject({ ok: false, error: expect.any(VersionConflictError) });
    expect((await j.load(A)).version).toBe(3);
  });

  it("loads a due timer's slot for decision as it is at the load: its request decided or not, its target's stream", async () => {
    const j = open();
    if (!j.dueTimers || !j.loadForDecisions) return;
    const toB = (id: string, key: string, due: number): TimerSpec => ({ ...timer(id, key, due), target: B });
    await j.append(commit(A, 0, "r1", 1, [{ kind: "set", timer: toB("t1", "k1", 1000) }, { kind: "set", timer: toB("t2", "k2", 1000) }]));
    await j.append(commit(B, 0, slotRequestId("t1", 1), 1)); // t1's slot 1 already decided
    expect((await j.dueTimers(5000, 10)).map((t) => [t.id, t.target.id])).toEqual([
      ["t1", "b-1"],
      ["t2", "b-1"],
    ]);
    const slots = [
      { aggregate: B, requestId: slotRequestId("t1", 1) },
      { aggregate: B, requestId: slotRequestId("t2", 1) },
    ];
    const [first, second] = await j.loadForDecisions(slots);
    expect(first).toEqual({ decided: { requestId: "t1#1", version: 1, errorCode: "Ok" } });
    expect(second!.stream).toMatchObject({ version: 1, deleted: false });
    // a commit after the timers were read: the load sees it
    await j.dueTimers(5000, 10);
    await j.append(commit(B, 1, slotRequestId("t2", 1), 1));
    const [again, later] = await j.loadForDecisions(slots);
    expect(again!.decided).toBeDefined();
    expect(later).toEqual({ decided: { requestId: "t2#1", version: 2, errorCode: "Ok" } });
    expect((await j.loadForDecisions([{ aggregate: B, requestId: "r9" }]))[0]!.stream!.version).toBe(2);
  });

  it("reads due timers without leasing them (the batch path's capability)", async () => {
    const j = open();
    if (!j.dueTimers) return expect(j.commitBatch).toBeUndefined();
    const specs = [timer("t3", "k3", 3000), timer("t1", "k1", 1000), timer("t2", "k2", 2000), timer("t9", "k9", 90_000)];
    await j.append(commit(A, 0, "r1", 1, specs.map((t) => ({ kind: "set" as const, timer: t }))));
    expect(await j.dueTimers(999, 10)).toEqual([]);
    expect((await j.dueTimers(3000, 2)).map((t) => t.id)).toEqual(["t1", "t2"]);
    expect((await j.dueTimers(3000, 10)).map((t) => t.id)).toEqual(["t1", "t2", "t3"]); // not leased: still due
    expect(await j.dueTimers(3000, 1)).toEqual([await j.timer("t1")]);
    await j.claimDue(3000, 1, 13_000, "other"); // another poller's lease hides t1 until it ends
    expect((await j.dueTimers(3000, 10)).map((t) => t.id)).toEqual(["t2", "t3"]);
    expect(await j.nextFireAt()).toBe(2000);
  });

  it("commits a batch loaded from its due timers as one-by-one commits would: positions, versions, requests, ended and moved timers", async () => {
    const j = open();
    if (!j.dueTimers || !j.loadForDecisions || !j.commitBatch) return;
    const toB = (id: string, key: string, due: number): TimerSpec => ({ ...timer(id, key, due), target: B });
    await j.append(commit(A, 0, "r1", 1, [timer("t1", "k1", 1000), toB("t2", "k2", 1100), timer("t3", "k3", 1200), timer("t4", "k4", 1300)].map((t) => ({ kind: "set" as const, timer: t }))));
    await j.append(commit(B, 0, "rb", 2));
    const due = await j.dueTimers(5000, 10);
    expect(due.map((t) => t.id)).toEqual(["t1", "t2", "t3", "t4"]);
    const slots = due.map((t) => ({ aggregate: t.target, requestId: slotRequestId(t.id, t.slot) }));
    const inputs = await j.loadForDecisions(slots);
    expect(inputs.map((input) => input.stream?.version)).toEqual([1, 1, 1, 1]);
    const outcomes = await j.commitBatch([
      { commit: commit(A, 1, "t1#1", 2), settlement: { id: "t1", slot: 1, outcome: { kind: "done" } } },
      { commit: commit(B, 1, "t2#1", 1), settlement: { id: "t2", slot: 1, outcome: { kind: "done" } } },
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
    expect((await j.read(3, 10)).map((e) => [e.aggregate.id, e.version, e.sequence, e.position])).toEqual([
      ["a-1", 2, 1, 4],
      ["a-1", 2, 2, 5],
      ["b-1", 2, 1, 6],
      ["a-1", 3, 1, 7],
    ]);
    expect((await j.load(A)).version).toBe(3);
    expect((await j.load(B)).version).toBe(2);
    expect(await j.findRequest(B, "t2#1")).toEqual({ requestId: "t2#1", version: 2, errorCode: "Ok" });
    expect(await j.findRequest(A, "t3#1")).toEqual({ requestId: "t3#1", version: 2, errorCode: "Ok" });
    expect(await j.timer("t1")).toBeUndefined();
    expect(await j.timer("t2")).toBeUndefined();
    expect(await j.timer("t3")).toMatchObject({ slot: 2, due: 9000, status: "pending" });
    // a settlement for a slot the timer is not at leaves it
    expect((await j.dueTimers(9000, 10)).map((t) => t.id)).toEqual(["t4", "t3"]);
    await j.loadForDecisions([{ aggregate: A, requestId: "t3#2" }]);
    expect((await j.commitBatch([{ commit: commit(A, 3, "t3#2", 0), settlement: { id: "t3", slot: 1, outcome: { kind: "done" } } }]))[0]!.ok).toBe(true);
    expect(await j.timer("t3")).toMatchObject({ slot: 2, status: "pending" });
    expect(await j.timer("t4")).toMatchObject({ slot: 1, attempts: 1, fireAt: 7000, lastError: "boom" });
    expect((await j.dueTimers(9000, 10)).map((t) => t.id)).toEqual(["t4", "t3"]);
  });

  it("refuses a loaded batch's commit whose request id was recorded but not loaded, or is recorded twice by the batch", async () => {
    const j = open();
    if (!j.loadForDecisions || !j.commitBatch) return;
    const C = aggregateRef("ctx", "agg", "c-1", "t1");
    await j.append(commit(A, 0, "r1", 1));
    await j.append(commit(C, 0, "rc", 1));
    await j.loadForDecisions([
      { aggregate: A, requestId: "r2" },
      { aggregate: B, requestId: "rb" },
    ]);
    const none = { id: "none", slot: 1, outcome: { kind: "done" as const } };
    const outcomes = await j.commitBatch([
      { commit: commit(B, 0, "rb", 1), settlement: none },
      { commit: commit(C, 1, "rc", 1), settlement: none }, // rc: recorded before, not part of the load
      { commit: commit(A, 1, "r2", 1), settlement: none },
    ]);
    expect(outcomes.map((o) => o.ok)).toEqual([true, false, true]);
    expect(outcomes[1]).toMatchObject({ ok: false, error: expect.any(DuplicateRequestError) });
    expect((await j.load(A)).version).toBe(2);
    expect((await j.load(C)).version).toBe(1);
    /** Loads `ref` for `loaded`, then commits `first` and `second` on it: the second is refused as a duplicate. */
    const secondIsDuplicate = async (ref: AggregateRef, loaded: string, first: Commit, second: Commit) => {
      await j.loadForDecisions!([{ aggregate: ref, requestId: loaded }]);
      const outcomes = await j.commitBatch!([
        { commit: first, settlement: none },
        { commit: second, settlement: none },
      ]);
      expect(outcomes.map((o) => o.ok)).toEqual([true, false]);
      expect(outcomes[1]).toMatchObject({ ok: false, error: expect.any(DuplicateRequestError) });
      expect((await j.load(ref)).version).toBe(first.request.version);
    };
    // a loaded stream, and a request id of it that the load did not read
    await secondIsDuplicate(A, "r3", commit(A, 2, "r3", 1), commit(A, 3, "r1", 1));
    // a request id the batch records twice
    await secondIsDuplicate(B, "rb2", commit(B, 1, "rb2", 1), commit(B, 2, "rb2", 1));
  });

  it("ends a loaded batch's slots by timer and slot when a commit of the batch set the same timer key again", async () => {
    const j = open();
    if (!j.dueTimers || !j.loadForDecisions || !j.commitBatch) return;
    await j.append(commit(A, 0, "r1", 1, [{ kind: "set", timer: timer("t1", "k1", 1000) }]));
    const [due] = await j.dueTimers(5000, 10);
    await j.loadForDecisions([{ aggregate: A, requestId: slotRequestId(due!.id, 1) }]);
    // the delivery sets its own key again: a new timer in the same row; the ended slot is the old timer's
    const again = commit(A, 1, "t1#1", 1, [{ kind: "set", timer: timer("t1b", "k1", 8000) }]);
    const outcomes = await j.commitBatch([{ commit: again, settlement: { id: "t1", slot: 1, outcome: { kind: "done" } } }]);
    expect(outcomes[0]!.ok).toBe(true);
    expect(await j.timer("t1")).toBeUndefined();
    expect(await j.timer("t1b")).toMatchObject({ key: "k1", due: 8000, status: "pending" });
  });

  it("commits a batch's schedule changes and deletions with its events, and refuses a request id twice within the batch", async () => {
    const j = open();
    if (!j.commitBatch) return;
    await j.append(commit(B, 0, "rb", 1, [{ kind: "set", timer: timer("tb", "kb", 9000, B) }]));
    const deleteB: Commit = { ...commit(B, 1, "rb2", 1), deleted: true, timers: [{ kind: "cancelAll" }] };
    const outcomes = await j.commitBatch([
      { commit: commit(A, 0, "r1", 1, [{ kind: "set", timer: timer("ta", "ka", 5000) }]), settlement: { id: "none", slot: 1, outcome: { kind: "done" } } },
      { commit: commit(A, 1, "r1", 1), settlement: { id: "none", slot: 1, outcome: { kind: "done" } } },
      { commit: deleteB, settlement: { id: "none", slot: 1, outcome: { kind: "done" } } },
    ]);
    expect(outcomes.map((o) => o.ok)).toEqual([true, false, true]);
    expect(outcomes[1]).toMatchObject({ ok: false, error: expect.any(DuplicateRequestError) });
    expect((await j.timer("ta"))?.due).toBe(5000);
    expect(await j.timer("tb")).toBeUndefined();
    expect(await j.load(B)).toMatchObject({ version: 2, deleted: true });
    expect((await j.read(0, 10)).map((e) => [e.aggregate.id, e.version, e.position])).toEqual([
      ["b-1", 1, 1],
      ["a-1", 1, 2],
      ["b-1", 2, 3],
    ]);
  });
});
