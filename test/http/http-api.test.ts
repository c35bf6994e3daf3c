// The HTTP API over a real socket on 127.0.0.1: auth, commands with Wow's headers and statuses,
// schedule commands, listings and re-drives.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aggregateRef, commandMessage, ScheduleRule, SystemCommands } from "../../runtime/index.js";
import { ACME, eventually, GLOBEX, serve, type Served } from "./http-fixture.js";

let s: Served;
beforeAll(async () => {
  s = await serve();
});
afterAll(async () => {
  await s.close();
});

const orders = "/shop/tenant/(0)/order";

describe("auth", () => {
  it("refuses a call without a credential (401) or with an unknown one", async () => {
    const none = await s.call("GET", "/wow/jobs", { token: null });
    expect([none.status, none.code]).toEqual([401, "Unauthorized"]);
    const wrong = await s.call("GET", "/wow/jobs", { token: "not-a-real-token-at-all" });
    expect([wrong.status, wrong.code]).toEqual([401, "Unauthorized"]);
    const command = await s.call("POST", `${orders}/create_order`, { token: null, body: { product: "mug", quantity: 1 } });
    expect(command.status).toBe(401);
  });

  it("a tenant's credential reaches its own tenant only (403 otherwise)", async () => {
    const other = await s.call("PUT", "/shop/tenant/globex/stock/mug/receive", { token: ACME, body: { quantity: 1 } });
    expect([other.status, other.code]).toEqual([403, "Forbidden"]);
    const own = await s.call("PUT", "/shop/tenant/acme/stock/mug/receive", { token: ACME, body: { quantity: 1 } });
    expect([own.status, own.code, own.json.tenantId]).toEqual([200, "Ok", "acme"]);
    const system = await s.call("POST", "/shop/schedule/receive/wow.schedule.trigger", { token: ACME });
    expect(system.status).toBe(403);
    const otherTenantsJob = await s.call("POST", "/shop/schedule/report/wow.schedule.enable", { token: ACME, headers: { "Command-Tenant-Id": "globex" } });
    expect(otherTenantsJob.status).toBe(403);
  });
});

describe("commands", () => {
  it("follow the manifest's routes, Wow's headers and status mapping", async () => {
    const created = await s.call("POST", `${orders}/create_order`, { body: { product: "mug", quantity: 1 }, headers: { "Command-Aggregate-Id": "o-1", "Command-Request-Id": "req-1" } });
    expect(created.status).toBe(200);
    expect(created.json).toMatchObject({ aggregateId: "o-1", requestId: "req-1", errorCode: "Ok", succeeded: true, aggregateVersion: 1, contextName: "shop", aggregateName: "Order" });
    const again = await s.call("POST", `${orders}/create_order`, { body: { product: "mug", quantity: 1 }, headers: { "Command-Aggregate-Id": "o-1", "Command-Request-Id": "req-1" } });
    expect([again.status, again.code]).toEqual([400, "DuplicateRequestId"]);
    const exists = await s.call("POST", `${orders}/create_order`, { body: { product: "mug", quantity: 1 }, headers: { "Command-Aggregate-Id": "o-1" } });
    expect([exists.status, exists.code]).toEqual([400, "IllegalState"]);
    const missing = await s.call("PUT", `${orders}/nope/cancel_order`, { body: {} });
    expect([missing.status, missing.code]).toEqual([404, "NotFound"]);
    const stale = await s.call("PUT", `${orders}/o-1/cancel_order`, { body: {}, headers: { "Command-Aggregate-Version": "7" } });
    expect([stale.status, stale.code]).toEqual([409, "CommandExpectVersionConflict"]);
    const archived = await s.call("DELETE", `${orders}/o-1/archive_order`, { body: {} });
    expect(archived.status).toBe(200);
    const gone = await s.call("PUT", `${orders}/o-1/cancel_order`, { body: {} });
    expect([gone.status, gone.code]).toEqual([410, "IllegalAccessDeletedAggregate"]);
  });

  it("hands the handler an instant as epoch ms, a duration as ms, and an optional field sent as null as absent (the SDK's types)", async () => {
    const body = { product: "mug", quantity: 1, holdOn: null, placedAt: "2026-03-01T10:00:00+01:00", grace: "15m" };
    const created = await s.call("POST", `${orders}/create_order`, { body, headers: { "Command-Aggregate-Id": "o-typed" } });
    expect(created.status).toBe(200);
    const [event] = (await s.host.store.events.load(aggregateRef("shop", "Order", "o-typed"))).events;
    expect(event!.body).toEqual({ product: "mug", quantity: 1, placedAt: Date.UTC(2026, 2, 1, 9), grace: 900_000 });
    expect(Object.hasOwn(event!.body as object, "holdOn")).toBe(false);
  });

  it("a create retried with the same request id and no aggregate id reaches the same aggregate: DuplicateRequestId, not a second order", async () => {
    const first = await s.call("POST", `${orders}/create_order`, { body: { product: "mug", quantity: 1 }, headers: { "Command-Request-Id": "retry-create-1" } });
    const again = await s.call("POST", `${orders}/create_order`, { body: { product: "mug", quantity: 1 }, headers: { "Command-Request-Id": "retry-create-1" } });
    expect([first.status, again.status, again.code]).toEqual([200, 400, "DuplicateRequestId"]);
    expect(again.json.aggregateId).toBe(first.json.aggregateId);
    const acme = await s.call("POST", "/shop/tenant/acme/order/create_order", { token: ACME, body: { product: "mug", quantity: 1 }, headers: { "Command-Request-Id": "retry-create-1" } });
    expect(acme.status).toBe(200); // another tenant's request id is its own
    const fresh = await s.call("POST", `${orders}/create_order`, { body: { product: "mug", quantity: 1 } });
    expect(fresh.json.aggregateId).not.toBe(first.json.aggregateId);
  });

  it("Command-Wait-Stage SAGA_HANDLED answers once the saga handled the command's events; a stage it cannot reach is a 400", async () => {
    const created = await s.call("POST", `${orders}/create_order`, { body: { product: "cup", quantity: 1 }, headers: { "Command-Aggregate-Id": "o-wait", "Command-Wait-Stage": "SAGA_HANDLED" } });
    expect([created.status, created.json.stage]).toEqual([200, "SAGA_HANDLED"]);
    const [event] = (await s.host.store.events.load(aggregateRef("shop", "Order", "o-wait"))).events;
    expect(await s.host.subscriptions.checkpoint("ShopSaga.onOrderCreated")).toBeGreaterThanOrEqual(event!.position!);
    const processed = await s.call("POST", `${orders}/create_order`, { body: { product: "cup", quantity: 1 }, headers: { "Command-Wait-Stage": "processed" } });
    expect(processed.json.stage).toBe("PROCESSED");
    for (const [stage, timeout] of [["PROJECTED", "100"], ["BOGUS", "100"], ["SAGA_HANDLED", "soon"], ["SAGA_HANDLED", "0"]]) {
      const refused = await s.call("POST", `${orders}/create_order`, { body: { product: "cup", quantity: 1 }, headers: { "Command-Wait-Stage": stage!, "Command-Wait-Timeout": timeout! } });
      expect([refused.status, refused.code]).toEqual([400, "IllegalArgument"]);
    }
  });

  it("a bad body is a 400 that says what is wrong", async () => {
    const wrong = await s.call("POST", `${orders}/create_order`, { body: { product: 3, quantity: "two", extra: true } });
    expect([wrong.status, wrong.code]).toEqual([400, "CommandValidation"]);
    expect(wrong.json.errorMsg).toContain("product: must be a string");
    expect(wrong.json.errorMsg).toContain("quantity: must be an integer");
    expect(wrong.json.errorMsg).toContain("extra: unknown field");
    const times = await s.call("POST", `${orders}/create_order`, { body: { product: "mug", quantity: 1, placedAt: "2026-03-01T10:00:00Z", grace: 5 } });
    expect([times.status, times.json.errorMsg]).toEqual([200, ""]);
    const local = await s.call("POST", `${orders}/create_order`, { body: { product: "mug", quantity: 1, placedAt: "2026-03-01T10:00:00", grace: { any: "thing" } } });
    expect(local.json.errorMsg).toContain("placedAt: must be an instant");
    expect(local.json.errorMsg).toContain("grace: must be a duration");
    const bad = await s.call("POST", `${orders}/create_order`, { raw: "{not json" });
    expect([bad.status, bad.code]).toEqual([400, "IllegalArgument"]);
    expect(bad.json.errorMsg).toContain("not valid JSON");
  });
});

describe("schedule commands and listings", () => {
  it("enable, reschedule, trigger, disable a TENANT job instance as its tenant; the listing shows it to that tenant only", async () => {
    const enable = await s.call("POST", "/shop/schedule/report/wow.schedule.enable", { token: ACME, body: { expression: "0 30 * * * *", zone: "Europe/Paris" } });
    expect([enable.status, enable.json.tenantId]).toEqual([200, "acme"]);
    const badRule = await s.call("POST", "/shop/schedule/report/wow.schedule.reschedule", { token: ACME, body: { expression: "every day" } });
    expect([badRule.status, badRule.code]).toEqual([400, "CommandValidation"]);
    const reschedule = await s.call("POST", "/shop/schedule/report/wow.schedule.reschedule", { token: ACME, body: { expression: "0 15 * * * *" } });
    expect(reschedule.status).toBe(200);
    const trigger = await s.call("POST", "/shop/schedule/report/wow.schedule.trigger", { token: ACME });
    expect(trigger.status).toBe(200);
    await eventually(async () => (await s.host.store.events.load(aggregateRef("shop", "Stock", "mug", "acme"))).events.some((e) => (e.body as { slot?: number }).slot === 0));
    // The run is in the run log once its commands are decided.
    await eventually(async () => (await s.call("GET", "/wow/jobs", { token: ACME })).json.jobs[0]?.lastRun !== undefined);
    const acme = await s.call("GET", "/wow/jobs", { token: ACME });
    expect(acme.json.jobs.map((j: any) => [j.id, j.tenantId, j.enabled, j.rule.expression, j.rule.zone])).toEqual([["report", "acme", true, "0 15 * * * *", "Europe/Paris"]]);
    expect(acme.json.jobs[0].nextFireTimes).toHaveLength(3);
    expect(acme.json.jobs[0].lastRun).toMatchObject({ slot: 0, kind: "manual", outcome: "succeeded", tenantId: "acme" });
    expect(acme.json.jobs[0].lastRun.started).toMatch(/^\d{4}-\d\d-\d\dT/);
    const globex = await s.call("GET", "/wow/jobs", { token: GLOBEX });
    expect(globex.json.jobs).toEqual([]);
    const all = await s.call("GET", "/wow/jobs");
    expect(all.json.jobs.map((j: any) => `${j.id}@${j.tenantId}`)).toEqual(["receive@(0)", "report@acme", "shards#0@(0)"]);
    const disable = await s.call("POST", "/shop/schedule/report/wow.schedule.disable", { token: ACME });
    expect(disable.status).toBe(200);
    expect((await s.call("GET", "/wow/jobs", { token: ACME })).json.jobs[0]).toMatchObject({ enabled: false, nextFireTimes: [] });
    const unknownVerb = await s.call("POST", "/shop/schedule/report/wow.schedule.explode", { token: ACME });
    expect(unknownVerb.status).toBe(404);
    const unknownJob = await s.call("POST", "/shop/schedule/nope/wow.schedule.enable");
    expect(unknownJob.status).toBe(404);
  });

  it("reaches a sharded job's instance as <job>#<partition> (%23 in the URL), and says how when it is named without one", async () => {
    const disable = await s.call("POST", "/shop/schedule/shards%230/wow.schedule.disable");
    expect([disable.status, disable.json.aggregateId]).toEqual([200, "shards#0"]);
    expect((await s.call("GET", "/wow/jobs")).json.jobs.find((j: any) => j.id === "shards#0")).toMatchObject({ enabled: false, subscription: "ShopSaga.shards#0" });
    expect((await s.call("POST", "/shop/schedule/shards%230/wow.schedule.enable")).status).toBe(200);
    const bare = await s.call("POST", "/shop/schedule/shards/wow.schedule.disable");
    expect([bare.status, bare.json.errorMsg]).toEqual([404, "job shards is sharded: name its instance shards#0 (shards%230 in a URL)"]);
    expect((await s.call("POST", "/shop/schedule/shards%231/wow.schedule.disable")).status).toBe(404);
    expect((await s.call("POST", "/shop/schedule/receive%230/wow.schedule.disable")).status).toBe(404);
  });

  it("lists pending timers, parked timers and parked events, and re-drives each", async () => {
    // A saga event parked (its handler fails; one attempt here) ...
    s.probe.fail = 1;
    await s.call("PUT", "/shop/tenant/(0)/stock/cup/receive", { body: { quantity: 3 } });
    await s.call("POST", `${orders}/create_order`, { body: { product: "cup", quantity: 1 }, headers: { "Command-Aggregate-Id": "o-park" } });
    await eventually(async () => (await s.call("GET", "/wow/parked")).json.events.length === 1);
    // ... and a timer parked (its command fails technically).
    await s.host.send(commandMessage(SystemCommands.ScheduleCommand, { key: "boom", rule: ScheduleRule.after(0), command: { type: "shop.Explode", body: {} } }, aggregateRef("shop", "Stock", "cup")));
    await eventually(async () => (await s.call("GET", "/wow/parked")).json.timers.length === 1);
    const parked = (await s.call("GET", "/wow/parked")).json;
    expect(parked.events[0]).toMatchObject({ subscription: "ShopSaga.onOrderCreated", eventType: "shop.OrderCreated", attempts: 1 });
    expect(parked.timers[0]).toMatchObject({ key: "boom", status: "parked", command: "shop.Explode" });
    expect((await s.call("GET", "/wow/parked", { token: ACME })).json).toEqual({ timers: [], events: [] });
    expect((await s.call("POST", `/wow/parked/events/${encodeURIComponent(parked.events[0].id)}/redrive`, { token: ACME })).status).toBe(403);
    const redriven = await s.call("POST", `/wow/parked/events/${encodeURIComponent(parked.events[0].id)}/redrive`);
    expect(redriven.json).toEqual({ id: parked.events[0].id, redriven: true });
    expect((await s.call("GET", "/wow/parked")).json.events).toEqual([]);
    const timer = await s.call("POST", `/wow/parked/timers/${parked.timers[0].id}/redrive`);
    expect(timer.json).toEqual({ id: parked.timers[0].id, redriven: true });
    const pending = await s.call("GET", "/wow/timers");
    expect(pending.json.timers.map((t: any) => t.key)).toContain("hold:o-park");
    expect((await s.call("POST", "/wow/parked/timers/no-such-timer/redrive")).status).toBe(404);
  });

  it("shows a tenant's caller the message of a stored error, never its stack; an operator sees it whole", async () => {
    const event = { type: "shop.OrderCreated", body: {}, aggregate: aggregateRef("shop", "Order", "o-stack", "acme"), position: 900_001, id: "e-stack", version: 1, createdAt: 0 } as never;
    const error = "Error: the supplier is down\n    at handle (/srv/app/src/saga.ts:12:7)";
    await s.host.store.subscriptions.park({ id: "ShopSaga.onOrderCreated@900001", subscription: "ShopSaga.onOrderCreated", position: 900_001, event, attempts: 3, error, parkedAt: 0 });
    const mine = (await s.call("GET", "/wow/parked", { token: ACME })).json.events.find((e: any) => e.id === "ShopSaga.onOrderCreated@900001");
    expect(mine.error).toBe("Error: the supplier is down");
    const operator = (await s.call("GET", "/wow/parked")).json.events.find((e: any) => e.id === "ShopSaga.onOrderCreated@900001");
    expect(operator.error).toBe(error);
  });

  it("re-drives a parked event that is not among the first 500 listed", async () => {
    for (let position = 800_001; position <= 800_501; position++) {
      const event = { type: "shop.OrderCreated", body: { product: "mug", quantity: 1 }, aggregate: aggregateRef("shop", "Order", `o-${position}`), position, id: `e-${position}`, version: 1, createdAt: 0 } as never;
      await s.host.store.subscriptions.park({ id: `ShopSaga.onOrderCreated@${position}`, subscription: "ShopSaga.onOrderCreated", position, event, attempts: 1, error: "Error: down", parkedAt: 0 });
    }
    const redriven = await s.call("POST", `/wow/parked/events/${encodeURIComponent("ShopSaga.onOrderCreated@800501")}/redrive`);
    expect([redriven.status, redriven.json.id]).toEqual([200, "ShopSaga.onOrderCreated@800501"]);
  });

  it("lists the command routes", async () => {
    const routes = await s.call("GET", "/wow/routes");
    expect(routes.json.routes).toContainEqual({ method: "POST", path: "/shop/tenant/{tenantId}/order/create_order", type: "shop.CreateOrder" });
    expect(routes.json.routes).toContainEqual({ method: "DELETE", path: "/shop/tenant/{tenantId}/order/{id}/archive_order", type: "shop.ArchiveOrder" });
  });
});
