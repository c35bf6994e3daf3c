// A tool for comparing builds of the timer path, not a bench (the figures of issue 4 come from
// `npm run bench:timers`). It drains timers as fast as the host can, with no arrival pattern, so a
// change's cost per delivery can be compared build against build:
//   seed <db> <due> [pending]   writes a journal (with dist/) of <pending> timers, <due> of them due
//                               (as bench:timers seeds them; WOW_BENCH_SCATTER=1 for scattered target ids)
//   drain <dist> <db>           copies the journal and drains every due timer with the runtime in <dist>;
//                               prints CPU and wall µs per delivery as JSON.
// With WARM=1, `drain` delivers the first half, writes /tmp/timer-drain-ready-<pid> and waits for
// /tmp/timer-drain-go-<pid> before the measured second half: timer-instructions.sh zeroes callgrind's
// counters in between, for instruction counts free of start-up and JIT warm-up.
import { copyFileSync, existsSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { SEED, burstSeeds, seeder, target } from "../../runtime/fixtures/timer-domain.js";

const [mode, a, b, c] = process.argv.slice(2);
const dist = resolve(mode === "seed" ? "dist" : a!);
const rt = (await import(join(dist, "runtime/index.js"))) as typeof import("../../../runtime/index.js");
const BASE = 1_000_000_000_000;
let now = BASE - 3_600_000;
const clock = { now: () => now, sleep: rt.systemClock.sleep };

if (mode === "seed") {
  const path = resolve(a!);
  const due = Number(b);
  const pending = Number(c ?? b);
  for (const suffix of ["", "-wal", "-shm", ".store-id"]) rmSync(path + suffix, { force: true });
  const journal = new rt.SqliteStore(path);
  const host = new rt.Host({ store: journal, aggregates: [seeder, target(clock.now)], clock });
  for (const { seederId, body } of burstSeeds(pending, due, BASE, 4000, process.env.WOW_BENCH_SCATTER === "1")) {
    const result = await host.send(rt.commandMessage(SEED, body, rt.aggregateRef("load", "seeder", seederId)));
    if (result.outcome !== "decided") throw new Error(`seed failed: ${result.errorCode}`);
  }
  await journal.idle();
  await journal.close();
} else if (mode === "drain") {
  const copy = `/tmp/timer-drain-${process.pid}.db`;
  copyFileSync(resolve(b!), copy);
  const journal = new rt.SqliteStore(copy);
  let delivered = 0;
  const host = new rt.Host({ store: journal, aggregates: [seeder, target(clock.now)], clock, timers: { pollInterval: 1000, batchSize: Number(process.env.BATCH ?? 1000) }, onDelivery: () => void delivered++ });
  if (process.env.WARM === "1") {
    now = BASE + 2000;
    await host.timers.drain();
    writeFileSync(`/tmp/timer-drain-ready-${process.pid}`, "");
    while (!existsSync(`/tmp/timer-drain-go-${process.pid}`)) await new Promise((r) => setTimeout(r, 50));
    delivered = 0;
  }
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  now = BASE + 5000;
  await host.timers.drain();
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  await journal.close();
  for (const suffix of ["", "-wal", "-shm", ".store-id"]) rmSync(copy + suffix, { force: true });
  console.log(JSON.stringify({ dist: a, delivered, cpu_us: +((cpu.user + cpu.system) / delivered).toFixed(2), wall_us: +((wall * 1000) / delivered).toFixed(2) }));
} else {
  throw new Error("usage: timer-drain.ts seed <db> <due> [pending] | drain <dist> <db>");
}
