// The runtime's promise "`@OnSchedule` jobs", on the virtual clock, against both journals.
import { describe, expect, it } from "vitest";
import { aggregateRef, commandMessage, JobCommands, singleHostOwnership, type WowConfig } from "../../../runtime/index.js";
import { scheduleSpec } from "../../../runtime/testing/index.js";
import { stores } from "../fixtures/stores.js";
import { order, probe, receiveJob, shopSaga, stock, suppliers } from "../sagas/saga-domain.js";
import type { SagaJobRegistration } from "../../../runtime/index.js";

const START = "2026-10-20T00:00:00Z";
const T0 = Date.parse(START);
const HOUR = 3_600_000;

function spec(store: (typeof stores)[number], job: Partial<SagaJobRegistration> = {}, extra: { config?: WowConfig; partitions?: number } = {}) {
  return scheduleSpec({
    aggregates: [order, stock],
    sagas: [shopSaga(probe(), [receiveJob(job)])],
    services: { "shop.Suppliers": suppliers },
    start: START,
    store: store.open(),
    timers: { pollInterval: "1h" },
    subscriptions: { pollInterval: "1h" },
    ...(extra.config ? { config: extra.config } : {}),
    ...(extra.partitions ? { ownership: singleHostOwnership(extra.partitions) } : {}),
  });
}

const schedules = (overrides: Record<string, unknown>): WowConfig =>
  ({ wow: { schedules: { receive: { expression: "0 0 * * * *", zone: "UTC", misfire: "COALESCE", enabled: true, ...overrides } }, timers: { "poll-interval": "1h", "max-attempts": 10 } } }) as WowConfig;

const ticks = (s: ReturnType<typeof spec>) => s.derived.map((d) => [d.tick.slot, d.tick.due - T0, d.tick.skipped]);

describe.each(stores)("jobs ($name)", (store) => {
  it("a SYSTEM job is enabled at start and ticks once per due slot; its handler derives commands with full refs", async () => {
    const s = spec(store);
    await s.enable("receive"); // already enabled by the host: changes nothing
    await s.advanceTime("3h");
    expect(ticks(s)).toEqual([
      [1, HOUR, 0],
      [2, 2 * HOUR, 0],
      [3, 3 * HOUR, 0],
    ]);
    expect(s.derived[0]!.commands.map((c) => [c.type, c.aggregate.id, c.aggregate.tenantId, c.body])).toEqual([
      ["shop.Receive", "cap", "(0)", { quantity: 10, slot: 1, partition: null }],
      ["shop.Receive", "mug", "(0)", { quantity: 10, slot: 1, partition: null }],
    ]);
    expect(s.asked.map((a) => [a.service, a.method, a.args[1]])).toEqual([
      ["shop.Suppliers", "delivered", T0 + HOUR],
      ["shop.Suppliers", "delivered", T0 + 2 * HOUR],
      ["shop.Suppliers", "delivered", T0 + 3 * HOUR],
    ]);
    expect((await s.store.events.load(aggregateRef("shop", "Stock", "mug"))).version).toBe(3);
    const [view] = await s.app.jobs.list();
    expect(view).toMatchObject({ id: "receive", enabled: true, scope: "SYSTEM", rule: { expression: "0 0 * * * *" }, nextFireTimes: [T0 + 4 * HOUR, T0 + 5 * HOUR, T0 + 6 * HOUR] });
    expect(view!.lastRun).toMatchObject({ slot: 3, outcome: "succeeded", kind: "scheduled", due: T0 + 3 * HOUR });
    expect((await s.runs("receive")).map((r) => [r.slot, r.outcome])).toEqual([[1, "succeeded"], [2, "succeeded"], [3, "succeeded"]]);
    await s.stop();
  });

  it("COALESCE after a downtime of several slots: only the latest runs, skipped counts the rest", async () => {
    const s = spec(store);
    await s.advanceTime("1h");
    await s.stop();
    await s.clock.advanceTime("5h"); // slots 2..6 due while no node runs the job
    await s.start();
    await s.advanceTime("1s");
    expect(ticks(s)).toEqual([
      [1, HOUR, 0],
      [6, 6 * HOUR, 4],
    ]);
    await s.advanceTime("1h");
    expect(ticks(s).at(-1)).toEqual([7, 7 * HOUR, 0]);
    await s.stop();
  });

  it("COALESCE after a downtime shorter than a minute: only the latest runs, skipped counts the rest", async () => {
    const s = spec(store, { cron: "*/10 * * * * *" });
    await s.advanceTime("10s");
    await s.stop();
    await s.clock.advanceTime("55s"); // slots 2..6 (+20 s … +60 s) due while no node runs the job
    await s.start();
    await s.advanceTime("1ms");
    expect(ticks(s)).toEqual([
      [1, 10_000, 0],
      [6, 60_000, 4],
    ]);
    await s.stop();
  });

  it("CATCH_UP after a downtime: every missed slot runs, in order, with skipped 0", async () => {
    const s = spec(store, { misfire: "CATCH_UP" });
    await s.advanceTime("1h");
    await s.stop();
    await s.clock.advanceTime("4h");
    await s.start();
    await s.advanceTime("1s");
    expect(ticks(s)).toEqual([1, 2, 3, 4, 5].map((slot) => [slot, slot * HOUR, 0]));
    await s.stop();
  });

  it("a tick handled twice sends identical requests (duplicates the targets recognise)", async () => {
    const s = spec(store);
    await s.advanceTime("1h");
    const before = await s.store.events.read(0, 1000);
    await s.app.subscriptions.reset("ShopSaga.receive", 0);
    await s.advanceTime("1s");
    expect(s.derived).toHaveLength(2);
    expect(s.derived[1]!.commands.map((c) => c.requestId)).toEqual(s.derived[0]!.commands.map((c) => c.requestId));
    expect(s.derived[1]!.commands).toEqual(s.derived[0]!.commands.map((c) => ({ ...c, createdAt: s.derived[1]!.commands[0]!.createdAt })));
    expect(await s.store.events.read(0, 1000)).toEqual(before);
    await s.stop();
  });

  it("host overrides from config: expression and zone; enabled: false keeps the SYSTEM instance disabled at start", async () => {
    const s = spec(store, {}, { config: schedules({ expression: "0 */20 * * * *" }) });
    await s.advanceTime("1h");
    expect(ticks(s).map(([slot]) => slot)).toEqual([1, 2, 3]);
    await s.stop();
    const off = spec(store, {}, { config: schedules({ enabled: false }) });
    await off.advanceTime("3h");
    expect(off.derived).toEqual([]);
    expect((await off.app.jobs.list())[0]).toMatchObject({ id: "receive", enabled: false, nextFireTimes: [] });
    await off.stop();
  });

  it("TENANT jobs: created by wow.schedule.Enable in a tenant; the tenant's own rule wins over the host's", async () => {
    const s = spec(store, { scope: "TENANT" }, { config: schedules({ expression: "0 0 */2 * * *" }) });
    await s.advanceTime("1h");
    expect(s.derived).toEqual([]); // no instance until a tenant enables one
    expect((await s.enable("receive", { tenantId: "acme", expression: "0 30 * * * *" })).succeeded).toBe(true);
    expect((await s.enable("receive", { tenantId: "globex" })).succeeded).toBe(true);
    await s.advanceTime("2h"); // 01:00 → 03:00
    const byTenant = (tenant: string) => s.derived.filter((d) => d.tick.tenantId === tenant).map((d) => new Date(d.tick.due).toISOString().slice(11, 16));
    expect(byTenant("acme")).toEqual(["01:30", "02:30"]);
    expect(byTenant("globex")).toEqual(["02:00"]);
    expect(s.derived.find((d) => d.tick.tenantId === "acme")!.commands[0]!.aggregate.tenantId).toBe("acme");
    const views = await s.app.jobs.list("acme");
    expect(views.map((v) => [v.tenantId, v.own, v.rule.expression])).toEqual([["acme", true, "0 30 * * * *"]]);
    expect((await s.enable("receive", { tenantId: "acme", expression: "not cron" })).errorCode).toBe("CommandValidation");
    await s.stop();
  });

  it("a SYSTEM job cannot be enabled in a tenant; an unknown job is NotFound", async () => {
    const s = spec(store);
    expect((await s.enable("receive", { tenantId: "acme" })).errorCode).toBe("IllegalArgument");
    expect((await s.enable("nope")).errorCode).toBe("NotFound");
    await s.stop();
  });

  it("sharded: one instance per partition, one tick per slot each, with tick.partition", async () => {
    const s = spec(store, { sharded: true }, { partitions: 3 });
    await s.advanceTime("1h");
    expect(s.derived.map((d) => [d.tick.slot, d.tick.partition]).sort()).toEqual([
      [1, 0],
      [1, 1],
      [1, 2],
    ]);
    expect((await s.app.jobs.list()).map((v) => v.id)).toEqual(["receive#0", "receive#1", "receive#2"]);
    await s.stop();
  });

  it("a failing job handler is retried, then its tick is parked; a re-drive sends the requests the tick derives", async () => {
    let failures = 2;
    const flaky = {
      async delivered(): Promise<string[]> {
        if (failures-- > 0) throw new Error("the supplier API is down");
        return ["mug"];
      },
    };
    const s = scheduleSpec({
      aggregates: [order, stock],
      sagas: [shopSaga(probe(), [receiveJob()])],
      services: { "shop.Suppliers": flaky },
      start: START,
      store: store.open(),
      // A job retries by wow.timers' attempts and backoff unless it declares its own.
      timers: { pollInterval: "1h", maxAttempts: 2, backoff: { initial: "1s" } },
      subscriptions: { pollInterval: "1h" },
    });
    await s.advanceTime("1h");
    await s.advanceTime("2s");
    const { events } = await s.app.parked();
    expect(events.map((e) => [e.subscription, (e.event.body as { slot: number }).slot, e.attempts])).toEqual([["ShopSaga.receive", 1, 2]]);
    expect(s.derived).toEqual([]);
    expect(await s.app.subscriptions.redrive(events[0]!.id)).toEqual({ found: true, ok: true });
    expect(s.derived.map((d) => [d.tick.slot, d.commands.map((c) => c.aggregate.id)])).toEqual([[1, ["mug"]]]);
    // The slot's request ids: the instance and the slot's due time, whichever run sends them.
    expect(s.derived[0]!.commands[0]!.requestId).toBe(`shop/(0)/receive@${T0 + HOUR}-0`);
    await s.stop();
  });

  it("reschedule, disable, trigger and enable again", async () => {
    const s = spec(store);
    const job = aggregateRef("shop", "schedule", "receive");
    await s.start();
    expect((await s.send(commandMessage(JobCommands.Reschedule, { expression: "0 0 */3 * * *" }, job))).succeeded).toBe(true);
    await s.advanceTime("3h");
    expect(ticks(s)).toEqual([[1, 3 * HOUR, 0]]);
    expect((await s.send(commandMessage(JobCommands.Trigger, {}, job))).succeeded).toBe(true);
    await s.advanceTime("1s");
    expect(s.derived.at(-1)!.tick).toMatchObject({ slot: 0, skipped: 0, due: T0 + 3 * HOUR });
    expect((await s.send(commandMessage(JobCommands.Disable, {}, job))).succeeded).toBe(true);
    await s.advanceTime("6h");
    expect(s.derived).toHaveLength(2);
    await s.stop();
    await s.start(); // the host does not re-enable what an operator disabled
    await s.advanceTime("3h");
    expect(s.derived).toHaveLength(2);
    expect((await s.send(commandMessage(JobCommands.Enable, {}, job))).succeeded).toBe(true);
    await s.advanceTime("3h");
    expect(s.derived).toHaveLength(3);
    await s.stop();
  });
});

it("after a restart with a new host rule, a TENANT instance without its own rule follows it; one with its own keeps it", async () => {
  const journal = stores.find((store) => store.name === "sqlite")!.open(); // a journal that outlives its host
  const tenantSpec = (expression: string, start: string) =>
    scheduleSpec({ aggregates: [order, stock], sagas: [shopSaga(probe(), [receiveJob({ scope: "TENANT" })])], services: { "shop.Suppliers": suppliers }, start, store: journal, timers: { pollInterval: "1h" }, subscriptions: { pollInterval: "1h" }, config: schedules({ expression }) });
  const before = tenantSpec("0 0 * * * *", START);
  expect((await before.enable("receive", { tenantId: "acme" })).succeeded).toBe(true);
  expect((await before.enable("receive", { tenantId: "globex", expression: "0 30 * * * *" })).succeeded).toBe(true);
  await before.stop();
  const after = tenantSpec("0 */15 * * * *", START);
  await after.advanceTime("1h");
  const byTenant = (tenant: string) => after.derived.filter((d) => d.tick.tenantId === tenant).map((d) => new Date(d.tick.due).toISOString().slice(11, 16));
  expect(byTenant("acme")).toEqual(["00:15", "00:30", "00:45", "01:00"]);
  expect(byTenant("globex")).toEqual(["00:30"]);
  expect((await after.app.jobs.list()).map((v) => [v.tenantId, v.own, v.rule.expression])).toEqual([["acme", false, "0 */15 * * * *"], ["globex", true, "0 30 * * * *"]]);
  await after.stop();
});
