// The event store's contract, for every store: streams, global order, request ids, optimistic
// concurrency, and the schedule changes a commit carries.
import { describe, expect, it } from "vitest";
import { DuplicateRequestError, VersionConflictError } from "../../../runtime/index.js";
import { stores } from "../fixtures/stores.js";
import { A, B, commit, event, set, timer } from "./contract-helpers.js";

describe.each(stores)("event store contract: $name", (factory) => {
  it("loads an unknown aggregate as version 0, not deleted, no events", async () => {
    expect(await factory.open().events.load(A)).toEqual({ version: 0, deleted: false, events: [] });
  });

  it("appends a commit and loads it back in order with global positions", async () => {
    const { events: j } = factory.open();
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
    const { events: j } = factory.open();
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
    const { events: j } = factory.open();
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
    const store = factory.open();
    const j = store.events;
    await j.append(commit(A, 0, "r1"));
    await expect(j.append(commit(A, 0, "r2", 1, [set(timer("t1", "k", 5000))]))).rejects.toBeInstanceOf(VersionConflictError);
    expect((await j.load(A)).events).toHaveLength(1);
    expect(await j.findRequest(A, "r2")).toBeUndefined();
    expect(await store.timers.timersOf(A)).toEqual([]);
  });

  it("refuses a request id already recorded for the aggregate, committing nothing", async () => {
    const store = factory.open();
    const j = store.events;
    await j.append(commit(A, 0, "r1"));
    await expect(j.append(commit(A, 1, "r1", 1, [set(timer("t1", "k", 5000))]))).rejects.toBeInstanceOf(DuplicateRequestError);
    expect((await j.load(A)).version).toBe(1);
    expect(await store.timers.timersOf(A)).toEqual([]);
    // the same request id on another aggregate is another request
    await j.append(commit(B, 0, "r1"));
    expect(await j.findRequest(B, "r1")).toEqual({ requestId: "r1", version: 1, errorCode: "Ok" });
  });

  it("records a request without events or version check (a rejection), leaving the version", async () => {
    const { events: j } = factory.open();
    await j.append(commit(A, 0, "r1"));
    await j.append({ aggregate: A, events: [], timers: [], request: { requestId: "rej", version: 1, errorCode: "Nope" } });
    expect(await j.findRequest(A, "rej")).toEqual({ requestId: "rej", version: 1, errorCode: "Nope" });
    expect((await j.load(A)).version).toBe(1);
    // also on an aggregate that does not exist
    await j.append({ aggregate: B, events: [], timers: [], request: { requestId: "nf", version: 0, errorCode: "NotFound" } });
    expect(await j.load(B)).toEqual({ version: 0, deleted: false, events: [] });
  });

  it("marks an aggregate deleted and drops all its timers in the same commit", async () => {
    const store = factory.open();
    const j = store.events;
    await j.append(commit(A, 0, "r1", 1, [set(timer("t1", "k1", 5000)), set(timer("t2", "k2", 6000))]));
    await j.append(commit(B, 0, "rb", 1, [set(timer("tb", "k1", 5000, B))]));
    await j.append({ ...commit(A, 1, "r2", 1, [{ kind: "cancelAll" }]), deleted: true });
    expect((await j.load(A)).deleted).toBe(true);
    expect(await store.timers.timersOf(A)).toEqual([]);
    expect((await store.timers.timersOf(B)).map((t) => t.id)).toEqual(["tb"]);
  });

  it("keeps one timer per owner and key: set replaces, cancel deletes", async () => {
    const store = factory.open();
    const j = store.events;
    await j.append(commit(A, 0, "r1", 1, [set(timer("t1", "k", 5000))]));
    await j.append(commit(A, 1, "r2", 1, [set(timer("t2", "k", 7000))]));
    expect((await store.timers.timersOf(A)).map((t) => [t.id, t.due, t.fireAt, t.status])).toEqual([["t2", 7000, 7000, "pending"]]);
    expect(await store.timers.timer("t1")).toBeUndefined();
    await j.append(commit(A, 2, "r3", 1, [{ kind: "cancel", key: "k" }]));
    expect(await store.timers.timersOf(A)).toEqual([]);
    expect(await store.timers.nextDueAt()).toBeUndefined();
  });

  it("stores a timer's spec as given", async () => {
    const store = factory.open();
    const spec = timer("t1", "k", 5000);
    await store.events.append(commit(A, 0, "r1", 1, [set(spec)]));
    expect(await store.timers.timer("t1")).toEqual({ ...spec, status: "pending", fireAt: 5000, attempts: 0 });
  });

  it("keeps a commit's snapshot: loadLatest gives it and the events after it, load every event; an older one never replaces it", async () => {
    const { events: j } = factory.open();
    await j.append(commit(A, 0, "r1", 2));
    await j.append({ ...commit(A, 1, "r2", 1), snapshot: { version: 2, state: { count: 3 } } });
    await j.append(commit(A, 2, "r3", 1));
    const latest = await j.loadLatest(A);
    expect(latest.snapshot).toEqual({ version: 2, state: { count: 3 } });
    expect([latest.version, latest.events.map((e) => e.version)]).toEqual([3, [3]]);
    expect((await j.load(A)).events.map((e) => e.version)).toEqual([1, 1, 2, 3]);
    expect((await j.load(A)).snapshot).toBeUndefined();
    expect((await j.loadForDecision(A, "r9")).stream?.snapshot).toEqual({ version: 2, state: { count: 3 } });
    await j.append({ ...commit(A, 3, "r4", 1), snapshot: { version: 1, state: { stale: true } } });
    expect((await j.loadLatest(A)).snapshot).toEqual({ version: 2, state: { count: 3 } });
  });

  it("drops a snapshot JSON cannot hold, and still commits (a snapshot is a shortcut, not history)", async () => {
    const { events: j } = factory.open();
    await j.append({ ...commit(A, 0, "r1", 1), snapshot: { version: 1, state: { at: new Date(0) } } });
    const latest = await j.loadLatest(A);
    expect([latest.version, latest.snapshot, latest.events.length]).toEqual([1, undefined, 1]);
  });

  it("keeps what it stored when reopened (a restarted host)", async () => {
    const store = factory.open();
    await store.events.append(commit(A, 0, "r1", 2, [set(timer("t1", "k", 5000))]));
    const again = await factory.reopen(store);
    expect((await again.events.load(A)).events.map((e) => e.position)).toEqual([1, 2]);
    expect(await again.events.findRequest(A, "r1")).toEqual({ requestId: "r1", version: 1, errorCode: "Ok" });
    expect((await again.timers.timer("t1"))?.due).toBe(5000);
    await again.events.append(commit(A, 1, "r2", 1));
    expect((await again.events.read(2, 10)).map((e) => e.position)).toEqual([3]);
  });
});
