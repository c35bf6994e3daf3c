// The operations routes over a real socket, with the host on a virtual clock: health and readiness,
// metrics scraped and parsed as Prometheus text, a job's run log and a timer's attempts, backfill
// and a pause with a note over HTTP, and the log lines of admin actions.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Database from "better-sqlite3";
import parsePrometheus from "parse-prometheus-text-format";
import { Counter, Registry } from "prom-client";
import { afterEach, describe, expect, it } from "vitest";
import { aggregateRef, commandMessage, createHost, MemoryStore, ScheduleRule, SqliteStore, SystemCommands, type Store, type WowHost } from "../../runtime/index.js";
import { createLogger } from "../../runtime/ops/log.js";
import { VirtualClock } from "../../runtime/testing/index.js";
import { tempDbPath } from "../runtime/fixtures/stores.js";
import { order, probe, receiveJob, S, shopSaga, stock, suppliers } from "../runtime/sagas/saga-domain.js";
import { ACME, OPERATOR } from "./http-fixture.js";

const START = "2026-10-20T00:00:00Z";
const T0 = Date.parse(START);

interface Running {
  readonly host: WowHost;
  readonly clock: VirtualClock;
  readonly lines: Record<string, unknown>[];
  call(method: string, path: string, options?: { token?: string | null; body?: unknown }): Promise<{ status: number; code: string | null; json: any; text: string; type: string | null }>;
}

const opened: { server: Server; host: WowHost }[] = [];
afterEach(async () => {
  for (const { server, host } of opened.splice(0)) {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await host.close();
  }
});

/** A host on a virtual clock behind a server of the test's own (it stays up while the host is stopped). */
async function running(store: Store = new MemoryStore()): Promise<Running> {
  const clock = new VirtualClock(START);
  const lines: Record<string, unknown>[] = [];
  const host = createHost({
    registrations: [order, stock, shopSaga(probe(), [receiveJob({ cron: "0 * * * * *" }), receiveJob({ name: "report", function: "report", subscription: "ShopSaga.report", scope: "TENANT" })])],
    store,
    clock,
    services: { "shop.Suppliers": suppliers },
    timers: { maxAttempts: 2, backoff: { initial: "1s" } },
    http: { credentials: [{ token: OPERATOR, name: "ops-team" }, { token: ACME, tenant: "acme" }] },
    logger: createLogger({ level: "info", clock, destination: { write: (line) => void lines.push(JSON.parse(line)) } }),
    hostId: "host-a",
  });
  await host.start();
  const server = createServer(host.requestListener);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  opened.push({ server, host });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    host,
    clock,
    lines,
    async call(method, path, options = {}) {
      const token = options.token === undefined ? OPERATOR : options.token;
      const headers: Record<string, string> = token === null ? {} : { authorization: `Bearer ${token}` };
      if (options.body !== undefined) headers["content-type"] = "application/json";
      const response = await fetch(base + path, { method, headers, ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }) });
      const text = await response.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: response.status, code: response.headers.get("wow-error-code"), json, text, type: response.headers.get("content-type") };
    },
  };
}

/** Scrapes /wow/metrics and reads one figure: a sample's value, or a histogram's count, summed over the samples the labels match. */
async function scrape(r: Running): Promise<(name: string, labels?: Record<string, string>) => number> {
  const reply = await r.call("GET", "/wow/metrics");
  expect(reply.status).toBe(200);
  expect(reply.type).toContain("text/plain");
  const families = parsePrometheus(reply.text);
  return (name, labels = {}) => {
    const family = families.find((f) => f.name === name);
    if (family === undefined) throw new Error(`no metric ${name} in the scrape`);
    return family.metrics
      .filter((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v))
      .reduce((sum, m) => sum + Number(family.type === "HISTOGRAM" ? m.buckets?.["+Inf"] : m.value), 0);
  };
}

describe("health and readiness", () => {
  it("answer without a credential and reveal nothing but the verdict", async () => {
    const r = await running();
    const health = await r.call("GET", "/wow/health", { token: null });
    expect([health.status, health.json]).toEqual([200, { status: "serving" }]);
    const ready = await r.call("GET", "/wow/ready", { token: null });
    expect([ready.status, ready.json]).toEqual([200, { ready: true }]);
    await r.host.stop();
    const stopped = await r.call("GET", "/wow/ready", { token: null });
    expect([stopped.status, stopped.code, stopped.json]).toEqual([503, "NotReady", { ready: false, reason: "stopped" }]);
  });

  it("/wow/ready turns 503 while another process holds the SQLite file locked, and 200 again once it lets go", async () => {
    const path = tempDbPath();
    const r = await running(new SqliteStore(path));
    expect((await r.call("GET", "/wow/ready", { token: null })).status).toBe(200);
    const other = new Database(path);
    other.exec("BEGIN EXCLUSIVE");
    try {
      const locked = await r.call("GET", "/wow/ready", { token: null });
      expect(locked.status).toBe(503);
      expect(locked.json.reason).toContain("the sqlite store takes no writes");
      expect(locked.json.reason).not.toContain(path);
    } finally {
      other.exec("ROLLBACK");
      other.close();
    }
    expect((await r.call("GET", "/wow/ready", { token: null })).status).toBe(200);
  });
});

describe("metrics", () => {
  it("need an operator's credential", async () => {
    const r = await running();
    expect((await r.call("GET", "/wow/metrics", { token: null })).status).toBe(401);
    const tenant = await r.call("GET", "/wow/metrics", { token: ACME });
    expect([tenant.status, tenant.code]).toEqual([403, "Forbidden"]);
  });

  it("move as work happens: deliveries and lateness, job runs and durations, decisions, parked, backlog, subscription lag", async () => {
    const r = await running();
    const mug = aggregateRef("shop", "Stock", "mug");
    let m = await scrape(r);
    expect(m("wow_deliveries_total", { outcome: "decided" })).toBe(0);
    expect(m("wow_job_runs_total")).toBe(0);
    const decisions = m("wow_command_decision_seconds");

    await r.host.send(commandMessage(S.Receive, { quantity: 5 }, mug));
    await r.host.send(commandMessage(SystemCommands.ScheduleCommand, { key: "top-up", rule: ScheduleRule.after("2s"), command: { type: S.Receive, body: { quantity: 1 } } }, mug));
    await r.host.send(commandMessage(SystemCommands.ScheduleCommand, { key: "boom", rule: ScheduleRule.after("2s"), command: { type: S.Explode, body: {} } }, mug));
    await r.clock.advanceTime("1m5s"); // the deliveries at +2 s (Explode fails at +2 s and +3 s: parked), the job's tick at +60 s
    m = await scrape(r);
    expect(m("wow_command_decision_seconds")).toBeGreaterThanOrEqual(decisions + 3);
    expect(m("wow_deliveries_total", { outcome: "decided" })).toBeGreaterThanOrEqual(2); // top-up and the job's tick
    expect(m("wow_deliveries_total", { outcome: "retrying" })).toBe(1);
    expect(m("wow_deliveries_total", { outcome: "parked" })).toBe(1);
    expect(m("wow_delivery_lateness_seconds")).toBeGreaterThanOrEqual(2);
    expect(m("wow_job_runs_total", { job: "receive", outcome: "succeeded" })).toBe(1);
    expect(m("wow_job_run_duration_seconds")).toBe(1); // the parser keeps no labels of histogram samples; one job ran
    expect(m("wow_parked", { kind: "timer" })).toBe(1);
    expect(m("wow_parked", { kind: "event" })).toBe(0);
    expect(m("wow_due_backlog")).toBe(0);

    // Stopped: timers come due and stay, events wait for the subscriptions.
    await r.host.stop();
    await r.host.send(commandMessage(SystemCommands.ScheduleCommand, { key: "later", rule: ScheduleRule.after("1s"), command: { type: S.Receive, body: { quantity: 1 } } }, mug));
    await r.host.send(commandMessage(S.Receive, { quantity: 1 }, mug));
    await r.clock.advanceTime("5s");
    m = await scrape(r);
    expect(m("wow_due_backlog")).toBe(1);
    expect(m("wow_subscription_lag_events", { subscription: "ShopSaga.receive" })).toBeGreaterThanOrEqual(2);

    const lateness = await r.call("GET", "/wow/metrics/lateness?minutes=3");
    expect(lateness.status).toBe(200);
    expect(lateness.json.minutes).toHaveLength(3);
    expect(lateness.json.minutes.reduce((sum: number, minute: { count: number }) => sum + minute.count, 0)).toBeGreaterThanOrEqual(2);
    // The last three minutes up to now (00:01:10), oldest first.
    expect(lateness.json.minutes.map((minute: { at: string }) => minute.at)).toEqual(["2026-10-19T23:59:00.000Z", "2026-10-20T00:00:00.000Z", "2026-10-20T00:01:00.000Z"]);
  });

  it("live in a registry of the host's own, which a process that serves its metrics merges with its own", async () => {
    const a = await running();
    const b = await running();
    await a.clock.advanceTime("1m"); // a's job ticks; b's clock has not moved
    const mine = new Registry();
    new Counter({ name: "app_requests_total", help: "the application's own", registers: [mine] });
    const merged = Registry.merge([a.host.metrics!.registry, mine]);
    const text = await merged.metrics();
    expect(text).toContain("app_requests_total");
    expect(text).toMatch(/wow_job_runs_total\{context="shop",job="receive",outcome="succeeded"\} 1/);
    expect(await b.host.metrics!.registry.metrics()).not.toMatch(/wow_job_runs_total\{[^}]*\} 1/);
  });

  it("count a poll that failed as a whole as a store error, by loop", async () => {
    const inner = new MemoryStore();
    let fail = true;
    const timers = Object.create(inner.timers, {
      claimDue: {
        value: (...args: Parameters<typeof inner.timers.claimDue>) => {
          if (!fail) return inner.timers.claimDue(...args);
          fail = false;
          return Promise.reject(new Error("store unreachable"));
        },
      },
    });
    const r = await running({ kind: "memory", events: inner.events, timers, subscriptions: inner.subscriptions, runs: inner.runs, close: () => inner.close() });
    await r.clock.advanceTime("2s");
    const m = await scrape(r);
    expect(m("wow_store_errors_total", { loop: "timers" })).toBe(1);
    expect(r.lines.find((line) => line.event === "store.error")).toMatchObject({ level: "error", loop: "timers", host: "host-a", err: { message: "store unreachable" } });
  });

  it("count a timer slot whose claim was lost before its one-by-one commit as a fenced write, and log it", async () => {
    const inner = new MemoryStore();
    const far = Date.parse(START) + 365 * 86_400_000;
    let taken = false;
    // The first batch fails as a whole; just before, another claimer takes its timers and moves them far ahead.
    const timers = Object.create(inner.timers, {
      commitBatch: {
        value: async (...args: Parameters<typeof inner.timers.commitBatch>) => {
          if (taken) return inner.timers.commitBatch(...args);
          taken = true;
          const other = await inner.timers.claimDue(far, 100, { owner: "host-b", until: far });
          await inner.timers.settle(other, other.timers.map((t) => ({ id: t.id, slot: t.slot, outcome: { kind: "retry", attempts: 1, fireAt: far, error: "host-b's attempt" } })));
          throw new Error("the batch's transaction failed");
        },
      },
    });
    const r = await running({ kind: "memory", events: inner.events, timers, subscriptions: inner.subscriptions, runs: inner.runs, close: () => inner.close() });
    await r.clock.advanceTime("61s");
    const m = await scrape(r);
    expect(m("wow_fenced_writes_total", { write: "timer" })).toBeGreaterThanOrEqual(1);
    expect(r.lines.find((line) => line.event === "timer.claim-lost")).toMatchObject({ level: "warn", host: "host-a" });
    expect((await inner.events.read(0, 1_000)).filter((e) => e.type === "wow.schedule.Ticked")).toEqual([]);
  });
});

describe("GET /wow/hosts", () => {
  it("lists this host alone on a store that serves one, to an operator only", async () => {
    const r = await running();
    const hosts = await r.call("GET", "/wow/hosts?times=epoch");
    expect(hosts.status).toBe(200);
    expect(hosts.json).toMatchObject({ clustered: false, partitions: 1, unowned: [], hosts: [{ id: "host-a", self: true, clockOffsetMs: 0, partitions: [0], startedAt: T0 }] });
    const tenant = await r.call("GET", "/wow/hosts", { token: ACME });
    expect([tenant.status, tenant.code]).toEqual([403, "Forbidden"]);
    expect((await r.call("GET", "/wow/hosts", { token: null })).status).toBe(401);
  });
});

describe("run log and attempts over HTTP", () => {
  it("lists a job's runs newest first with ISO times, filters, a cursor, and refuses a bad filter naming it", async () => {
    const r = await running();
    await r.clock.advanceTime("5m1s"); // 5 runs of the per-minute job
    const page = await r.call("GET", "/wow/jobs/receive/runs?limit=2");
    expect(page.status).toBe(200);
    expect(page.json).toMatchObject({ context: "shop", instance: "receive", tenantId: "(0)", enabled: true });
    expect(page.json.runs.map((run: any) => [run.slot, run.outcome, run.kind, run.host])).toEqual([[5, "succeeded", "scheduled", "host-a"], [4, "succeeded", "scheduled", "host-a"]]);
    expect(page.json.runs[0]).toMatchObject({ due: "2026-10-20T00:05:00.000Z", started: "2026-10-20T00:05:00.000Z", durationMs: 0 });
    expect(page.json.runs[0].commands).toHaveLength(2);
    const rest = await r.call("GET", `/wow/jobs/receive/runs?limit=10&cursor=${page.json.next}`);
    expect(rest.json.runs.map((run: any) => run.slot)).toEqual([3, 2, 1]);
    expect(rest.json.next).toBeUndefined();
    const ranged = await r.call("GET", `/wow/jobs/receive/runs?from=2026-10-20T00:02:00Z&to=2026-10-20T00:04:00Z&times=epoch`);
    expect(ranged.json.runs.map((run: any) => [run.slot, run.due])).toEqual([[3, T0 + 180_000], [2, T0 + 120_000]]);
    const bad = await r.call("GET", "/wow/jobs/receive/runs?outcome=exploded");
    expect([bad.status, bad.code]).toEqual([400, "IllegalArgument"]);
    expect(bad.json.errorMsg).toContain("query parameter outcome: expected one of succeeded, failed");
    const typo = await r.call("GET", "/wow/jobs/receive/runs?outcomes=parked");
    expect(typo.json.errorMsg).toContain('unknown query parameter "outcomes"');
    const badCursor = await r.call("GET", "/wow/jobs/receive/runs?cursor=nope");
    expect([badCursor.status, badCursor.json.errorMsg]).toEqual([400, expect.stringContaining("query parameter cursor")]);
    expect((await r.call("GET", "/wow/jobs/nothing/runs")).status).toBe(404);
  });

  it("a tenant's credential reads its own instances' runs; another tenant's instance is not found", async () => {
    const r = await running();
    expect((await r.call("POST", "/shop/schedule/report/wow.schedule.enable", { token: ACME, body: { expression: "0 * * * * *" } })).status).toBe(200);
    await r.clock.advanceTime("1m");
    const own = await r.call("GET", "/wow/jobs/report/runs", { token: ACME });
    expect(own.json.runs.map((run: any) => [run.tenantId, run.slot])).toEqual([["acme", 1]]);
    const system = await r.call("GET", "/wow/jobs/receive/runs", { token: ACME });
    expect(system.status).toBe(404);
    const other = await r.call("GET", "/wow/jobs/report/runs?tenant=globex", { token: ACME });
    expect(other.status).toBe(404);
    const asOperator = await r.call("GET", "/wow/jobs/report/runs?tenant=acme");
    expect(asOperator.json.runs).toHaveLength(1);
  });

  it("lists a timer's delivery attempts newest first", async () => {
    const r = await running();
    const mug = aggregateRef("shop", "Stock", "mug");
    await r.host.send(commandMessage(S.Receive, { quantity: 1 }, mug));
    const set = await r.host.send(commandMessage(SystemCommands.ScheduleCommand, { key: "boom", rule: ScheduleRule.after("1s"), command: { type: S.Explode, body: {} } }, mug));
    const timer = (set.events.find((e) => e.type === "wow.ScheduleSet")!.body as { timer: string }).timer;
    await r.clock.advanceTime("5s");
    const attempts = await r.call("GET", `/wow/timers/${timer}/attempts`);
    expect(attempts.status).toBe(200);
    expect(attempts.json.attempts.map((a: any) => [a.attempt, a.outcome, a.due])).toEqual([[2, "parked", "2026-10-20T00:00:01.000Z"], [1, "retrying", "2026-10-20T00:00:01.000Z"]]);
    expect(attempts.json.attempts[0].error).toContain("the stock's store is down");
    expect((await r.call("GET", `/wow/timers/${timer}/attempts`, { token: ACME })).status).toBe(404);
    expect((await r.call("GET", "/wow/timers/no-such-timer/attempts")).status).toBe(404);
  });

  it("backfill and disable with a note over HTTP; each admin action is logged with the credential that made it", async () => {
    const r = await running();
    await r.clock.advanceTime("10m");
    const backfill = await r.call("POST", "/shop/schedule/receive/wow.schedule.backfill", { body: { from: "2026-10-19T23:57:00Z", to: "2026-10-20T00:00:00Z" } });
    expect(backfill.status).toBe(200);
    await r.clock.advanceTime("1s");
    const runs = await r.call("GET", "/wow/jobs/receive/runs?outcome=backfill");
    expect(runs.json.runs.map((run: any) => run.due)).toEqual(["2026-10-19T23:59:00.000Z", "2026-10-19T23:58:00.000Z", "2026-10-19T23:57:00.000Z"]);
    const unknown = await r.call("POST", "/shop/schedule/receive/wow.schedule.backfill", { body: { from: "2026-10-19T23:57:00Z", until: "x" } });
    expect([unknown.status, unknown.json.errorMsg]).toEqual([400, expect.stringContaining("expected from, to")]);
    const missing = await r.call("POST", "/shop/schedule/receive/wow.schedule.backfill", { body: { from: "2026-10-19T23:57:00Z" } });
    expect([missing.status, missing.json.errorMsg]).toEqual([400, expect.stringContaining("to is required")]);
    const disable = await r.call("POST", "/shop/schedule/receive/wow.schedule.disable", { body: { note: "supplier down until noon" } });
    expect(disable.status).toBe(200);
    const listed = await r.call("GET", "/wow/jobs");
    expect(listed.json.jobs.find((j: any) => j.id === "receive")).toMatchObject({ enabled: false, paused: { note: "supplier down until noon", at: "2026-10-20T00:10:01.000Z" } });
    expect((await r.call("GET", "/wow/jobs/receive/runs")).json.paused).toEqual({ note: "supplier down until noon", at: "2026-10-20T00:10:01.000Z" });
    const line = r.lines.find((l) => l.event === "admin.schedule" && l.command === "wow.schedule.Disable");
    expect(line).toMatchObject({ level: "info", by: "ops-team", instance: "receive", outcome: "decided", host: "host-a", time: "2026-10-20T00:10:01.000Z" });
    expect(line!.commandId).toEqual(expect.any(String));
    const jobLine = r.lines.find((l) => l.event === "job.run");
    expect(jobLine).toMatchObject({ job: "receive", outcome: "succeeded", slot: 1, requestIds: expect.any(Array) });
  });
});
