// bench:cluster — hosts sharing one PostgreSQL database, in one run against the same server: a
// backlog of due timers drained by 1 host, then the same backlog by 2 hosts (decided/s each, and the
// share of duplicate decisions: work done and refused as DuplicateRequestId); then a failover: one of
// 2 hosts SIGKILLed while it holds claims, timed to the first delivery of a timer it held and to every
// partition owned again. Each phase in a schema of its own, dropped after.
//   npm run bench:cluster [-- --timers 100000 --heartbeat 2000 --lease 10000 --poll 1000]
import pg from "pg";
import { randomBytes } from "node:crypto";
import { withDefaultUser } from "../../runtime/store/postgres/options.js";
import { ClusterRun, sleep, timers, waitFor, type ClusterTiming } from "../cluster/support.js";
import { argument } from "./bench-args.js";
import { anyDecided, claimsOf, drained } from "./cluster-checks.js";

const URL = process.env["WOW_TEST_POSTGRES_URL"] ?? "postgres://127.0.0.1:5432/test";
const TIMERS = argument("timers", 100_000);
const TIMING: ClusterTiming = { heartbeat: argument("heartbeat", 2_000), lease: argument("lease", 10_000), poll: argument("poll", 1_000), partitions: 16 };

const schemas: string[] = [];
function schema(): string {
  const name = `wow_bench_${randomBytes(5).toString("hex")}`;
  schemas.push(name);
  return name;
}

async function pending(run: ClusterRun): Promise<number> {
  return Number((await run.query<{ n: string }>(`SELECT count(*) AS n FROM "${run.schema}".wow_timers WHERE key ~ '^t[0-9]+$'`)).rows[0]!.n);
}

/** A backlog of `TIMERS` due timers drained by `hosts` hosts: decided/s and the duplicate share. */
async function drain(hosts: number): Promise<{ perS: number; duplicateShare: number; seconds: number }> {
  const run = new ClusterRun(URL, schema(), TIMING);
  try {
    await run.prepare();
    const now = await run.dbNow();
    await run.seed(timers(TIMERS, 0, now - 60_000, 1_000, Date.now()));
    await Promise.all(Array.from({ length: hosts }, (_, i) => run.start(`b${i + 1}`)));
    // Counted from the moment every host serves (process starts are not the drain's), over what was left then.
    const started = Date.now();
    const left = await pending(run);
    await drained(run, 3_600_000);
    const seconds = (Date.now() - started) / 1000;
    await run.stopAll();
    const attempts = await run.attempts();
    const duplicates = attempts.filter((a) => a.outcome === "duplicate").length;
    return { perS: Math.round(left / seconds), duplicateShare: duplicates / Math.max(1, attempts.length), seconds };
  } finally {
    await run.close();
  }
}

/** One of 2 hosts SIGKILLed while it holds claims: ms to the first delivery of a timer it held, and to every partition owned again. */
async function failover(): Promise<{ firstDeliveryMs: number; ownedMs: number; held: number }> {
  const run = new ClusterRun(URL, schema(), TIMING);
  try {
    await run.prepare();
    await run.start("f1");
    await run.start("f2");
    const count = Math.min(TIMERS, 20_000);
    const spread = 3 * TIMING.lease;
    await run.seed(timers(count, 0, (await run.dbNow()) + 1_000, spread, Date.now()));
    await sleep(2_000);
    let held: { stream: string; request: string }[] = [];
    await waitFor(async () => (held = await claimsOf(run, "f2")).length > 0, spread, () => "the host never held a claim");
    await run.kill("f2");
    const killedAt = Date.now();
    let firstDeliveryMs: number | undefined;
    let ownedMs: number | undefined;
    await waitFor(async () => {
      if (firstDeliveryMs === undefined && (await anyDecided(run, held))) firstDeliveryMs = Date.now() - killedAt;
      if (ownedMs === undefined && (await run.leases()).every((l) => l.live && l.owner === "f1")) ownedMs = Date.now() - killedAt;
      return firstDeliveryMs !== undefined && ownedMs !== undefined;
    }, 10 * TIMING.lease, () => "no takeover");
    await run.stopAll();
    return { firstDeliveryMs: firstDeliveryMs!, ownedMs: ownedMs!, held: held.length };
  } finally {
    await run.close();
  }
}

async function dropSchemas(): Promise<void> {
  const client = new pg.Client({ connectionString: withDefaultUser(URL) });
  await client.connect();
  for (const s of schemas) await client.query(`DROP SCHEMA IF EXISTS "${s}" CASCADE`);
  await client.end();
}

try {
  const one = await drain(1);
  const two = await drain(2);
  const fail = await failover();
  const failoverMs = Math.max(fail.firstDeliveryMs, fail.ownedMs);
  const bound = TIMING.lease + TIMING.poll + 1_000;
  console.log(`bench:cluster — ${TIMERS} due timers on PostgreSQL (${URL.replace(/\/\/[^@]*@/, "//")}); heartbeat ${TIMING.heartbeat} ms, lease ${TIMING.lease} ms, poll ${TIMING.poll} ms, ${TIMING.partitions} partitions`);
  console.log("| hosts | drained in (s) | decided/s | duplicate share |");
  console.log(`| 1 | ${one.seconds.toFixed(1)} | ${one.perS} | ${(one.duplicateShare * 100).toFixed(2)}% |`);
  console.log(`| 2 | ${two.seconds.toFixed(1)} | ${two.perS} | ${(two.duplicateShare * 100).toFixed(2)}% |`);
  console.log(`scaling (2 hosts / 1 host): ${(two.perS / one.perS).toFixed(2)}×`);
  console.log(`failover (SIGKILL of 1 of 2 hosts holding ${fail.held} claims): first delivery of a timer it held after ${fail.firstDeliveryMs} ms, every partition owned again after ${fail.ownedMs} ms (bound: lease + poll + 1 s = ${bound} ms)`);
  console.log(JSON.stringify({ one_host_per_s: one.perS, two_hosts_per_s: two.perS, scaling: Number((two.perS / one.perS).toFixed(3)), duplicate_share: Number(two.duplicateShare.toFixed(5)), failover_ms: failoverMs, lease_ms: TIMING.lease }));
} finally {
  await dropSchemas();
}
