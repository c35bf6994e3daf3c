// Running jobs as operators see it, on the virtual clock, on every store: the run log's outcomes,
// overlap policies with a slow handler, timeouts, per-job retries and their backoff, jitter, backfill,
// and a pause with a note.
import { describe, expect, it } from "vitest";
import { jitterOf } from "../../../runtime/jobs/job-policy.js";
import { instanceKeyOf, type JobRun, type SagaJobRegistration, type ScheduleTick, type WowConfig } from "../../../runtime/index.js";
import { scheduleSpec, VirtualClock } from "../../../runtime/testing/index.js";
import { stores, type StoreFactory } from "../fixtures/stores.js";
import { order, probe, S, shopSaga, stock } from "../sagas/saga-domain.js";

const START = "2026-10-20T00:00:00Z";
const T0 = Date.parse(START);
const SECOND = 1_000;

/** What a scripted job does per tick: wait (virtual ms), fail, or send a command its target refuses. */
interface Script {
  slow?(tick: ScheduleTick, attempt: number): number;
  fail?(tick: ScheduleTick, attempt: number): boolean;
  refused?(tick: ScheduleTick): boolean;
}

interface Call {
  readonly slot: number;
  readonly due: number;
  readonly kind: string;
  readonly at: number;
}

function scriptedJob(clock: VirtualClock, script: Script, calls: Call[], overrides: Partial<SagaJobRegistration> = {}): SagaJobRegistration {
  const attempts = new Map<string, number>();
  return {
    name: "tick",
    function: "tick",
    subscription: "ShopSaga.tick",
    cron: "* * * * * *",
    zone: "UTC",
    scope: "SYSTEM",
    sharded: false,
    misfire: "COALESCE",
    blocking: false,
    commands: [S.Receive, S.Reserve],
    async handle(tick, context) {
      const key = `${tick.kind}:${tick.due}`;
      const attempt = (attempts.get(key) ?? 0) + 1;
      attempts.set(key, attempt);
      calls.push({ slot: tick.slot, due: tick.due, kind: tick.kind, at: clock.now() });
      const wait = script.slow?.(tick, attempt) ?? 0;
      if (wait > 0) await clock.sleep(wait, context.signal);
      if (script.fail?.(tick, attempt) === true) throw new Error("the supplier API is down");
      const mug = { context: "shop", aggregate: "Stock", tenantId: tick.tenantId, id: "mug" };
      return [context.command(mug, script.refused?.(tick) === true ? { type: S.Reserve, body: { quantity: 99 } } : { type: S.Receive, body: { quantity: 1 } })];
    },
    ...overrides,
  };
}

function config(job: Record<string, unknown> = {}, timers: Record<string, unknown> = {}): WowConfig {
  return { wow: { schedules: { tick: { expression: "* * * * * *", zone: "UTC", misfire: "COALESCE", enabled: true, ...job } }, timers: { "poll-interval": "1s", "max-attempts": 3, ...timers } } } as WowConfig;
}

function jobSpec(store: StoreFactory, script: Script = {}, overrides: Partial<SagaJobRegistration> = {}, wow: WowConfig = config()) {
  const clock = new VirtualClock(START);
  const calls: Call[] = [];
  const s = scheduleSpec({
    aggregates: [order, stock],
    sagas: [shopSaga(probe(), [scriptedJob(clock, script, calls, { cron: String((wow.wow.schedules as Record<string, { expression: string }>).tick!.expression), ...overrides })])],
    clock,
    store: store.open(),
    timers: { backoff: { initial: "1s", factor: 2, max: "1m" } },
    config: wow,
  });
  return { s, calls, clock };
}

const view = (runs: readonly JobRun[]) => runs.map((r) => [r.slot, r.kind, r.outcome, r.attempt]);

describe.each(stores)("job runs ($name)", (store) => {
  it("records every run with its outcome, times, commands and host: succeeded, failed (a command refused), retrying then succeeded, retrying then parked, manual, backfill", async () => {
    const { s } = jobSpec(
      store,
      {
        refused: (tick) => tick.slot === 2,
        fail: (tick, attempt) => (tick.slot === 3 && attempt === 1) || tick.slot === 4,
      },
      {},
      config({ expression: "*/10 * * * * *" }),
    );
    await s.advanceTime("10s"); // slot 1 at :10
    await s.advanceTime("10s"); // slot 2 at :20: its Reserve is refused
    await s.advanceTime("12s"); // slot 3 at :30 fails once, runs again 1 s later
    await s.advanceTime("15s"); // slot 4 at :40 fails at +0, +1 s, +3 s (3 attempts): parked
    await s.schedule("trigger", "tick");
    await s.schedule("backfill", "tick", { from: START, to: new Date(T0 + 10 * SECOND).toISOString() });
    await s.advanceTime("1s");
    const runs = await s.runs("tick");
    expect(view(runs.filter((r) => r.kind !== "scheduled" || r.slot <= 4))).toEqual([
      [1, "scheduled", "succeeded", 1],
      [2, "scheduled", "failed", 1],
      [3, "scheduled", "retrying", 1],
      [3, "scheduled", "succeeded", 2],
      [4, "scheduled", "retrying", 1],
      [4, "scheduled", "retrying", 2],
      [4, "scheduled", "parked", 3],
      [0, "manual", "succeeded", 1],
      [1, "backfill", "succeeded", 1],
    ]);
    const [first, refused, retrying] = runs;
    expect(first).toMatchObject({ context: "shop", job: "tick", instance: "tick", tenantId: "(0)", due: T0 + 10 * SECOND, host: "spec", commands: [`shop/(0)/tick@${T0 + 10 * SECOND}-0`] });
    expect(first!.started).toBeGreaterThanOrEqual(first!.due);
    expect(first!.finished).toBeGreaterThanOrEqual(first!.started);
    expect(refused!.error).toContain("shop.Reserve");
    expect(refused!.error).toContain("OutOfStock");
    expect(retrying!.error).toBe("Error: the supplier API is down");
    expect(runs.find((r) => r.kind === "backfill")!.due).toBe(T0);
    // Filters: by outcome, by kind.
    expect(view(await s.runs("tick", { outcome: "parked" }))).toEqual([[4, "scheduled", "parked", 3]]);
    expect(view(await s.runs("tick", { outcome: "manual" }))).toEqual([[0, "manual", "succeeded", 1]]);
    // The hooks heard each failure (failed, retrying, parked) and the parked tick.
    expect(s.failedRuns.map((r) => [r.slot, r.outcome])).toEqual([[2, "failed"], [3, "retrying"], [4, "retrying"], [4, "retrying"], [4, "parked"]]);
    expect(s.parkedAlerts.map((p) => [p.kind, p.kind === "event" ? p.subscription : ""])).toEqual([["event", "ShopSaga.tick"]]);
    // The listing shows the latest run.
    const [instance] = await s.app.jobs.list();
    expect(instance!.lastRun).toMatchObject({ kind: "backfill", outcome: "succeeded" });
    await s.stop();
  });

  it.each([
    ["BUFFER_ALL", [[1, "succeeded"], [2, "succeeded"], [3, "succeeded"], [4, "succeeded"], [5, "succeeded"]]],
    ["SKIP", [[1, "succeeded"], [2, "skipped"], [3, "skipped"], [4, "succeeded"], [5, "succeeded"]]],
    ["BUFFER_ONE", [[1, "succeeded"], [2, "succeeded"], [3, "skipped"], [4, "succeeded"], [5, "succeeded"]]],
  ] as const)("overlap %s with a 2.5 s run of a per-second job", async (overlap, expected) => {
    const { s, calls } = jobSpec(store, { slow: (tick) => (tick.slot === 1 ? 2_500 : 0) }, { overlap });
    await s.advanceTime("5.5s");
    const runs = (await s.runs("tick")).filter((r) => r.slot <= 5);
    expect(runs.map((r) => [r.slot, r.outcome])).toEqual(expected);
    // A skipped slot ran no handler; the slow run started on time.
    expect(calls.map((c) => c.slot).filter((slot) => slot <= 5)).toEqual(expected.filter(([, o]) => o !== "skipped").map(([slot]) => slot));
    expect(calls[0]!.at).toBe(T0 + SECOND);
    if (overlap === "BUFFER_ALL") expect(calls.slice(1, 3).map((c) => c.at - T0)).toEqual([3_500, 3_500]); // queued behind it, in order
    await s.stop();
  });

  it("a run past its timeout fails, its signal aborts, and it is retried as a failure", async () => {
    const aborted: boolean[] = [];
    const clock = new VirtualClock(START);
    const calls: Call[] = [];
    const job = scriptedJob(clock, { slow: (_t, attempt) => (attempt === 1 ? 10_000 : 0) }, calls, { cron: "0 * * * * *", timeout: "2s" });
    const watched: SagaJobRegistration = {
      ...job,
      async handle(tick, context, services) {
        context.signal.addEventListener("abort", () => aborted.push(true));
        return job.handle(tick, context, services);
      },
    };
    const s = scheduleSpec({ aggregates: [order, stock], sagas: [shopSaga(probe(), [watched])], clock, store: store.open(), config: config({ expression: "0 * * * * *" }) });
    await s.advanceTime("1m5s");
    const runs = await s.runs("tick");
    expect(view(runs)).toEqual([[1, "scheduled", "retrying", 1], [1, "scheduled", "succeeded", 2]]);
    expect(runs[0]!.error).toContain("timeout (2000 ms)");
    expect(runs[0]!.finished - runs[0]!.started).toBe(2_000);
    expect(aborted).toEqual([true]);
    // The timed-out attempt's outputs were never sent: one Receive, the second attempt's.
    expect((await s.store.events.load({ context: "shop", aggregate: "Stock", tenantId: "(0)", id: "mug" })).events).toHaveLength(1);
    await s.stop();
  });

  it("retries by the job's own policy: attempts and a doubling backoff capped at maxBackoff, then parks; the config overrides it field by field", async () => {
    const always = { fail: () => true };
    const declared = jobSpec(store, always, { cron: "0 * * * * *", retry: { maxAttempts: 4, backoff: "2s", maxBackoff: "5s" } }, config({ expression: "0 * * * * *" }));
    await declared.s.advanceTime("1m20s");
    const runs = await declared.s.runs("tick");
    expect(view(runs)).toEqual([[1, "scheduled", "retrying", 1], [1, "scheduled", "retrying", 2], [1, "scheduled", "retrying", 3], [1, "scheduled", "parked", 4]]);
    // Delays after failures 1, 2, 3: 2 s, 4 s, min(5 s, 8 s).
    expect(runs.map((r) => r.started - (T0 + 60 * SECOND))).toEqual([0, 2_000, 6_000, 11_000]);
    await declared.s.stop();

    const overridden = jobSpec(store, always, { cron: "0 * * * * *", retry: { maxAttempts: 4, backoff: "2s" } }, config({ expression: "0 * * * * *", retry: { "max-attempts": 2 } }));
    await overridden.s.advanceTime("1m20s");
    expect((await overridden.s.runs("tick")).map((r) => [r.outcome, r.started - (T0 + 60 * SECOND)])).toEqual([["retrying", 0], ["parked", 2_000]]);
    await overridden.s.stop();

    // Neither declared nor configured: wow.timers' attempts (3 here) and backoff (1 s, ×2).
    const defaults = jobSpec(store, always, { cron: "0 * * * * *" }, config({ expression: "0 * * * * *" }));
    await defaults.s.advanceTime("1m20s");
    expect((await defaults.s.runs("tick")).map((r) => [r.outcome, r.started - (T0 + 60 * SECOND)])).toEqual([["retrying", 0], ["retrying", 1_000], ["parked", 3_000]]);
    await defaults.s.stop();
  });

  it("jitter: each slot runs a fixed delay after its due time, never before it, the same on every run", async () => {
    const first = jobSpec(store, {}, { cron: "0 * * * * *", jitter: "30s" }, config({ expression: "0 * * * * *" }));
    await first.s.advanceTime("10m30s");
    const runs = await first.s.runs("tick");
    expect(runs).toHaveLength(10);
    const key = instanceKeyOf({ context: "shop", instance: "tick", tenantId: "(0)" });
    for (const run of runs) {
      const delay = run.started - run.due;
      expect(delay).toBeGreaterThanOrEqual(0);
      expect(delay).toBeLessThan(30_000);
      expect(delay).toBe(jitterOf(key, run.due, 30_000));
    }
    expect(new Set(runs.map((r) => r.started - r.due)).size).toBeGreaterThan(1);
    await first.s.stop();
    // Another host (or a restart) runs the same slots at the same offsets.
    const second = jobSpec(store, {}, { cron: "0 * * * * *", jitter: "30s" }, config({ expression: "0 * * * * *" }));
    await second.s.advanceTime("10m30s");
    expect((await second.s.runs("tick")).map((r) => r.started - r.due)).toEqual(runs.map((r) => r.started - r.due));
    await second.s.stop();
  });

  it("backfill runs each slot of a past range in order, with its due time; a repeated or overlapping backfill runs nothing again", async () => {
    const { s, calls } = jobSpec(store, {}, { cron: "0 0 * * * *" }, config({ expression: "0 0 * * * *" }));
    await s.advanceTime("2h"); // scheduled slots at 01:00 and 02:00
    const from = new Date(T0 - 3 * 3_600_000).toISOString();
    const to = new Date(T0 + 1).toISOString();
    const result = await s.schedule("backfill", "tick", { from, to });
    expect(result.outcome).toBe("decided");
    await s.advanceTime("1s");
    const backfilled = (await s.runs("tick")).filter((r) => r.kind === "backfill");
    expect(backfilled.map((r) => [r.slot, r.due - T0])).toEqual([[1, -3 * 3_600_000], [2, -2 * 3_600_000], [3, -3_600_000], [4, 0]]);
    const stockEvents = async () => (await s.store.events.load({ context: "shop", aggregate: "Stock", tenantId: "(0)", id: "mug" })).events.length;
    expect(await stockEvents()).toBe(6);
    // Again, and over the scheduled slots too: every slot already ran; nothing is run or sent.
    const handled = calls.length;
    await s.schedule("backfill", "tick", { from, to: new Date(T0 + 2 * 3_600_000 + 1).toISOString() });
    await s.advanceTime("1s");
    expect(calls.length).toBe(handled);
    expect((await s.runs("tick")).filter((r) => r.kind === "backfill")).toHaveLength(4);
    expect(await stockEvents()).toBe(6);
    await s.stop();
  });

  it("refuses a backfill into the future, of an empty or reversed range, or of more than 1,000 slots, saying why", async () => {
    const { s } = jobSpec(store);
    const now = T0;
    const iso = (ms: number) => new Date(ms).toISOString();
    const refused = async (body: Record<string, unknown>) => {
      const result = await s.schedule("backfill", "tick", body);
      return [result.errorCode, result.errorMsg];
    };
    expect(await refused({ from: iso(now - 10_000), to: iso(now + 60_000) })).toEqual(["CommandValidation", expect.stringContaining("after now")]);
    expect(await refused({ from: iso(now - 1_000), to: iso(now - 2_000) })).toEqual(["CommandValidation", expect.stringContaining("from must be before to")]);
    expect(await refused({ from: iso(now - 3_600_000), to: iso(now) })).toEqual(["CommandValidation", expect.stringContaining("more than 1000 slots")]);
    expect(await refused({ from: "yesterday", to: iso(now) })).toEqual(["CommandValidation", expect.stringContaining("from:")]);
    expect(await refused({ to: iso(now) })).toEqual(["CommandValidation", expect.stringContaining("from is required")]);
    expect(await refused({ from: iso(now - 500), to: iso(now - 100) })).toEqual(["CommandValidation", expect.stringContaining("has no slot in that range")]);
    await s.stop();
  });

  it("disable with a note pauses the instance: listed with its note and time; enabling clears it", async () => {
    const { s } = jobSpec(store);
    await s.advanceTime("2s");
    const disabled = await s.schedule("disable", "tick", { note: "supplier migration, back Monday" });
    expect(disabled.outcome).toBe("decided");
    let [instance] = await s.app.jobs.list();
    expect(instance).toMatchObject({ enabled: false, paused: { note: "supplier migration, back Monday", at: T0 + 2_000 } });
    const ran = (await s.runs("tick")).length;
    await s.advanceTime("5s");
    expect((await s.runs("tick")).length).toBe(ran);
    expect((await s.schedule("disable", "tick", { note: "x".repeat(501) })).errorCode).toBe("CommandValidation");
    await s.enable("tick");
    [instance] = await s.app.jobs.list();
    expect(instance!.enabled).toBe(true);
    expect(instance!.paused).toBeUndefined();
    await s.stop();
  });
});
