// A SQLite host with 5,000 timers due over a few seconds, killed with SIGKILL at random moments and
// restarted: afterwards every timer was delivered, none before due, each timer#slot decided once.
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { Host, SqliteStore, aggregateRef, commandMessage, systemClock, type EventMessage } from "../../runtime/index.js";
import { tempDbPath } from "./fixtures/stores.js";
import { FIRED, SEED, seeder, target, type FiredBody, type SeedBody } from "./fixtures/timer-domain.js";

const TIMERS = 5_000;
const KILLS = 6;
const CHILD = fileURLToPath(new URL("./fixtures/crash-host.ts", import.meta.url));

function startChild(path: string): { child: ChildProcess; exited: Promise<number | null>; output: () => string } {
  const child = spawn(process.execPath, ["--import", "tsx", CHILD, path], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, exited, output: () => output };
}

function countFired(path: string): number {
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare("SELECT COUNT(*) AS n FROM wow_events WHERE type = ?").get(FIRED) as { n: number }).n;
  } finally {
    db.close();
  }
}

async function waitFor(check: () => boolean, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe("crash test (real processes, real clock)", () => {
  it("delivers every timer after SIGKILLs and restarts: none early, each timer#slot decided exactly once", async () => {
    const path = tempDbPath();
    // seed: 5,000 timers due over ~3 s, starting once the first child has had time to start
    const seedJournal = new SqliteStore(path);
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
      const run = startChild(path);
      await waitFor(() => run.output().includes("started") || run.child.exitCode !== null, 20_000);
      const after = 150 + Math.floor(Math.random() * 900);
      await new Promise((r) => setTimeout(r, after));
      run.child.kill("SIGKILL");
      await run.exited;
      kills.push(after);
      progress.push(countFired(path));
    }
    const last = startChild(path);
    const code = await Promise.race([last.exited, new Promise<"timeout">((r) => setTimeout(() => r("timeout"), 40_000))]);
    if (code !== 0) last.child.kill("SIGKILL");
    expect(code, last.output()).toBe(0);

    const journal = new SqliteStore(path);
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
    console.log(`crash test: ${KILLS} SIGKILLs after ${kills.join(", ")} ms (decided so far: ${progress.join(", ")}); ${fired.length} decided deliveries, ${byRequest.size} distinct timer#slot`);
    expect(early).toEqual([]);
    expect(twice).toEqual([]);
    expect(byRequest.size).toBe(TIMERS);
    expect(fired.length).toBe(TIMERS);
    expect([...byRequest.keys()].every((id) => id.endsWith("#1"))).toBe(true);
    expect(pending).toBeUndefined();
    expect(parked).toEqual([]);
  }, 120_000);
});
