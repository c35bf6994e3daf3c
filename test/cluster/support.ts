// Real host processes sharing one PostgreSQL schema, and what the database says afterwards: every
// delivery (with the server's time of its commit), every delivery attempt with its host and outcome,
// the job ticks, and the lines the handlers appended.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { Host, PostgresStore, aggregateRef, commandMessage } from "../../runtime/index.js";
import { withDefaultUser } from "../../runtime/store/postgres/options.js";
import { FIRED, SEED, seeder, target, type FiredBody, type HandlerLine, type SeedTimer } from "./fixtures/cluster-domain.js";

const HOST = fileURLToPath(new URL("./fixtures/cluster-host.ts", import.meta.url));

export interface ClusterTiming {
  readonly heartbeat: number;
  readonly lease: number;
  readonly poll: number;
  readonly partitions: number;
}

export const TIMING: ClusterTiming = { heartbeat: 250, lease: 1_500, poll: 200, partitions: 8 };

export interface HostProcess {
  readonly id: string;
  readonly child: ChildProcess;
  readonly exited: Promise<number | null>;
  output(): string;
}

export class ClusterRun {
  readonly out = mkdtempSync(join(tmpdir(), "wowc-cluster-"));
  readonly hosts = new Map<string, HostProcess>();
  private readonly db: pg.Pool;

  constructor(readonly url: string, readonly schema: string, readonly timing: ClusterTiming = TIMING) {
    this.db = new pg.Pool({ connectionString: withDefaultUser(url), max: 2 });
    this.db.on("error", () => undefined);
  }

  /** Creates the schema (through a store) and adds the server's commit time to every event row. */
  async prepare(): Promise<void> {
    const store = new PostgresStore({ url: this.url, schema: this.schema });
    await store.open();
    await store.close();
    await this.query(`ALTER TABLE "${this.schema}".wow_events ADD COLUMN committed_at bigint DEFAULT (extract(epoch from clock_timestamp()) * 1000)::bigint`);
  }

  query<R extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<pg.QueryResult<R>> {
    return this.db.query<R>(text, values);
  }

  /** The server's clock (epoch ms). */
  async dbNow(): Promise<number> {
    return Number((await this.query<{ now: string }>("SELECT (extract(epoch from clock_timestamp()) * 1000)::bigint AS now")).rows[0]!.now);
  }

  async start(id: string, env: Record<string, string> = {}): Promise<HostProcess> {
    const child = spawn(process.execPath, ["--import", "tsx", HOST], {
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...process.env,
        WOW_LOG__LEVEL: "warn",
        WOW_TEST_URL: this.url,
        WOW_TEST_SCHEMA: this.schema,
        WOW_TEST_HOST: id,
        WOW_TEST_OUT: this.out,
        WOW_TEST_HEARTBEAT: String(this.timing.heartbeat),
        WOW_TEST_LEASE: String(this.timing.lease),
        WOW_TEST_POLL: String(this.timing.poll),
        WOW_TEST_PARTITIONS: String(this.timing.partitions),
        ...env,
      },
    });
    let output = "";
    child.stdout!.on("data", (d) => (output += d));
    child.stderr!.on("data", (d) => (output += d));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    const host: HostProcess = { id, child, exited, output: () => output };
    this.hosts.set(id, host);
    await waitFor(() => output.includes("started") || child.exitCode !== null, 30_000, () => `host ${id} did not start: ${output}`);
    if (child.exitCode !== null) throw new Error(`host ${id} exited: ${output}`);
    return host;
  }

  async kill(id: string, signal: NodeJS.Signals = "SIGKILL"): Promise<void> {
    const host = this.hosts.get(id)!;
    host.child.kill(signal);
    if (signal === "SIGKILL" || signal === "SIGTERM") {
      await host.exited;
      this.hosts.delete(id);
    }
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.hosts.keys()].map((id) => this.kill(id, "SIGTERM")));
  }

  /** Seeds timers through a host of the test's own that runs nothing (it only decides the Seed commands). */
  async seed(timers: readonly SeedTimer[], targets = 100_000): Promise<void> {
    const store = new PostgresStore({ url: this.url, schema: this.schema });
    const host = new Host({ store, aggregates: [seeder, target("seed")] });
    for (let from = 0; from < timers.length; from += 500) {
      const r = await host.send(commandMessage(SEED, { timers: timers.slice(from, from + 500), targets }, aggregateRef("load", "seeder", `s${from}`)));
      if (r.outcome !== "decided") throw new Error(`seed refused: ${r.errorMsg}`);
    }
    await store.close();
  }

  /** Every delivery decided: its body, and the server's time of its commit. */
  async fired(): Promise<(FiredBody & { readonly committedAt: number; readonly eventId: string })[]> {
    const { rows } = await this.query<{ data: string; committed_at: string }>(`SELECT data, committed_at FROM "${this.schema}".wow_events WHERE type = $1`, [FIRED]);
    return rows.map((r) => {
      // The store's event data: `i` the event id, `b` the body.
      const e = JSON.parse(r.data) as { b: FiredBody; i: string };
      return { ...e.b, eventId: e.i, committedAt: Number(r.committed_at) };
    });
  }

  /** Every delivery attempt: host and outcome. */
  async attempts(): Promise<{ readonly host: string; readonly outcome: string; readonly timer: string; readonly slot: number }[]> {
    const { rows } = await this.query<{ data: string }>(`SELECT data FROM "${this.schema}".wow_timer_attempts`);
    return rows.map((r) => JSON.parse(r.data) as { host: string; outcome: string; timer: string; slot: number });
  }

  /** Partition leases now: owner and whether it holds (on the server's clock). */
  async leases(): Promise<{ readonly partition: number; readonly owner: string | null; readonly live: boolean }[]> {
    const { rows } = await this.query<{ partition: number; owner: string | null; live: boolean }>(
      `SELECT p.partition, p.owner, (p.until > (extract(epoch from clock_timestamp()) * 1000)::bigint AND m.lease_until > (extract(epoch from clock_timestamp()) * 1000)::bigint) AS live
       FROM "${this.schema}".wow_cluster_partitions p LEFT JOIN "${this.schema}".wow_cluster_members m ON m.id = p.owner ORDER BY p.partition`,
    );
    return rows.map((r) => ({ partition: r.partition, owner: r.owner, live: r.live === true }));
  }

  /** Timers a host holds claimed now (id and slot). */
  async claimedBy(id: string): Promise<{ readonly id: string; readonly slot: number }[]> {
    return (await this.query<{ id: string; slot: number }>(`SELECT id, slot FROM "${this.schema}".wow_timers WHERE claimed_by = $1 AND status = 0`, [id])).rows;
  }

  lines(): HandlerLine[] {
    return readdirSync(this.out)
      .filter((f) => f.endsWith(".jsonl"))
      .flatMap((f) => readFileSync(join(this.out, f), "utf8").split("\n").filter((l) => l.length > 0).map((l) => JSON.parse(l) as HandlerLine));
  }

  async close(): Promise<void> {
    for (const host of this.hosts.values()) host.child.kill("SIGKILL");
    await Promise.all([...this.hosts.values()].map((h) => h.exited));
    this.hosts.clear();
    await this.db.end().catch(() => undefined);
    rmSync(this.out, { recursive: true, force: true });
  }
}

/** Checks every `everyMs` (a check that counts a table's rows asks less often: it loads the server the hosts share). */
export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs: number, why: () => string = () => "timed out", everyMs = 20): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(why());
    await sleep(everyMs);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Timers 0 … `count − 1`: `at` and `after` ones due over `spreadMs` from `start` (server clock), `clump` at each instant; and `cron` ones. */
export function timers(count: number, cron: number, start: number, spreadMs: number, now: number, clump = 1): SeedTimer[] {
  const out: SeedTimer[] = [];
  for (let n = 0; n < count; n++) {
    // `clump` timers at a time come due together (a burst takes several batches to deliver).
    const due = start + Math.floor((n - (n % clump)) * spreadMs / count);
    out.push(n % 3 === 1 ? { n, rule: { kind: "after", ms: Math.max(1, due - now) } } : { n, rule: { kind: "at", due } });
  }
  for (let k = 0; k < cron; k++) out.push({ n: count + k, rule: { kind: "cron" } });
  return out;
}

/** What the deliveries show: each timer#slot decided once, none early on the server's clock, shares by host. */
export function verdict(fired: readonly (FiredBody & { committedAt: number })[]) {
  const byRequest = new Map<string, number>();
  for (const f of fired) byRequest.set(f.requestId, (byRequest.get(f.requestId) ?? 0) + 1);
  const twice = [...byRequest].filter(([, n]) => n > 1);
  const early = fired.filter((f) => f.committedAt < f.due);
  const byHost = new Map<string, number>();
  for (const f of fired) byHost.set(f.host, (byHost.get(f.host) ?? 0) + 1);
  return { byRequest, twice, early, byHost };
}
