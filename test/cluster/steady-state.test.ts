// Several host processes on one PostgreSQL schema in steady state, counted from the database after:
// every timer's slot decided once, none before its due time on the server's clock, each host deciding
// its share, few duplicate decisions; each job slot run once, each sharded slot once per partition;
// every delivery's event handled by the saga once. And a host whose clock runs 5 s fast never
// delivers early: it runs on the database's clock.
import { describe, expect, it } from "vitest";
import { postgresUrl, testSchema } from "../support/postgres.js";
import { ClusterRun, timers, TIMING, verdict, waitFor } from "./support.js";

const url = postgresUrl();
const TIMERS = 20_000;
const CRON = 20;
const SPREAD_MS = 25_000;

describe.skipIf(url === undefined)("cluster: steady state (3 host processes, PostgreSQL)", () => {
  it("decides every slot once, never early, spread over the hosts; each job slot ticked once, each sharded slot once per partition", async () => {
    const run = new ClusterRun(url!, testSchema(url!));
    try {
      await run.prepare();
      for (const id of ["h1", "h2", "h3"]) await run.start(id);
      // Shares settle within two heartbeats of the last join.
      await waitFor(async () => (await run.leases()).every((l) => l.live) && new Set((await run.leases()).map((l) => l.owner)).size === 3, 10_000, () => "the shares never settled");
      const now = await run.dbNow();
      const start = now + 1_500;
      await run.seed(timers(TIMERS, CRON, start, SPREAD_MS, Date.now()));
      const end = start + SPREAD_MS;
      // Done when only the cron timers are left pending (the others are removed once delivered).
      const pending = async () => Number((await run.query<{ n: string }>(`SELECT count(*) AS n FROM "${run.schema}".wow_timers WHERE status = 0 AND key ~ '^t[0-9]+$'`)).rows[0]!.n);
      let left = -1;
      await waitFor(async () => (left = await pending()) === CRON, end - Date.now() + 30_000, () => `not every timer was delivered: ${left - CRON} left`, 250);
      // The saga catches up with every delivery so far (the cron timers go on firing meanwhile).
      const firedSoFar = (await run.fired()).map((f) => f.eventId);
      const handled = () => new Set(run.lines().flatMap((l) => (l.kind === "saga" ? [l.event] : [])));
      const deliveredAt = Date.now();
      let missing = 0;
      await waitFor(() => {
        const seen = handled();
        missing = firedSoFar.filter((e) => !seen.has(e)).length;
        return missing === 0;
      }, 120_000, () => `the saga did not catch up: ${missing} of ${firedSoFar.length} events unhandled`);
      const catchUpMs = Date.now() - deliveredAt;
      await run.stopAll();

      const fired = await run.fired();
      const { byRequest, twice, early, byHost } = verdict(fired);
      const once = new Set(fired.filter((f) => f.n < TIMERS).map((f) => f.n));
      const attempts = await run.attempts();
      const duplicates = attempts.filter((a) => a.outcome === "duplicate").length;
      const decided = attempts.filter((a) => a.outcome === "decided").length;
      // Cron timers: slots 1 … k of each, every one once (CATCH_UP skips none).
      const cronSlots = new Map<string, number[]>();
      for (const f of fired) if (f.n >= TIMERS) cronSlots.set(String(f.n), [...(cronSlots.get(String(f.n)) ?? []), Number(/#(\d+)$/.exec(f.requestId)![1])]);
      const lines = run.lines();
      const jobRuns = new Map<string, number>();
      for (const l of lines) if (l.kind === "job") jobRuns.set(`${l.job}#${l.partition ?? "-"}@${l.due}`, (jobRuns.get(`${l.job}#${l.partition ?? "-"}@${l.due}`) ?? 0) + 1);
      const everySecond = [...jobRuns].filter(([k]) => k.startsWith("everySecond#-@"));
      const perPartition = new Set([...jobRuns.keys()].filter((k) => k.startsWith("perPartition#")).map((k) => Number(/#(\d+)@/.exec(k)![1])));
      const sagaByEvent = new Map<string, number>();
      for (const l of lines) if (l.kind === "saga") sagaByEvent.set(l.event, (sagaByEvent.get(l.event) ?? 0) + 1);
      const shares = [...byHost].map(([h, n]) => `${h} ${((100 * n) / fired.length).toFixed(1)}%`);
      console.log(`steady state: ${fired.length} deliveries (${shares.join(", ")}), duplicates ${duplicates}/${decided + duplicates}, job runs ${jobRuns.size} (${everySecond.length} everySecond slots), saga handlings ${[...sagaByEvent.values()].reduce((a, b) => a + b, 0)} of ${sagaByEvent.size} events (caught up ${catchUpMs} ms after the last delivery)`);

      expect(early).toEqual([]);
      expect(twice).toEqual([]);
      expect(once.size).toBe(TIMERS);
      expect(cronSlots.size).toBe(CRON);
      for (const slots of cronSlots.values()) expect(slots.sort((a, b) => a - b)).toEqual(slots.map((_, i) => i + 1));
      for (const id of ["h1", "h2", "h3"]) expect(byHost.get(id) ?? 0, `host ${id}'s share`).toBeGreaterThanOrEqual(fired.length * 0.2);
      expect(duplicates / (decided + duplicates)).toBeLessThan(0.01);
      expect([...jobRuns.values()].filter((n) => n > 1)).toEqual([]);
      expect(everySecond.length).toBeGreaterThanOrEqual(8);
      expect(perPartition.size).toBe(TIMING.partitions);
      expect(firedSoFar.filter((e) => !sagaByEvent.has(e))).toEqual([]);
      expect([...sagaByEvent.values()].filter((n) => n > 1)).toEqual([]);
    } finally {
      await run.close();
    }
  }, 180_000);

  it("a host whose clock runs 5 s fast never delivers early (it runs on the database's clock)", async () => {
    const run = new ClusterRun(url!, testSchema(url!));
    try {
      await run.prepare();
      const fast = await run.start("fast", { WOW_TEST_SKEW_MS: "5000" });
      await run.start("right");
      expect(JSON.parse(fast.output().split("started ")[1]!.split("\n")[0]!).offset).toBeLessThan(-4_900);
      const start = (await run.dbNow()) + 1_000;
      await run.seed(timers(1_500, 0, start, 3_000, Date.now()));
      await waitFor(async () => (await run.fired()).length >= 1_500, 30_000, () => "not every timer was delivered");
      await run.stopAll();
      const { early, twice, byHost } = verdict(await run.fired());
      console.log(`skew: deliveries by host ${JSON.stringify(Object.fromEntries(byHost))}`);
      expect(early).toEqual([]);
      expect(twice).toEqual([]);
      expect(byHost.get("fast") ?? 0).toBeGreaterThan(0);
    } finally {
      await run.close();
    }
  }, 120_000);
});
