// The runtime's promise "Decisions and commits", on both stores.
import { afterEach, describe, expect, it } from "vitest";
import { Decision, ErrorCodes, MemoryStore, ScheduleRule, SqliteStore, SystemEvents, aggregateRef, commandMessage, createHost, type ScheduleSetBody } from "../../runtime/index.js";
import { tempDbPath } from "./fixtures/stores.js";
import { harness, START, type Harness } from "./fixtures/harness.js";
import { GRACE_KEY, T } from "./fixtures/order-domain.js";
import { stores } from "./fixtures/stores.js";

const ORDER = aggregateRef("eshop-order", "order", "o-1");

describe.each(stores)("decisions and commits: $name", (store) => {
  let h: Harness;
  afterEach(async () => {
    await h.spec.stop();
    await h.spec.store.close();
  });

  async function created(): Promise<void> {
    h = harness(store);
    expect((await h.spec.send(h.cmd(T.CreateOrder, { items: ["mug"] }))).errorCode).toBe("Ok");
  }

  it("commits a decision's events with the next version, and a result like Wow's", async () => {
    await created();
    const r = await h.spec.send(h.cmd(T.ConfirmOrder, {}, "o-1", { commandId: "c-2" }));
    expect(r).toMatchObject({ outcome: "decided", succeeded: true, errorCode: "Ok", errorMsg: "", aggregateVersion: 2, commandId: "c-2", requestId: "c-2" });
    const stream = await h.spec.store.events.load(ORDER);
    expect(stream.events.map((e) => [e.version, e.type])).toEqual([
      [1, T.OrderCreated],
      [2, T.OrderConfirmed],
      [2, SystemEvents.ScheduleSet],
    ]);
  });

  it("commits a no-op decision as nothing, yet records its request id: a re-send is a duplicate", async () => {
    await created();
    const touch = h.cmd(T.Touch);
    expect(await h.spec.send(touch)).toMatchObject({ outcome: "decided", succeeded: true, aggregateVersion: 1, events: [] });
    expect((await h.spec.store.events.load(ORDER)).version).toBe(1);
    expect(await h.spec.send(touch)).toMatchObject({ outcome: "duplicate", succeeded: false, errorCode: ErrorCodes.DuplicateRequestId });
  });

  it("commits the schedule with the events, as wow.ScheduleSet, in the same version", async () => {
    await created();
    const r = await h.spec.send(h.cmd(T.ConfirmOrder));
    const set = r.events.find((e) => e.type === SystemEvents.ScheduleSet)!;
    const body = set.body as ScheduleSetBody;
    expect(body).toMatchObject({ key: GRACE_KEY, rule: { kind: "after", after: 900_000 }, command: { type: T.CancelOrder, body: { reason: "PAYMENT_TIMEOUT" } }, target: ORDER, due: START + 900_000 });
    expect(body.timer).toBe(set.eventId);
    expect((await h.spec.store.timers.timersOf(ORDER)).map((t) => [t.key, t.id, t.due])).toEqual([[GRACE_KEY, set.eventId, START + 900_000]]);
  });

  it("a decision that only schedules commits just that event", async () => {
    await created();
    const r = await h.spec.send(h.cmd(T.SetSchedule, { key: "k", rule: ScheduleRule.after("1h"), command: { type: T.Touch, body: {} } }));
    expect(r.events.map((e) => e.type)).toEqual([SystemEvents.ScheduleSet]);
    expect(r.aggregateVersion).toBe(2);
  });

  it("both or neither: when the append fails, neither the events nor the schedule are committed", async () => {
    await created();
    const journal = h.spec.store;
    const append = journal.events.append.bind(journal.events);
    journal.events.append = async () => {
      throw new Error("disk full");
    };
    await expect(h.spec.send(h.cmd(T.ConfirmOrder))).rejects.toThrow("disk full");
    journal.events.append = append;
    expect((await journal.events.load(ORDER)).version).toBe(1);
    expect(await journal.timers.timersOf(ORDER)).toEqual([]);
  });

  it("a version conflict re-decides on the new state (bounded), and commits one consistent decision", async () => {
    await created();
    const journal = h.spec.store;
    const append = journal.events.append.bind(journal.events);
    let interfered = false;
    journal.events.append = async (commit) => {
      if (!interfered && commit.request.requestId === "pay") {
        interfered = true; // another writer commits first
        await append({ aggregate: ORDER, expectedVersion: 1, events: [{ eventId: "x", type: T.OrderConfirmed, body: {}, aggregate: ORDER, version: 2, sequence: 1, commandId: "other", requestId: "other", createdAt: START }], request: { requestId: "other", version: 2, errorCode: "Ok" }, timers: [] });
      }
      return append(commit);
    };
    const r = await h.spec.send(h.cmd(T.SetSchedule, { key: "k", rule: ScheduleRule.after("1h"), command: { type: T.Touch, body: {} } }, "o-1", { requestId: "pay" }));
    expect(r).toMatchObject({ outcome: "decided", aggregateVersion: 3 });
    expect((await journal.timers.timersOf(ORDER)).map((t) => t.key)).toEqual(["k"]);
    expect((await journal.events.load(ORDER)).events.filter((e) => e.type === SystemEvents.ScheduleSet)).toHaveLength(1);
  });

  it("gives up after the bounded retries with EventVersionConflict", async () => {
    await created();
    const journal = h.spec.store;
    const append = journal.events.append.bind(journal.events);
    let n = 0;
    journal.events.append = async (commit) => {
      if (commit.request.requestId === "hot") {
        n++;
        const v = (await journal.events.load(ORDER)).version;
        await append({ aggregate: ORDER, expectedVersion: v, events: [{ eventId: `x${n}`, type: T.Pinged, body: { n }, aggregate: ORDER, version: v + 1, sequence: 1, commandId: `o${n}`, requestId: `o${n}`, createdAt: START }], request: { requestId: `o${n}`, version: v + 1, errorCode: "Ok" }, timers: [] });
      }
      return append(commit);
    };
    const r = await h.spec.send(h.cmd(T.Touch, {}, "o-1", { requestId: "hot" }));
    expect(r).toMatchObject({ outcome: "rejected", errorCode: ErrorCodes.EventVersionConflict });
    expect(n).toBe(6); // 1 + 5 retries
  });

  it("setting a key again replaces it (a new timer id); cancelling deletes it (wow.ScheduleCancelled)", async () => {
    await created();
    const set = (due: number) => h.cmd(T.SetSchedule, { key: "k", rule: ScheduleRule.at(due), command: { type: T.Touch, body: {} } });
    await h.spec.send(set(START + 60_000));
    const [first] = await h.spec.store.timers.timersOf(ORDER);
    await h.spec.send(set(START + 120_000));
    const [second] = await h.spec.store.timers.timersOf(ORDER);
    expect(second!.id).not.toBe(first!.id);
    expect(second!.due).toBe(START + 120_000);
    expect(await h.spec.store.timers.timersOf(ORDER)).toHaveLength(1);
    const r = await h.spec.send(h.cmd(T.CancelSchedule, { key: "k" }));
    expect(r.events.map((e) => [e.type, e.body])).toEqual([[SystemEvents.ScheduleCancelled, { key: "k" }]]);
    expect(await h.spec.store.timers.timersOf(ORDER)).toEqual([]);
    expect(await h.spec.advanceTime("10m")).toEqual([]);
  });

  it("deleting an aggregate cancels its pending schedules; later commands are rejected", async () => {
    await created();
    await h.spec.send(h.cmd(T.ConfirmOrder));
    const r = await h.spec.send(h.cmd(T.ArchiveOrder));
    expect(r.events.map((e) => e.type)).toEqual([SystemEvents.AggregateDeleted]);
    expect(await h.spec.store.timers.timersOf(ORDER)).toEqual([]);
    expect(await h.spec.advanceTime("1h")).toEqual([]);
    expect(await h.spec.send(h.cmd(T.PayOrder))).toMatchObject({ outcome: "rejected", errorCode: ErrorCodes.IllegalAccessDeletedAggregate });
    expect(await h.spec.send(h.cmd(T.CreateOrder, { items: [] }))).toMatchObject({ errorCode: ErrorCodes.IllegalAccessDeletedAggregate });
  });

  it("create: a create command only starts a new aggregate; others need an existing one", async () => {
    h = harness(store);
    expect(await h.spec.send(h.cmd(T.PayOrder, {}, "o-9"))).toMatchObject({ outcome: "rejected", errorCode: ErrorCodes.NotFound });
    expect(await h.spec.send(h.cmd(T.CreateOrder, { items: [] }, "o-9"))).toMatchObject({ outcome: "decided", aggregateVersion: 1 });
    expect(await h.spec.send(h.cmd(T.CreateOrder, { items: [] }, "o-9"))).toMatchObject({ outcome: "rejected", errorCode: ErrorCodes.IllegalState });
  });

  it("create: an aggregate that marks no create command is created by its first command", async () => {
    h = harness(store);
    expect(await h.spec.send(h.cmd(T.Increment, {}, "c-1"))).toMatchObject({ outcome: "decided", aggregateVersion: 1 });
    expect(await h.spec.send(h.cmd(T.Increment, {}, "c-1"))).toMatchObject({ outcome: "decided", aggregateVersion: 2 });
  });

  it("a handler's rejection is a result (not a crash), recorded: a re-send is a duplicate", async () => {
    await created();
    const pay = h.cmd(T.PayOrder);
    expect(await h.spec.send(pay)).toMatchObject({ outcome: "rejected", succeeded: false, errorCode: "OrderNotPayable", errorMsg: "order is NEW" });
    expect(await h.spec.send(pay)).toMatchObject({ outcome: "duplicate", errorCode: ErrorCodes.DuplicateRequestId });
    expect((await h.spec.store.events.load(ORDER)).version).toBe(1);
  });

  it("a technical failure rejects the send and commits nothing; the same request can be decided later", async () => {
    await created();
    h.probe = () => {
      throw new Error("service down");
    };
    const ping = h.cmd(T.Ping, { n: 1 });
    await expect(h.spec.send(ping)).rejects.toThrow("service down");
    h.probe = () => {};
    expect(await h.spec.send(ping)).toMatchObject({ outcome: "decided", aggregateVersion: 2 });
  });

  it("an already-sent command is not recalled: the target's state guards it", async () => {
    await created();
    await h.spec.send(h.cmd(T.ConfirmOrder));
    const sent = await h.spec.advanceTime("15m");
    expect(sent.map((s) => s.result?.outcome)).toEqual(["decided"]);
    // cancelling afterwards changes nothing already sent; a late payment is refused by the order's state
    await h.spec.send(h.cmd(T.CancelSchedule, { key: GRACE_KEY }));
    expect(await h.spec.send(h.cmd(T.PayOrder))).toMatchObject({ outcome: "rejected", errorCode: "OrderNotPayable" });
    expect((await h.spec.store.events.load(ORDER)).events.map((e) => e.type)).toContain(T.OrderCancelled);
  });

  it("exposes committed events by global position (for subscriptions)", async () => {
    await created();
    await h.spec.send(h.cmd(T.Increment, {}, "c-1"));
    await h.spec.send(h.cmd(T.ConfirmOrder));
    const all = await h.spec.store.events.read(0, 100);
    expect(all.map((e) => e.position)).toEqual([1, 2, 3, 4]);
    expect(all.map((e) => e.type)).toEqual([T.OrderCreated, T.Incremented, T.OrderConfirmed, SystemEvents.ScheduleSet]);
  });
});

describe("snapshots", () => {
  it("an aggregate that keeps them decides on the snapshot and the events after it, as it would on every event", async () => {
    const counter = (every?: number) => ({
      context: "c",
      aggregate: "Counter",
      initialState: () => ({ n: 0 }),
      ...(every === undefined ? {} : { snapshots: { every } }),
      commands: { "c.Add": { decide: (s: { n: number }, c: { body: unknown }) => Decision.events({ type: "c.Added", body: { by: (c.body as { by: number }).by, seen: s.n } }) } },
      events: { "c.Added": (s: { n: number }, e: { body: unknown }) => ({ n: s.n + (e.body as { by: number }).by }) },
    });
    for (const store of [new MemoryStore(), new SqliteStore(tempDbPath())]) {
      const plain = createHost({ registrations: [counter()], store: new MemoryStore() });
      const kept = createHost({ registrations: [counter(3)], store });
      const ref = { context: "c", aggregate: "Counter", tenantId: "(0)", id: "x" };
      for (let i = 1; i <= 10; i++) {
        const a = await plain.send(commandMessage("c.Add", { by: i }, ref));
        const b = await kept.send(commandMessage("c.Add", { by: i }, ref));
        expect(b.events.map((e) => e.body)).toEqual(a.events.map((e) => e.body));
      }
      const latest = await store.events.loadLatest(ref);
      expect(latest.snapshot).toEqual({ version: 9, state: { n: 45 } });
      expect(latest.events.map((e) => e.version)).toEqual([10]);
      await store.close();
    }
  });
});
