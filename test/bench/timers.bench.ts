// `npm run bench:timers`: scheduled-command delivery on the SQLite journal.
// 100,000 timers due within the same few seconds, delivered by one host (command processor + timer
// service) on the real clock: decided deliveries per second, lateness (decision time − due time)
// p50/p99/max, peak heap while delivering with 100k and with 1M pending timers (900k due tomorrow),
// and, in the same run, the ceiling: the same number of plain SQLite row inserts + deletes in
// batched transactions. Each measurement runs in its own child process (clean heap), on the compiled
// runtime (dist/). Each phase runs `--runs N` times (default 3), alternated; the figures are medians.
// `--store postgres`: the same work on PostgreSQL too (WOW_BENCH_POSTGRES_URL, default the local test
// database; each phase in a schema of its own, dropped after), next to SQLite's figures and pg-boss's
// (the same number of delayed jobs drained by a fetch/complete loop, batch 1,000, each handler inserting
// its idempotency key), against the same server, synchronous_commit on.
// Prints a table, then (last line) one JSON object.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { constants, PerformanceObserver } from "node:perf_hooks";
import v8 from "node:v8";
import vm from "node:vm";
import Database from "better-sqlite3";
import type { Clock, CommandSender } from "../../runtime/index.js";
import { argument, median, option } from "./bench-args.js";
import { pgbossDrain, postgresBenchSchema, POSTGRES_BENCH_URL, type PgBossResult } from "./tools/postgres-bench.js";
import { SEED, burstSeeds, seeder, target } from "../runtime/fixtures/timer-domain.js";

/**
 * The runtime as users run it: the compiled `dist/` (what `wowc/runtime` exports), not the TypeScript
 * sources through tsx, whose transform adds its own cost to every call. `npm run bench:timers` builds
 * first. (The domain's handlers come from the sources: they only return plain decisions and rules.)
 */
const { Host, PostgresStore, SqliteStore, TIMER_DEFAULTS, aggregateRef, commandMessage, systemClock } = (await import(
  new URL("../../dist/runtime/index.js", import.meta.url).href
)) as typeof import("../../runtime/index.js");

const DUE = Number(process.env.WOW_BENCH_DUE ?? 100_000);
const SPREAD_MS = Number(process.env.WOW_BENCH_SPREAD_MS ?? 4_000);
const POLL_MS = 1_000;
/** The runtime's default batch size, unless `WOW_BENCH_BATCH` sets another. */
const BATCH = Number(process.env.WOW_BENCH_BATCH ?? TIMER_DEFAULTS.batchSize);
const SELF = fileURLToPath(import.meta.url);
/** A path: the delivery phase (not the seeding) is CPU-profiled into it (a `.cpuprofile`). */
const CPU_PROFILE = process.env.WOW_BENCH_CPU_PROFILE;
/** `WOW_BENCH_EACH=1`: deliver one command at a time through `send` (the per-command path), for a same-machine comparison. */
const EACH = process.env.WOW_BENCH_EACH === "1";
/** `WOW_BENCH_TRACE=1`: each delivery phase prints, to stderr, every 1,000th delivery's time since the first due one and its lateness (ms). */
const TRACE = process.env.WOW_BENCH_TRACE === "1";
/**
 * `WOW_BENCH_WITHOUT_LISTINGS=1`: the SQLite phases drop the operators' listing indexes (schema versions 7
 * to 9: by due, tenant, aggregate id, key, command type) once seeded, to tell their cost per delivery apart.
 */
const WITHOUT_LISTINGS = process.env.WOW_BENCH_WITHOUT_LISTINGS === "1";
const LISTING_INDEXES = ["wow_timers_pending_due", "wow_timers_tenant", "wow_timers_aggregate", "wow_timers_key", "wow_timers_command", "wow_timers_parked_tenant"];
/** `WOW_BENCH_SCATTER=1`: target ids that do not sort in due order (see `SeedBody.scatter`), as random aggregate ids would not. */
const SCATTER = process.env.WOW_BENCH_SCATTER === "1";
/** `WOW_BENCH_PAGE_SIZE=n`: the journal file's SQLite page size (default: the journal's). */
const PAGE_SIZE = process.env.WOW_BENCH_PAGE_SIZE === undefined ? undefined : Number(process.env.WOW_BENCH_PAGE_SIZE);

/**
 * `WOW_BENCH_WAL_PAGES=n` / `WOW_BENCH_WAL_LIMIT_MB=m`: the phases' WAL bound (default: the store's own,
 * a checkpoint every 10,000 pages, cut back to 64 MB), e.g. to time a build from before that bound with
 * its own settings (100,000 pages, no cut). `WOW_BENCH_CHECKPOINT_INTERVAL=ms`: the store's background
 * checkpoints (0: none, every checkpoint on the committing connection).
 */
function sqliteOptions(): import("../../runtime/index.js").SqliteStoreOptions {
  const pages = process.env.WOW_BENCH_WAL_PAGES;
  const limit = process.env.WOW_BENCH_WAL_LIMIT_MB;
  const interval = process.env.WOW_BENCH_CHECKPOINT_INTERVAL;
  return {
    ...(interval === undefined ? {} : { checkpointInterval: Number(interval) }),
    ...(PAGE_SIZE === undefined ? {} : { pageSize: PAGE_SIZE }),
    ...(pages === undefined ? {} : { walAutocheckpoint: Number(pages) }),
    ...(limit === undefined ? {} : { walSizeLimitMb: Number(limit) }),
  };
}

interface PhaseResult {
  pending: number;
  due: number;
  decided: number;
  seed_s: number;
  decided_per_s: number;
  busy_per_s: number;
  /** Process CPU time (user + system) per delivery: comparable across runs on a loaded machine. */
  cpu_us_per_delivery: number;
  lateness_p50_ms: number;
  lateness_p99_ms: number;
  lateness_max_ms: number;
  heap_base_mb: number;
  heap_peak_mb: number;
  /** The most heap still in use right after a full garbage collection: what delivering keeps, not garbage awaiting collection. */
  live_heap_peak_mb: number;
  rss_peak_mb: number;
}

function gcFn(): () => void {
  v8.setFlagsFromString("--expose-gc");
  return vm.runInNewContext("gc") as () => void;
}

const mb = (bytes: number) => Math.round((bytes / 1048576) * 10) / 10;

function percentile(sorted: Float64Array, p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

type StoreKind = "sqlite" | "postgres";

/** One delivery run in this (child) process: seed `pending` timers, `DUE` of them due soon, deliver those. */
async function phase(pending: number, kind: StoreKind): Promise<PhaseResult> {
  const gc = gcFn();
  const dir = mkdtempSync(join(tmpdir(), "wowc-bench-"));
  const schema = kind === "postgres" ? await postgresBenchSchema() : undefined;
  try {
    const journal: import("../../runtime/index.js").Store =
      schema === undefined ? new SqliteStore(join(dir, "journal.db"), sqliteOptions()) : new PostgresStore({ url: POSTGRES_BENCH_URL, schema: schema.name });
    await journal.open?.();
    let offset = 0;
    const clock: Clock = { now: () => Date.now() + offset, sleep: systemClock.sleep };
    const lateness = new Float64Array(DUE);
    let delivered = 0;
    let decided = 0;
    let heapPeak = 0;
    let livePeak = 0;
    let rssPeak = 0;
    let lastAt = 0;
    let done!: () => void;
    const finished = new Promise<void>((resolve) => (done = resolve));
    const sample = () => {
      const m = process.memoryUsage();
      heapPeak = Math.max(heapPeak, m.heapUsed);
      rssPeak = Math.max(rssPeak, m.rss);
    };
    const host = new Host({
      store: journal,
      aggregates: [seeder, target(() => clock.now())],
      clock,
      timers: { pollInterval: POLL_MS, batchSize: BATCH },
      ...(EACH ? { timerSend: (send: CommandSender) => send } : {}),
      onDelivery: (d) => {
        const now = clock.now();
        if (d.result?.outcome === "decided") decided++;
        lateness[delivered++] = now - d.command.schedule!.due;
        if (TRACE && delivered % 1000 === 0) process.stderr.write(`trace ${pending} ${delivered} ${Math.round(performance.now())} ${Math.round(now - base)} ${Math.round(now - d.command.schedule!.due)}\n`);
        lastAt = now;
        if (delivered % 1000 === 0) sample();
        if (delivered === DUE) done();
      },
    });

    // Seed through ordinary commits (each Seed command schedules 2,000 timers atomically).
    const seedStart = Date.now();
    const base = Date.now() + 3_600_000; // the first due time, an hour ahead of the real clock
    for (const { seederId, body } of burstSeeds(pending, DUE, base, SPREAD_MS, SCATTER)) {
      const r = await host.send(commandMessage(SEED, body, aggregateRef("load", "seeder", seederId)));
      if (r.outcome !== "decided") throw new Error(`seed failed: ${r.errorCode} ${r.errorMsg}`);
    }
    const seedSeconds = (Date.now() - seedStart) / 1000;
    // The journal as a running host leaves it between bursts: the poller checkpoints the WAL whenever nothing
    // is due before its next poll (`idle`). Seeding 1M timers in half a minute gives it no such moment, so the
    // burst would otherwise start with up to 400 MB of WAL to checkpoint and a gigabyte of file writes in flight.
    await journal.idle?.();
    if (WITHOUT_LISTINGS && schema === undefined) {
      const db = new Database(join(dir, "journal.db"));
      for (const index of LISTING_INDEXES) db.exec(`DROP INDEX ${index}`);
      db.close();
    }

    gc();
    const heapBase = process.memoryUsage().heapUsed;
    heapPeak = heapBase;
    livePeak = heapBase;
    const sampler = setInterval(sample, 20);
    // Each full (mark-compact) collection: the heap as it left it, i.e. what is still reachable (the observer
    // runs just after it). Scavenges leave the old generation's garbage in place, so they do not count.
    const collections = new PerformanceObserver((list) => {
      const major = list.getEntries().some((entry) => (entry as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR);
      if (major) livePeak = Math.max(livePeak, process.memoryUsage().heapUsed);
    });
    collections.observe({ entryTypes: ["gc"] });
    // Jump the host's clock to just before the first due time, then run.
    offset = base - 200 - Date.now();
    let busy = 0;
    // The poller's busy time: its loop calls the service's `poll` by name at each turn (so a wrapper on
    // the instance is what the loop runs); `pollOnce` is only the tests' way in.
    const service = host.timers as unknown as { poll(): Promise<unknown> };
    const poll = service.poll.bind(service);
    service.poll = async () => {
      const t0 = performance.now();
      try {
        return await poll();
      } finally {
        busy += performance.now() - t0;
      }
    };
    const profiler = CPU_PROFILE ? await startProfile() : undefined;
    const cpu0 = process.cpuUsage();
    host.start();
    await finished;
    const cpu = process.cpuUsage(cpu0);
    if (profiler) writeFileSync(CPU_PROFILE!, JSON.stringify(await profiler()));
    clearInterval(sampler);
    collections.disconnect();
    sample();
    await host.stop();
    await journal.close();

    const sorted = lateness.slice().sort();
    return {
      pending,
      due: DUE,
      decided,
      seed_s: Math.round(seedSeconds * 10) / 10,
      decided_per_s: Math.round(DUE / ((lastAt - base) / 1000)),
      busy_per_s: Math.round(DUE / (busy / 1000)),
      cpu_us_per_delivery: Math.round(((cpu.user + cpu.system) / DUE) * 10) / 10,
      lateness_p50_ms: Math.round(percentile(sorted, 50)),
      lateness_p99_ms: Math.round(percentile(sorted, 99)),
      lateness_max_ms: Math.round(sorted[sorted.length - 1]!),
      heap_base_mb: mb(heapBase),
      heap_peak_mb: mb(heapPeak),
      live_heap_peak_mb: mb(livePeak),
      rss_peak_mb: mb(rssPeak),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await schema?.drop();
  }
}

/** Starts the V8 CPU profiler in this process; the returned function stops it and gives the profile. */
async function startProfile(): Promise<() => Promise<object>> {
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.start");
  return async () => {
    const { profile } = await session.post("Profiler.stop");
    session.disconnect();
    return profile;
  };
}

/** The ceiling: the same number of plain rows inserted, then deleted, in batched transactions (same pragmas). */
function ceiling(rows: number): { rows_per_s: number; insert_s: number; delete_s: number } {
  const dir = mkdtempSync(join(tmpdir(), "wowc-ceiling-"));
  try {
    const db = new Database(join(dir, "plain.db"));
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    db.exec("CREATE TABLE plain (id INTEGER PRIMARY KEY, due INTEGER NOT NULL, payload TEXT NOT NULL); CREATE INDEX plain_due ON plain (due)");
    const insert = db.prepare("INSERT INTO plain (id, due, payload) VALUES (?, ?, ?)");
    const remove = db.prepare("DELETE FROM plain WHERE id = ?");
    const payload = JSON.stringify({ type: "load.Fire", body: { n: 0 }, target: { context: "load", aggregate: "target", id: "x0" } });
    const insertBatch = db.transaction((from: number, to: number) => {
      for (let i = from; i < to; i++) insert.run(i, 1_000_000 + i, payload);
    });
    const deleteBatch = db.transaction((from: number, to: number) => {
      for (let i = from; i < to; i++) remove.run(i);
    });
    const t0 = performance.now();
    for (let i = 0; i < rows; i += BATCH) insertBatch(i, Math.min(rows, i + BATCH));
    const t1 = performance.now();
    for (let i = 0; i < rows; i += BATCH) deleteBatch(i, Math.min(rows, i + BATCH));
    const t2 = performance.now();
    db.close();
    return { rows_per_s: Math.round(rows / ((t2 - t0) / 1000)), insert_s: Math.round(t1 - t0) / 1000, delete_s: Math.round(t2 - t1) / 1000 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The WAL bounds compared (pages between automatic checkpoints). */
const WAL_BOUNDS = [1_000, 10_000, 100_000];

function walTradeoff(pages: number): { pages: number; decided_per_s: number; wal_peak_mb: number; crash_wal_mb: number; recovery_ms: number } {
  const tool = fileURLToPath(new URL("./tools/wal-tradeoff.ts", import.meta.url));
  const out = spawnSync(process.execPath, ["--import", "tsx", tool, String(pages), String(DUE)], { encoding: "utf8", maxBuffer: 16 << 20 });
  if (out.status !== 0) throw new Error(`wal-tradeoff ${pages} failed:\n${out.stderr}`);
  return JSON.parse(out.stdout.trim().split("\n").pop()!);
}

/** A whole host's delivery with the run log, metrics and logs on or off (tools/ops-overhead.ts). */
function opsOverhead(on: boolean): { decided_per_s: number; cpu_us_per_delivery: number } {
  const tool = fileURLToPath(new URL("./tools/ops-overhead.ts", import.meta.url));
  const out = spawnSync(process.execPath, ["--import", "tsx", tool, on ? "on" : "off", String(DUE)], { encoding: "utf8", maxBuffer: 16 << 20 });
  if (out.status !== 0) throw new Error(`ops-overhead ${on ? "on" : "off"} failed:\n${out.stderr}`);
  return JSON.parse(out.stdout.trim().split("\n").pop()!);
}

function runChild(args: string[]): unknown {
  const out = spawnSync(process.execPath, ["--import", "tsx", "--expose-gc", SELF, ...args], { encoding: "utf8", maxBuffer: 64 << 20 });
  if (out.status !== 0) throw new Error(`bench child ${args.join(" ")} failed:\n${out.stderr}\n${out.stdout}`);
  const lines = out.stdout.trim().split("\n");
  return JSON.parse(lines[lines.length - 1]!);
}

/** The PostgreSQL phases (100k and 1M pending) and pg-boss's drain, alternated, `runs` times each. */
function postgresRuns(runs: number): { small: PhaseResult; large: PhaseResult; boss: PgBossResult; bossRuns: number[] } {
  const smalls: PhaseResult[] = [];
  const larges: PhaseResult[] = [];
  const bosses: PgBossResult[] = [];
  for (let r = 0; r < runs; r++) {
    smalls.push(runChild(["--phase", String(DUE), "postgres"]) as PhaseResult);
    bosses.push(runChild(["--pgboss", String(DUE)]) as PgBossResult);
    larges.push(runChild(["--phase", String(1_000_000), "postgres"]) as PhaseResult);
  }
  const perS = bosses.map((b) => b.per_s);
  const boss = bosses.find((b) => b.per_s === median(perS))!;
  return { small: medianPhase(smalls), large: medianPhase(larges), boss, bossRuns: perS };
}

/** Each figure's median over the runs of a phase. */
function medianPhase(results: readonly PhaseResult[]): PhaseResult {
  const keys = Object.keys(results[0]!) as (keyof PhaseResult)[];
  return Object.fromEntries(keys.map((key) => [key, median(results.map((r) => r[key]))])) as unknown as PhaseResult;
}

async function main(): Promise<void> {
  const arg = process.argv[2];
  if (arg === "--phase") {
    console.log(JSON.stringify(await phase(Number(process.argv[3]), (process.argv[4] ?? "sqlite") as StoreKind)));
    return;
  }
  if (arg === "--pgboss") {
    console.log(JSON.stringify(await pgbossDrain(Number(process.argv[3]), SPREAD_MS)));
    return;
  }
  if (arg === "--ceiling") {
    console.log(JSON.stringify(ceiling(Number(process.argv[3]))));
    return;
  }
  const runs = argument("runs", 3);
  const onPostgres = option("store", ["sqlite", "postgres"], "sqlite") === "postgres";
  console.log(
    `timers bench: ${DUE} timers due within ${SPREAD_MS} ms on SQLite, target ids ${SCATTER ? "scattered" : "in due order"}; poll ${POLL_MS} ms, batch ${BATCH}; medians of ${runs} runs of each phase, alternated`,
  );
  const smalls: PhaseResult[] = [];
  const larges: PhaseResult[] = [];
  for (let r = 0; r < runs; r++) {
    smalls.push(runChild(["--phase", String(DUE)]) as PhaseResult);
    larges.push(runChild(["--phase", String(1_000_000)]) as PhaseResult);
  }
  const small = medianPhase(smalls);
  const large = medianPhase(larges);
  const ceil = runChild(["--ceiling", String(DUE)]) as ReturnType<typeof ceiling>;
  const opsOn: ReturnType<typeof opsOverhead>[] = [];
  const opsOff: ReturnType<typeof opsOverhead>[] = [];
  for (let r = 0; r < runs; r++) {
    opsOff.push(opsOverhead(false));
    opsOn.push(opsOverhead(true));
  }
  const opsOnPerS = median(opsOn.map((o) => o.decided_per_s));
  const opsOffPerS = median(opsOff.map((o) => o.decided_per_s));
  const wal = WAL_BOUNDS.map((pages) => walTradeoff(pages));
  const rows = [
    ["pending timers", small.pending, large.pending],
    ["seeding (s)", small.seed_s, large.seed_s],
    ["decided", small.decided, large.decided],
    ["decided deliveries/s (wall, first due → last decided)", small.decided_per_s, large.decided_per_s],
    ["deliveries/s of poller busy time", small.busy_per_s, large.busy_per_s],
    ["process CPU per delivery (µs)", small.cpu_us_per_delivery, large.cpu_us_per_delivery],
    ["lateness p50 (ms)", small.lateness_p50_ms, large.lateness_p50_ms],
    ["lateness p99 (ms)", small.lateness_p99_ms, large.lateness_p99_ms],
    ["lateness max (ms)", small.lateness_max_ms, large.lateness_max_ms],
    ["heap before delivery (MB)", small.heap_base_mb, large.heap_base_mb],
    ["heap peak while delivering (MB)", small.heap_peak_mb, large.heap_peak_mb],
    ["live heap peak: after each full GC while delivering (MB)", small.live_heap_peak_mb, large.live_heap_peak_mb],
    ["rss peak (MB)", small.rss_peak_mb, large.rss_peak_mb],
    ["lateness p99 of each run (ms)", smalls.map((p) => p.lateness_p99_ms).join("/"), larges.map((p) => p.lateness_p99_ms).join("/")],
    ["heap peak of each run (MB)", smalls.map((p) => p.heap_peak_mb).join("/"), larges.map((p) => p.heap_peak_mb).join("/")],
  ];
  for (const [label, a, b] of rows) console.log(`${String(label).padEnd(56)} ${String(a).padStart(10)} ${String(b).padStart(10)}`);
  console.log(`ceiling: ${DUE} plain rows inserted + deleted in batches of ${BATCH}: ${ceil.rows_per_s} rows/s (insert ${ceil.insert_s} s, delete ${ceil.delete_s} s)`);
  console.log(`whole host (createHost), run log + metrics + logs on: ${opsOnPerS} decided/s (${opsOn.map((o) => o.decided_per_s).join("/")}), off: ${opsOffPerS} (${opsOff.map((o) => o.decided_per_s).join("/")}); ratio ${(opsOnPerS / opsOffPerS).toFixed(3)}; CPU per delivery ${median(opsOn.map((o) => o.cpu_us_per_delivery))} vs ${median(opsOff.map((o) => o.cpu_us_per_delivery))} µs`);
  console.log("WAL bound (checkpoint every N pages; 10,000 is the default): a burst's cost, and a crash image's WAL and recovery");
  console.log("| pages | decided/s | WAL peak in the burst (MB) | WAL of a crash image after 130 MB of commits (MB) | recovery at start (ms) |");
  for (const w of wal) console.log(`| ${w.pages} | ${w.decided_per_s} | ${w.wal_peak_mb} | ${w.crash_wal_mb} | ${w.recovery_ms} |`);
  const postgres = onPostgres ? postgresRuns(runs) : undefined;
  if (postgres !== undefined) {
    const { small: pg, large: pg1m, boss } = postgres;
    console.log(`PostgreSQL (${POSTGRES_BENCH_URL.replace(/:[^:@/]*@/, ":***@")}, synchronous_commit ${boss.synchronous_commit}): the same ${DUE} timers`);
    const pgRows = [
      ["pending timers", pg.pending, pg1m.pending],
      ["seeding (s)", pg.seed_s, pg1m.seed_s],
      ["decided", pg.decided, pg1m.decided],
      ["decided deliveries/s (wall, first due → last decided)", pg.decided_per_s, pg1m.decided_per_s],
      ["process CPU per delivery (µs)", pg.cpu_us_per_delivery, pg1m.cpu_us_per_delivery],
      ["lateness p50 (ms)", pg.lateness_p50_ms, pg1m.lateness_p50_ms],
      ["lateness p99 (ms)", pg.lateness_p99_ms, pg1m.lateness_p99_ms],
      ["heap peak while delivering (MB)", pg.heap_peak_mb, pg1m.heap_peak_mb],
      ["live heap peak: after each full GC while delivering (MB)", pg.live_heap_peak_mb, pg1m.live_heap_peak_mb],
    ];
    for (const [label, a, b] of pgRows) console.log(`${String(label).padEnd(56)} ${String(a).padStart(10)} ${String(b).padStart(10)}`);
    console.log(`pg-boss 10.4.2, the same ${DUE} delayed jobs, fetch/complete batch ${boss.batch}, each handler inserting its idempotency key: ${boss.per_s} jobs/s (each run ${postgres.bossRuns.join("/")}), lateness p50 ${boss.lateness_p50_ms} ms, p99 ${boss.lateness_p99_ms} ms`);
    console.log(`wowc on PostgreSQL / pg-boss: ${(pg.decided_per_s / boss.per_s).toFixed(2)}×; wowc on SQLite: ${small.decided_per_s} decided/s`);
  }
  const result = {
    runs,
    decided_per_s: small.decided_per_s,
    busy_per_s: small.busy_per_s,
    cpu_us_per_delivery: small.cpu_us_per_delivery,
    lateness_p50_ms: small.lateness_p50_ms,
    lateness_p99_ms: small.lateness_p99_ms,
    lateness_max_ms: small.lateness_max_ms,
    poll_interval_ms: POLL_MS,
    due_spread_ms: SPREAD_MS,
    target_ids: SCATTER ? "scattered" : "due_order",
    page_size: PAGE_SIZE ?? "default",
    timers: DUE,
    heap_peak_mb_100k: small.heap_peak_mb,
    heap_peak_mb_1m: large.heap_peak_mb,
    live_heap_peak_mb_100k: small.live_heap_peak_mb,
    live_heap_peak_mb_1m: large.live_heap_peak_mb,
    decided_per_s_1m: large.decided_per_s,
    lateness_p99_ms_1m: large.lateness_p99_ms,
    lateness_p99_ms_runs: smalls.map((p) => p.lateness_p99_ms),
    lateness_p99_ms_1m_runs: larges.map((p) => p.lateness_p99_ms),
    ceiling_rows_per_s: ceil.rows_per_s,
    ratio_to_ceiling: Math.round((small.busy_per_s / ceil.rows_per_s) * 1000) / 1000,
    wal_tradeoff: wal,
    ops_on_per_s: opsOnPerS,
    ops_off_per_s: opsOffPerS,
    ops_ratio: Math.round((opsOnPerS / opsOffPerS) * 1000) / 1000,
    ops_cpu_ratio: Math.round((median(opsOff.map((o) => o.cpu_us_per_delivery)) / median(opsOn.map((o) => o.cpu_us_per_delivery))) * 1000) / 1000,
  };
  if (postgres === undefined) {
    console.log(JSON.stringify(result));
    return;
  }
  // On PostgreSQL the heap keys are PostgreSQL's (SQLite's keep theirs under a sqlite_ prefix).
  const { small: pg, large: pg1m, boss } = postgres;
  console.log(
    JSON.stringify({
      ...result,
      store: "postgres",
      sqlite_heap_peak_mb_100k: small.heap_peak_mb,
      sqlite_heap_peak_mb_1m: large.heap_peak_mb,
      pg_decided_per_s: pg.decided_per_s,
      pgboss_per_s: boss.per_s,
      ratio_to_pgboss: Math.round((pg.decided_per_s / boss.per_s) * 100) / 100,
      sqlite_decided_per_s: small.decided_per_s,
      pg_lateness_p50_ms: pg.lateness_p50_ms,
      pg_lateness_p99_ms: pg.lateness_p99_ms,
      pgboss_lateness_p99_ms: boss.lateness_p99_ms,
      heap_peak_mb_100k: pg.heap_peak_mb,
      heap_peak_mb_1m: pg1m.heap_peak_mb,
      pg_live_heap_peak_mb_100k: pg.live_heap_peak_mb,
      pg_live_heap_peak_mb_1m: pg1m.live_heap_peak_mb,
      pg_decided_per_s_1m: pg1m.decided_per_s,
      synchronous_commit: boss.synchronous_commit,
    }),
  );
}

await main();
