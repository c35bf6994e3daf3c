// Where bench:cluster's drain spends its time: N due timers drained by H host processes, with what the
// database says afterwards per host (attempts by outcome, batches and their sizes) and, sampled every
// 100 ms during the drain, what the server's backends were doing (active, or waiting on which event).
//   npx tsx test/bench/tools/cluster-profile.ts --timers 20000 --hosts 2
import pg from "pg";
import { randomBytes } from "node:crypto";
import { withDefaultUser } from "../../../runtime/store/postgres/options.js";
import { ClusterRun, timers } from "../../cluster/support.js";
import { drained } from "../cluster-checks.js";
import { argument } from "../bench-args.js";

const URL = process.env["WOW_TEST_POSTGRES_URL"] ?? "postgres://127.0.0.1:5432/test";
const TIMERS = argument("timers", 20_000);
const HOSTS = argument("hosts", 2);
const TIMING = { heartbeat: argument("heartbeat", 2_000), lease: argument("lease", 10_000), poll: argument("poll", 1_000), partitions: 16 };

const schema = `wow_profile_${randomBytes(5).toString("hex")}`;
const run = new ClusterRun(URL, schema, TIMING);
const sampler = new pg.Client({ connectionString: withDefaultUser(URL) });
await sampler.connect();
try {
  await run.prepare();
  const now = await run.dbNow();
  await run.seed(timers(TIMERS, 0, now - 60_000, 1_000, Date.now()));
  await Promise.all(Array.from({ length: HOSTS }, (_, i) => run.start(`b${i + 1}`)));
  const started = Date.now();
  const pending = async () => Number((await run.query<{ n: string }>(`SELECT count(*) AS n FROM "${schema}".wow_timers WHERE key ~ '^t[0-9]+$'`)).rows[0]!.n);
  const left = await pending();
  const waits = new Map<string, number>();
  let samples = 0;
  let sampling = true;
  const sampling$ = (async () => {
    while (sampling) {
      const { rows } = await sampler.query<{ app: string; what: string; n: string }>(
        `SELECT coalesce(nullif(application_name, ''), backend_type) AS app, coalesce(wait_event_type || ':' || wait_event, 'cpu') || ' ' || state || ' ' || regexp_replace(left(query, 60), '\\s+', ' ', 'g') AS what, count(*) AS n FROM pg_stat_activity
         WHERE datname = current_database() AND pid <> pg_backend_pid() AND state <> 'idle' AND query LIKE '%${schema}%' GROUP BY 1, 2`,
      );
      samples++;
      for (const r of rows) waits.set(`${r.app} ${r.what}`, (waits.get(`${r.app} ${r.what}`) ?? 0) + Number(r.n));
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  await drained(run, 3_600_000);
  const seconds = (Date.now() - started) / 1000;
  sampling = false;
  await sampling$;
  await run.stopAll();
  const attempts = await run.attempts();
  console.log(`${HOSTS} host(s), ${left} timers drained in ${seconds.toFixed(1)} s: ${Math.round(left / seconds)}/s`);
  const byHost = new Map<string, { outcomes: Map<string, number>; batches: Map<number, number> }>();
  const { rows } = await run.query<{ at: string; data: string }>(`SELECT at, data FROM "${schema}".wow_timer_attempts`);
  for (const r of rows) {
    const a = JSON.parse(r.data) as { host: string; outcome: string };
    const h = byHost.get(a.host) ?? { outcomes: new Map(), batches: new Map() };
    byHost.set(a.host, h);
    h.outcomes.set(a.outcome, (h.outcomes.get(a.outcome) ?? 0) + 1);
    h.batches.set(Number(r.at), (h.batches.get(Number(r.at)) ?? 0) + 1);
  }
  for (const [host, h] of byHost) {
    const sizes = [...h.batches.values()];
    console.log(`${host}: ${JSON.stringify(Object.fromEntries(h.outcomes))}, ${sizes.length} batches, mean ${(sizes.reduce((a, b) => a + b, 0) / sizes.length).toFixed(1)}`);
  }
  console.log(`attempts ${attempts.length}; backend states over ${samples} samples (mean backends per sample):`);
  for (const [what, n] of [...waits].sort((a, b) => b[1] - a[1]).slice(0, 14)) console.log(`  ${(n / samples).toFixed(2)}  ${what}`);
} finally {
  await run.close();
  await sampler.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await sampler.end();
}
