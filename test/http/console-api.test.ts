// The routes the console pages read, over a real socket: cron previews from the runtime's engine, job
// instances, timers and parked work a page at a time with the server's filters, the overview's
// counts and an aggregate's stream, each scoped to the credential's tenant.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aggregateRef, commandMessage, ScheduleRule, SystemCommands } from "../../runtime/index.js";
import { ACME, eventually, GLOBEX, serve, type Served } from "./http-fixture.js";

let s: Served;

/** A stock that exists (a schedule is set on an aggregate that does). */
async function stockOf(id: string, tenant = "(0)") {
  const ref = aggregateRef("shop", "Stock", id, tenant);
  expect((await s.host.send(commandMessage("shop.Receive", { quantity: 1 }, ref))).outcome).toBe("decided");
  return ref;
}

beforeAll(async () => {
  s = await serve();
  for (const token of [ACME, GLOBEX]) expect((await s.call("POST", "/shop/schedule/report/wow.schedule.enable", { token, body: { expression: "0 30 * * * *", zone: "Europe/Paris" } })).status).toBe(200);
});
afterAll(async () => {
  await s.close();
});

describe("GET /wow/cron/preview", () => {
  it("gives a rule's next fire times in its zone and its words", async () => {
    const preview = await s.call("GET", `/wow/cron/preview?expression=${encodeURIComponent("0 0 6 * * MON-FRI")}&zone=Europe/Paris&count=3&after=2026-10-23T12:00:00Z`);
    expect(preview.status).toBe(200);
    expect(preview.json).toEqual({
      expression: "0 0 6 * * MON-FRI",
      zone: "Europe/Paris",
      words: expect.stringContaining("Monday"),
      times: ["2026-10-26T05:00:00.000Z", "2026-10-27T05:00:00.000Z", "2026-10-28T05:00:00.000Z"],
    });
  });

  it("refuses a five-field rule with the field, the offset and the length at fault", async () => {
    const five = await s.call("GET", `/wow/cron/preview?expression=${encodeURIComponent("*/5 * * * *")}`);
    expect([five.status, five.code]).toEqual([400, "CronSyntax"]);
    expect(five.json).toMatchObject({ field: "expression", offset: expect.any(Number), length: expect.any(Number), detail: expect.stringMatching(/six fields|6 fields/) });
    const field = await s.call("GET", `/wow/cron/preview?expression=${encodeURIComponent("0 61 * * * *")}`);
    expect(field.json).toMatchObject({ errorCode: "CronSyntax", field: "minute", text: "61", offset: 2, length: 2 });
  });

  it("refuses an unknown zone, teaching its spelling, and a missing expression", async () => {
    const zone = await s.call("GET", "/wow/cron/preview?expression=@daily&zone=europe/paris");
    expect([zone.status, zone.json.field]).toEqual([400, "zone"]);
    expect(zone.json.errorMsg).toContain('did you mean "Europe/Paris"?');
    expect((await s.call("GET", "/wow/cron/preview")).json.errorMsg).toContain("expression is required");
    expect((await s.call("GET", "/wow/cron/preview?expression=@daily&count=0")).status).toBe(400);
  });
});

describe("GET /wow/jobs", () => {
  it("pages with a cursor, filters by job, tenant, state and text, sorts, and says the rule in words", async () => {
    const first = await s.call("GET", "/wow/jobs?limit=2");
    expect(first.json.jobs.map((j: any) => `${j.id}@${j.tenantId}`)).toEqual(["receive@(0)", "report@acme"]);
    expect(first.json.jobs[0].ruleWords).toBe("every hour at :00:00, every day");
    const second = await s.call("GET", `/wow/jobs?limit=2&cursor=${first.json.next}`);
    expect(second.json.jobs.map((j: any) => `${j.id}@${j.tenantId}`)).toEqual(["report@globex", "shards#0@(0)"]);
    expect(second.json.next).toBeUndefined();
    expect((await s.call("GET", "/wow/jobs?job=report&sort=tenant&order=desc")).json.jobs.map((j: any) => j.tenantId)).toEqual(["globex", "acme"]);
    expect((await s.call("GET", "/wow/jobs?q=GLOB")).json.jobs.map((j: any) => j.id)).toEqual(["report"]);
    expect((await s.call("GET", "/wow/jobs?fires=5&limit=1")).json.jobs[0].nextFireTimes).toHaveLength(5);
    expect((await s.call("POST", "/shop/schedule/report/wow.schedule.disable", { token: GLOBEX, body: { note: "audit" } })).status).toBe(200);
    expect((await s.call("GET", "/wow/jobs?state=paused")).json.jobs.map((j: any) => [j.tenantId, j.paused.note])).toEqual([["globex", "audit"]]);
    expect((await s.call("GET", "/wow/jobs?state=enabled")).json.jobs).toHaveLength(3);
    expect((await s.call("POST", "/shop/schedule/report/wow.schedule.enable", { token: GLOBEX, body: {} })).status).toBe(200);
  });

  it("keeps a tenant's credential to its tenant, and refuses a bad cursor or filter", async () => {
    expect((await s.call("GET", "/wow/jobs", { token: ACME })).json.jobs.map((j: any) => j.tenantId)).toEqual(["acme"]);
    expect((await s.call("GET", "/wow/jobs?tenant=globex", { token: ACME })).status).toBe(403);
    expect((await s.call("GET", "/wow/jobs?cursor=!!")).json.errorMsg).toContain("cursor");
    expect((await s.call("GET", "/wow/jobs?state=asleep")).json.errorMsg).toContain("enabled, paused, disabled");
  });
});

describe("GET /wow/jobs/{instance}", () => {
  it("shows one instance with five fire times; another tenant's is not found", async () => {
    const mine = await s.call("GET", "/wow/jobs/report", { token: ACME });
    expect(mine.status).toBe(200);
    expect(mine.json.job).toMatchObject({ id: "report", tenantId: "acme", rule: { expression: "0 30 * * * *", zone: "Europe/Paris" } });
    expect(mine.json.job.nextFireTimes).toHaveLength(5);
    const theirs = await s.call("GET", "/wow/jobs/report?tenant=globex", { token: ACME });
    expect([theirs.status, theirs.code]).toEqual([404, "NotFound"]);
    expect(JSON.stringify(theirs.json)).not.toContain("0 30 * * * *");
    expect((await s.call("GET", "/wow/jobs/report?tenant=initech")).status).toBe(404);
    expect((await s.call("GET", "/wow/jobs/nope")).status).toBe(404);
  });
});

describe("GET /wow/timers and /wow/parked", () => {
  it("search pending timers by aggregate, key, command type and tenant, a page at a time", async () => {
    const mug = await stockOf("mug", "acme");
    const cup = await stockOf("cup", "globex");
    for (const [ref, key] of [[mug, "count-a"], [mug, "count-b"], [cup, "count-a"]] as const) {
      await s.host.send(commandMessage(SystemCommands.ScheduleCommand, { key, rule: ScheduleRule.after("1h"), command: { type: "shop.Receive", body: { quantity: 1 } } }, ref));
    }
    const keys = (json: any) => json.timers.map((t: any) => `${t.owner.id}/${t.key}`);
    expect(keys((await s.call("GET", "/wow/timers?key=count-a")).json)).toEqual(["mug/count-a", "cup/count-a"]);
    expect(keys((await s.call("GET", "/wow/timers?aggregate=mug&command=shop.Receive")).json)).toEqual(["mug/count-a", "mug/count-b"]);
    expect(keys((await s.call("GET", "/wow/timers?key=count-a", { token: GLOBEX })).json)).toEqual(["cup/count-a"]);
    expect((await s.call("GET", "/wow/timers?tenant=acme", { token: GLOBEX })).status).toBe(403);
    const page = await s.call("GET", "/wow/timers?aggregate=mug&limit=1");
    expect(keys(page.json)).toEqual(["mug/count-a"]);
    expect(keys((await s.call("GET", `/wow/timers?aggregate=mug&limit=1&cursor=${page.json.next}`)).json)).toEqual(["mug/count-b"]);
    expect((await s.call("GET", "/wow/timers?owner=mug")).status).toBe(400);
  });

  it("pages through parked timers and events by kind", async () => {
    for (const id of ["p-1", "p-2"]) await s.host.send(commandMessage(SystemCommands.ScheduleCommand, { key: "boom", rule: ScheduleRule.after(0), command: { type: "shop.Explode", body: {} } }, await stockOf(id)));
    await eventually(async () => (await s.call("GET", "/wow/parked")).json.timers.length === 2);
    const first = await s.call("GET", "/wow/parked?kind=timers&limit=1");
    expect(first.json.events).toBeUndefined();
    const second = await s.call("GET", `/wow/parked?kind=timers&limit=1&cursor=${first.json.next}`);
    expect([first.json.timers[0].owner.id, second.json.timers[0].owner.id].sort()).toEqual(["p-1", "p-2"]);
    expect(second.json.next).toBeUndefined();
    expect((await s.call("GET", `/wow/parked?cursor=${first.json.next}`)).json.errorMsg).toContain("kind=timers");
    expect((await s.call("GET", "/wow/parked?kind=events")).json).toEqual({ events: [] });
  });
});

describe("GET /wow/session", () => {
  it("names the credential and its tenant; an unknown one is refused", async () => {
    expect((await s.call("GET", "/wow/session")).json).toEqual({ name: "operator" });
    expect((await s.call("GET", "/wow/session", { token: ACME })).json).toEqual({ name: "tenant acme", tenant: "acme" });
    expect((await s.call("GET", "/wow/session", { token: "unknown-token-0123456789" })).status).toBe(401);
  });
});

describe("GET /wow/overview", () => {
  it("counts jobs, timers due within the hour, parked work and failed runs, for the credential's tenant, and names this host", async () => {
    const all = await s.call("GET", "/wow/overview");
    expect(all.status).toBe(200);
    expect(all.json.jobs).toEqual({ enabled: 4, paused: 0, disabled: 0 });
    expect(all.json.hosts).toEqual([{ id: s.host.ops.host, store: "memory", partitions: 1, owned: [0] }]);
    expect(all.json).toMatchObject({ runs: { failedLast24h: expect.any(Number) }, events: { parked: expect.any(Number) }, timers: { parked: expect.any(Number), dueWithinHour: expect.any(Number) } });
    const acme = await s.call("GET", "/wow/overview", { token: ACME });
    expect(acme.json).toMatchObject({ tenant: "acme", jobs: { enabled: 1, paused: 0, disabled: 0 }, timers: { parked: 0 } });
  });
});

describe("GET /wow/aggregates/{context}/{aggregate}/{tenant}/{id}", () => {
  it("shows the stream newest first with schedules read as such, and the pending timers; another tenant's is not found", async () => {
    const pot = await stockOf("pot", "acme");
    await s.host.send(commandMessage(SystemCommands.ScheduleCommand, { key: "count", rule: ScheduleRule.after("2h"), command: { type: "shop.Receive", body: { quantity: 2 } } }, pot));
    await s.host.send(commandMessage(SystemCommands.CancelSchedule, { key: "count" }, pot));
    await s.host.send(commandMessage(SystemCommands.ScheduleCommand, { key: "again", rule: ScheduleRule.after("3h"), command: { type: "shop.Receive", body: { quantity: 3 } } }, pot));
    const view = await s.call("GET", "/wow/aggregates/shop/Stock/acme/pot", { token: ACME });
    expect(view.status).toBe(200);
    expect(view.json.events.map((e: any) => e.schedule)).toEqual([
      expect.objectContaining({ set: "again", command: "shop.Receive" }),
      { cancelled: "count" },
      expect.objectContaining({ set: "count", command: "shop.Receive", rule: expect.objectContaining({ kind: "after" }) }),
      undefined,
    ]);
    expect(view.json.events[3]).toMatchObject({ type: "shop.Received", body: { quantity: 1 } });
    expect(view.json.timers.map((t: any) => t.key)).toEqual(["again"]);
    const page = await s.call("GET", "/wow/aggregates/shop/Stock/acme/pot?limit=2");
    expect(page.json.events).toHaveLength(2);
    expect((await s.call("GET", `/wow/aggregates/shop/Stock/acme/pot?limit=2&cursor=${page.json.next}`)).json.events.map((e: any) => e.type)).toEqual(["wow.ScheduleSet", "shop.Received"]);
    expect((await s.call("GET", "/wow/aggregates/shop/Stock/acme/pot", { token: GLOBEX })).status).toBe(404);
    expect((await s.call("GET", "/wow/aggregates/shop/Stock/acme/nothing")).status).toBe(404);
    expect((await s.call("GET", "/wow/aggregates/shop/Nope/acme/pot")).json.errorMsg).toContain("no aggregate type");
  });
});
