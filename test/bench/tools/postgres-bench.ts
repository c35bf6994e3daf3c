// PostgreSQL for the benches: the server (WOW_BENCH_POSTGRES_URL, default the local test database),
// schemas of their own (dropped after), and the baseline `bench:timers -- --store postgres` compares
// with: pg-boss 10.4.2 draining the same number of delayed jobs by a fetch/complete loop, batch 1,000,
// each handler inserting its idempotency key, on the same server with the same durability.
import { randomBytes } from "node:crypto";
import pg from "pg";
import PgBoss from "pg-boss";
import { withDefaultUser } from "../../../runtime/store/postgres/options.js";

export const POSTGRES_BENCH_URL = process.env.WOW_BENCH_POSTGRES_URL ?? "postgres://127.0.0.1:5432/test";
const BATCH = 1_000;

/** A fresh schema name, and how to drop it (with everything in it). */
export async function postgresBenchSchema(prefix = "wow_bench"): Promise<{ name: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(5).toString("hex")}`;
  return { name, drop: () => withClient((c) => c.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`).then(() => undefined)) };
}

async function withClient<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: withDefaultUser(POSTGRES_BENCH_URL) });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export interface PgBossResult {
  readonly jobs: number;
  readonly batch: number;
  /** Jobs completed per second, from the first job's due time to the last completion. */
  readonly per_s: number;
  readonly lateness_p50_ms: number;
  readonly lateness_p99_ms: number;
  readonly synchronous_commit: string;
}

/**
 * `count` jobs, job n due at `base + n * spreadMs / count` (they are inserted due far later, then their
 * start times are set, as the timer phases jump their clock to the first due time), drained by
 * fetch/complete; each handler inserts the job's id as its idempotency key. The handlers of a batch run
 * at once on a pool of 10 connections (as pg-boss's own pool), then the batch is completed in one call.
 */
export async function pgbossDrain(count: number, spreadMs: number): Promise<PgBossResult> {
  const schema = await postgresBenchSchema("wow_bench_pgboss");
  const connectionString = withDefaultUser(POSTGRES_BENCH_URL);
  const boss = new PgBoss({ connectionString, schema: schema.name, max: 10, supervise: false, schedule: false });
  boss.on("error", (error) => console.error(error));
  const handlers = new pg.Pool({ connectionString, max: 10 });
  try {
    await boss.start();
    const queue = "bench";
    await boss.createQueue(queue);
    await handlers.query(`CREATE TABLE "${schema.name}".bench_keys (key text PRIMARY KEY)`);
    const later = new Date(Date.now() + 86_400_000);
    for (let from = 0; from < count; from += 5_000) {
      const jobs = Array.from({ length: Math.min(5_000, count - from) }, (_, i) => ({ name: queue, data: { n: from + i }, startAfter: later }));
      await boss.insert(jobs);
    }
    const synchronous = (await handlers.query<{ synchronous_commit: string }>("SHOW synchronous_commit")).rows[0]!.synchronous_commit;
    const base = Date.now() + 500;
    await handlers.query(`UPDATE "${schema.name}".job SET start_after = to_timestamp(($1::bigint + (data->>'n')::bigint * $2::bigint / $3::bigint) / 1000.0) WHERE name = $4`, [base, spreadMs, count, queue]);
    const lateness = new Float64Array(count);
    let done = 0;
    let lastAt = base;
    while (done < count) {
      const jobs = await boss.fetch<{ n: number }>(queue, { batchSize: BATCH });
      if (jobs.length === 0) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        continue;
      }
      await Promise.all(jobs.map((job) => handlers.query(`INSERT INTO "${schema.name}".bench_keys (key) VALUES ($1)`, [job.id])));
      await boss.complete(queue, jobs.map((job) => job.id));
      lastAt = Date.now();
      for (const job of jobs) lateness[done++] = lastAt - (base + Math.floor((job.data.n * spreadMs) / count));
    }
    const sorted = lateness.slice().sort();
    const at = (p: number) => Math.round(sorted[Math.min(count - 1, Math.ceil((p / 100) * count) - 1)]!);
    return { jobs: count, batch: BATCH, per_s: Math.round(count / ((lastAt - base) / 1000)), lateness_p50_ms: at(50), lateness_p99_ms: at(99), synchronous_commit: synchronous };
  } finally {
    await boss.stop({ graceful: false, wait: true }).catch(() => undefined);
    await handlers.end();
    await schema.drop();
  }
}
