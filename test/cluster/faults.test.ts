// Host processes sharing a PostgreSQL schema under faults, counted from the database after: SIGKILLs
// at random moments (the survivors own every partition and deliver the dead host's claimed timers
// within lease + poll + 1 s), a host paused past its lease (SIGSTOP, SIGCONT: fenced, nothing decided
// twice, no event handled by two hosts at once), a host joining (its share within two heartbeats) and
// one leaving gracefully (handed over with no delivery later than one poll).
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { postgresUrl, testSchema } from "../support/postgres.js";
import { ClusterRun, sleep, timers, TIMING, verdict, waitFor } from "./support.js";

const url = postgresUrl();
const KILLS = 10;
const BOUND = TIMING.lease + TIMING.poll + 1_000;

async function allDelivered(run: ClusterRun, count: number, timeoutMs: number): Promise<void> {
  let left = -1;
  await waitFor(
    async () => (left = Number((await run.query<{ n: string }>(`SELECT count(*) AS n FROM "${run.schema}".wow_timers WHERE key ~ '^t[0-9]+$'`)).rows[0]!.n)) === 0,
    timeoutMs,
    () => `${left} of ${count} timers left; ${[...run.hosts.values()].map((h) => `${h.id} (exit ${h.child.exitCode}): ${h.output().slice(-1500)}`).join("\n")}`,
    250,
  );
}

/** Creates the schema, starts `ids`, and seeds `count` timers due over `spreadMs` from a second on. */
async function started(run: ClusterRun, ids: readonly string[], count: number, spreadMs: number, clump = 1): Promise<void> {
  await run.prepare();
  for (const id of ids) await run.start(id);
  const start = (await run.dbNow()) + 1_000;
  await run.seed(timers(count, 0, start, spreadMs, Date.now(), clump));
}

/** Waits for every timer, stops the hosts, and checks the deliveries: none early, none twice, each of `count` once. */
async function settled(run: ClusterRun, count: number, timeoutMs = 60_000) {
  await allDelivered(run, count, timeoutMs);
  await run.stopAll();
  const fired = await run.fired();
  const { byRequest, twice, early } = verdict(fired);
  expect(early).toEqual([]);
  expect(twice).toEqual([]);
  expect(byRequest.size).toBe(count);
  return fired;
}

/** Whether every timer#slot in `requests` was decided. */
async function decided(run: ClusterRun, requests: readonly string[]): Promise<boolean> {
  if (requests.length === 0) return true;
  const { rows } = await run.query<{ n: string }>(`SELECT count(*) AS n FROM "${run.schema}".wow_requests WHERE request_id = ANY($1)`, [requests]);
  return Number(rows[0]!.n) >= requests.length;
}

describe.skipIf(url === undefined)("cluster under faults (host processes, PostgreSQL)", () => {
  it(`SIGKILL of one of 3 hosts at random moments, ${KILLS} times: nothing lost, early or twice; takeover within lease + poll + 1 s`, async () => {
    const run = new ClusterRun(url!, testSchema(url!));
    try {
      const live = ["h1", "h2", "h3"];
      // Due over the whole run (each round is a random wait, the takeover, and a restart), in bursts of
      // 500 every 3.5 s: a burst keeps the hosts' claims held long enough to be killed mid-delivery.
      const COUNT = 10_000;
      await started(run, live, COUNT, 70_000, 500);
      const takeovers: { owned: number; claims: number; held: number }[] = [];
      for (let k = 0; k < KILLS; k++) {
        await sleep(600 + Math.floor(Math.random() * 1_200));
        const victim = live.splice(Math.floor(Math.random() * live.length), 1)[0]!;
        // Mid-delivery: once it holds claims (or after 4 s without: a burst comes every 3.5 s).
        await waitFor(async () => (await run.claimedBy(victim)).length > 0, 4_000, undefined, 5).catch(() => undefined);
        await run.kill(victim);
        const killedAt = Date.now();
        const held = (await run.claimedBy(victim)).map((c) => `${c.id}#${c.slot}`);
        let owned: number | undefined;
        let claims: number | undefined;
        await waitFor(async () => {
          if (owned === undefined && (await run.leases()).every((l) => l.live && l.owner !== victim)) owned = Date.now() - killedAt;
          if (claims === undefined && (await decided(run, held))) claims = Date.now() - killedAt;
          return owned !== undefined && claims !== undefined;
        }, 4 * BOUND, () => `after killing ${victim}: partitions owned again ${owned ?? "never"}, its ${held.length} claims delivered ${claims ?? "never"}`);
        takeovers.push({ owned: owned!, claims: claims!, held: held.length });
        const fresh = `${victim.split("-")[0]}-r${k}`;
        await run.start(fresh);
        live.push(fresh);
      }
      const fired = await settled(run, COUNT, 90_000);
      console.log(`kills: ${takeovers.map((t) => `owned again ${t.owned} ms, ${t.held} claims delivered ${t.claims} ms`).join("; ")} (bound ${BOUND} ms); ${fired.length} deliveries`);
      expect(new Set(fired.map((f) => f.n)).size).toBe(COUNT);
      expect(takeovers.filter((t) => t.held > 0).length, "kills while the host held claims").toBeGreaterThanOrEqual(KILLS / 2);
      for (const t of takeovers) {
        expect(t.owned).toBeLessThanOrEqual(BOUND);
        expect(t.claims).toBeLessThanOrEqual(BOUND);
      }
    } finally {
      await run.close();
    }
  }, 300_000);

  it("a host paused past its lease (SIGSTOP, SIGCONT) writes nothing under the leases it lost; nothing is decided twice or handled by two hosts at once", async () => {
    const run = new ClusterRun(url!, testSchema(url!));
    try {
      const COUNT = 3_000;
      await started(run, ["h1", "h2", "h3"], COUNT, 9_000);
      await sleep(3_000);
      const before = (await run.leases()).filter((l) => l.owner === "h2").map((l) => l.partition);
      const paused = run.hosts.get("h2")!;
      paused.child.kill("SIGSTOP");
      await sleep(TIMING.lease + 1_500);
      const during = await run.leases();
      paused.child.kill("SIGCONT");
      await allDelivered(run, COUNT, 60_000);
      await sleep(1_000);
      const fired = await settled(run, COUNT);
      // Handlings of one event by two hosts that overlap in time, neither of them spanning the pause.
      const sagas = run.lines().flatMap((l) => (l.kind === "saga" ? [l] : []));
      const byEvent = new Map<string, typeof sagas>();
      for (const l of sagas) byEvent.set(l.event, [...(byEvent.get(l.event) ?? []), l]);
      const atOnce = [...byEvent.values()].filter((ls) => ls.some((a) => ls.some((b) => a.host !== b.host && a.start < b.end && b.start < a.end && a.end - a.start < TIMING.lease && b.end - b.start < TIMING.lease)));
      const twiceHandled = [...byEvent.values()].filter((ls) => ls.length > 1).length;
      const fenced = paused.output().split("refused: partition").length - 1;
      console.log(`pause: h2 held partitions ${before.join(",")} before; during the pause they were held by ${during.filter((l) => before.includes(l.partition)).map((l) => l.owner).join(",")}; ${twiceHandled} events handled again after the pause (at least once), ${atOnce.length} at once; ${fenced} of its writes refused by fencing; ${fired.length} deliveries`);
      expect(during.filter((l) => before.includes(l.partition)).every((l) => l.owner !== "h2" && l.live)).toBe(true);
      expect(atOnce).toEqual([]);
    } finally {
      await run.close();
    }
  }, 300_000);

  it("a fourth host gets its share within two heartbeats; a graceful stop hands over with no delivery later than one poll", async () => {
    const run = new ClusterRun(url!, testSchema(url!));
    try {
      const COUNT = 3_000;
      await started(run, ["h1", "h2", "h3"], COUNT, 10_000);
      await sleep(2_500);
      const share = TIMING.partitions / 4;
      let joinedAt: number | undefined;
      let servedAt: number | undefined;
      const joining = run.start("h4");
      await waitFor(async () => {
        const now = Date.now();
        if (joinedAt === undefined && (await run.query(`SELECT 1 FROM "${run.schema}".wow_cluster_members WHERE id = 'h4'`)).rowCount === 1) joinedAt = now;
        if (joinedAt !== undefined && (await run.leases()).filter((l) => l.owner === "h4" && l.live).length === share) servedAt = now;
        return servedAt !== undefined;
      }, 10_000, () => "the fourth host never got its share");
      await joining;
      await sleep(1_500);
      const stoppedAt = await run.dbNow();
      await run.kill("h1", "SIGTERM");
      const handedOver = await run.dbNow();
      await sleep(2_000);
      const fired = await settled(run, COUNT);
      const around = fired.filter((f) => f.due >= stoppedAt - 500 && f.due <= handedOver + 2_000);
      const lateness = around.map((f) => f.committedAt - f.due).sort((a, b) => a - b);
      const worst = lateness.at(-1) ?? 0;
      console.log(`join: share of ${share} within ${servedAt! - joinedAt!} ms (two heartbeats: ${2 * TIMING.heartbeat} ms); graceful stop took ${handedOver - stoppedAt} ms, lateness of ${around.length} deliveries around it p50 ${lateness[Math.floor(lateness.length / 2)] ?? 0} ms, max ${worst} ms (poll ${TIMING.poll} ms)`);
      expect(servedAt! - joinedAt!).toBeLessThanOrEqual(2 * TIMING.heartbeat + 100);
      expect(around.length).toBeGreaterThan(0);
      expect(worst).toBeLessThanOrEqual(TIMING.poll + 300);
    } finally {
      await run.close();
    }
  }, 300_000);

  // Last, and short: the server restart drops every connection on it, other suites' too.
  it("a database restart mid-run: the hosts reconnect, nothing is lost or decided twice, readiness shows the outage", async () => {
    const run = new ClusterRun(url!, testSchema(url!));
    try {
      await run.prepare();
      const ports = [41_000 + Math.floor(Math.random() * 2_000), 43_000 + Math.floor(Math.random() * 2_000)];
      await run.start("h1", { WOW_TEST_PORT: String(ports[0]) });
      await run.start("h2", { WOW_TEST_PORT: String(ports[1]) });
      // Any host lists the cluster, to an operator: every member with its share, all partitions owned.
      const listed = async (port: number, token: string) => fetch(`http://127.0.0.1:${port}/wow/hosts`, { headers: { authorization: `Bearer ${token}` } });
      await waitFor(async () => {
        const view = (await (await listed(ports[1]!, "cluster-test-operator-token")).json()) as { hosts: { id: string; partitions: number[] }[]; unowned: number[] };
        return view.hosts.length === 2 && view.unowned.length === 0 && view.hosts.every((h) => h.partitions.length === TIMING.partitions / 2);
      }, 10_000, () => "GET /wow/hosts never showed both hosts with their shares");
      expect((await listed(ports[0]!, "cluster-test-tenant-acme-token")).status).toBe(403);
      const COUNT = 2_000;
      const start = (await run.dbNow()) + 1_000;
      await run.seed(timers(COUNT, 0, start, 8_000, Date.now()));
      await sleep(2_500);
      const verdicts: number[] = [];
      const reasons = new Set<string>();
      let watching = true;
      const watch = (async () => {
        while (watching) {
          const status = await fetch(`http://127.0.0.1:${ports[0]}/wow/ready`, { signal: AbortSignal.timeout(3_000) }).then(async (r) => {
            if (r.status !== 200) reasons.add(await r.text());
            return r.status;
          }, () => 0);
          verdicts.push(status);
          await sleep(100);
        }
      })();
      const version = readdirSync("/etc/postgresql")[0]!;
      // Not execFileSync: the readiness probes go on meanwhile.
      await promisify(execFile)("pg_ctlcluster", ["--skip-systemctl-redirect", version, "main", "restart"], { timeout: 60_000 });
      await waitFor(async () => run.dbNow().then(() => true, () => false), 30_000, () => "the server did not come back");
      await allDelivered(run, COUNT, 90_000);
      await waitFor(() => verdicts.at(-1) === 200, 20_000, () => `the host never became ready again: ${[...reasons].join("; ")} ${verdicts.slice(-5).join(",")} ${run.hosts.get("h1")?.output().slice(-3000)} exit ${run.hosts.get("h1")?.child.exitCode}`);
      watching = false;
      await watch;
      await run.stopAll();
      const fired = await run.fired();
      const { byRequest, twice, early } = verdict(fired);
      const outage = verdicts.filter((v) => v === 503).length;
      console.log(`database restart: readiness ${outage} × 503 of ${verdicts.length} probes (${[...reasons].join("; ")}); ${fired.length} deliveries`);
      expect(early).toEqual([]);
      expect(twice).toEqual([]);
      expect(byRequest.size).toBe(COUNT);
      expect(outage).toBeGreaterThan(0);
    } finally {
      await run.close();
    }
  }, 300_000);
});
