// A host with 5,000 timers due over a few seconds, killed with SIGKILL at random moments and
// restarted: afterwards every timer was delivered, none before due, each timer#slot decided once. On
// SQLite, and on PostgreSQL (in a schema of its own) when its server answers.
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { Host, PostgresStore, SqliteStore, aggregateRef, commandMessage, systemClock, type EventMessage, type Store } from "../../runtime/index.js";
import { withDefaultUser } from "../../runtime/store/postgres/options.js";
import { postgresUrl, testSchema } from "../support/postgres.js";
import { tempDbPath } from "./fixtures/stores.js";
import { FIRED, SEED, seeder, target, type FiredBody, type SeedBody } from "./fixtures/timer-domain.js";

const TIMERS = 5_000;
const KILLS = 6;
const CHILD = fileURLToPath(new URL("./fixtures/crash-host.ts", import.meta.url));

/** Where the hosts keep their store: the child's arguments, a store on it, and how many deliveries it holds so far. */
interface CrashStore {
  readonly name: string;
  readonly args: readonly string[];
  open(): Store;
  countFired(): Promise<number>;
}

function sqliteCrashStore(): CrashStore {
  const path = tempDbPath();
  return {
    name: "sqlite",
    args: [path],
    open: () => new SqliteStore(path),
    async countFired() {
      const db = new Database(path, { readonly: true });
      try {
        return (db.prepare("SELECT COUNT(*) AS n FROM wow_events WHERE type = ?").get(FIRED) as { n: number }).n;
      } finally {
        db.close();
      }
    },
  };
}

function postgresCrashStore(url: string): CrashStore {
  const schema = testSchema(url);
  return {
    name: "postgres",
    args: [url, schema],
    open: () => new PostgresStore({ url, schema }),
    async countFired() {
      const client = new pg.Client({ connectionString: withDefaultUser(url) });
      await client.connect();
      try {
        return Number((await client.query(`SELECT count(*) AS n FROM "${schema}".wow_events WHERE type = $1`, [FIRED])).rows[0].n);
      } finally {
        await client.end();
      }
    },
  };
}

function startChild(args: readonly string[]): { child: ChildProcess; exited: Promise<number | null>; output: () => string } {
  const child = spawn(process.execPath, ["--import", "tsx", CHILD, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, exited, output: () => output };
}

async function waitFor(check: () => boolean, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 10));
  }
}

const PG_URL = postgresUrl();
const crashStores: (() => CrashStore)[] = [sqliteCrashStore, ...(PG_URL === undefined ? [] : [() => postgresCrashStore(PG_URL)])];

describe.each(crashStores.map((make) => ({ make, name: make === sqliteCrashStore ? "sqlite" : "postgres" })))("crash test (real processes, real clock): $name", ({ make }) => {
  it("delivers every timer after SIGKILLs and restarts: none early, each timer#slot decided exactly once", async () => {
    const store = make();
    // seed: 5,000 timers due over ~3 s, starting once the first child has had time to start
    const seedJournal = store.open();
    const seedHost = new Host({ store: seedJournal, aggregates: [seeder, target(() => Date.now())], clock: systemClock });
    const start = Date.now() + 1_500;
    for (let from = 0; from < TIMERS; from += 500) {
      const dues = Array.from({ length: 500 }, (_, i) => start + Math.floor(((from + i) * 3_000) / TIMERS));
      const body: SeedBody = { from, dues, targets: 97 };
      const r = await seedHost.send(commandMessage(SEED, body, aggregateRef("load", "seeder", `s${from}`)));
      expect(r.outcome).toBe("decided");
    }
    await seedJournal.close();

    const kills: number[] = [];
    const progress: number[] = [];
    for (let i = 0; i < KILLS; i++) {
      const run = startChild(store.args);
      await waitFor(() => run.output().includes("started") || run.child.exitCode !== null, 20_000);
      const after = 150 + Math.floor(Math.random() * 900);
      await new Promise((r) => setTimeout(r, after));
      run.child.kill("SIGKILL");
      await run.exited;
      kills.push(after);
      progress.push(await store.countFired());
    }
    const last = startChild(store.args);
    const code = await Promise.race([last.exited, new Promise<"timeout">((r) => setTimeout(() => r("timeout"), 40_000))]);
    if (code !== 0) last.child.kill("SIGKILL");
    expect(code, last.output()).toBe(0);

    const journal = store.open();
    const fired: EventMessage<FiredBody>[] = [];
    for (let after = 0; ; ) {
      const page = await journal.events.read(after, 5_000);
      if (page.length === 0) break;
      after = page[page.length - 1]!.position!;
      for (const e of page) if (e.type === FIRED) fired.push(e as EventMessage<FiredBody>);
    }
    const byRequest = new Map<string, number>();
    for (const e of fired) byRequest.set(e.body.requestId, (byRequest.get(e.body.requestId) ?? 0) + 1);
    const early = fired.filter((e) => e.body.decidedAt < e.body.due);
    const twice = [...byRequest].filter(([, n]) => n > 1);
    const pending = await journal.timers.nextDueAt();
    const parked = await journal.timers.list({ status: "parked" });
    await journal.close();
    console.log(`crash test (${store.name}): ${KILLS} SIGKILLs after ${kills.join(", ")} ms (decided so far: ${progress.join(", ")}); ${fired.length} decided deliveries, ${byRequest.size} distinct timer#slot`);
    expect(early).toEqual([]);
    expect(twice).toEqual([]);
    expect(byRequest.size).toBe(TIMERS);
    expect(fired.length).toBe(TIMERS);
    expect([...byRequest.keys()].every((id) => id.endsWith("#1"))).toBe(true);
    expect(pending).toBeUndefined();
    expect(parked).toEqual([]);
  }, 120_000);
});
