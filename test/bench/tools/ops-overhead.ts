// The cost of operations on delivery, for bench:timers: a burst of timers delivered by a whole host
// (createHost on SQLite) with the run log (each attempt recorded), metrics and logs (info) on, or all
// three off. One line of JSON: decided deliveries per second and process CPU per delivery.
//   npx tsx test/bench/tools/ops-overhead.ts <on|off> <timers>
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SEED, burstSeeds, seeder, target } from "../../runtime/fixtures/timer-domain.js";

const { createHost, aggregateRef, commandMessage, systemClock } = (await import(new URL("../../../dist/runtime/index.js", import.meta.url).href)) as typeof import("../../../runtime/index.js");

const on = process.argv[2] === "on";
const timers = Number(process.argv[3] ?? 100_000);
const dir = mkdtempSync(join(tmpdir(), "wowc-ops-"));
try {
  let offset = 0;
  const clock = { now: () => Date.now() + offset, sleep: systemClock.sleep };
  let delivered = 0;
  let lastAt = 0;
  let done!: () => void;
  const finished = new Promise<void>((resolve) => (done = resolve));
  const config = {
    wow: {
      schedules: {},
      timers: { "poll-interval": "1s", "max-attempts": 10 },
      runs: { enabled: on && process.env.OPS_RUNS !== "0" },
      metrics: { enabled: on && process.env.OPS_METRICS !== "0" },
      log: { level: on ? "info" : "silent" },
    },
  } as const;
  const host = createHost({
    registrations: [seeder, target(() => clock.now())],
    store: join(dir, "store.db"),
    clock,
    config: config as never,
    onDelivery: () => {
      lastAt = clock.now();
      if (++delivered === timers) done();
    },
  });
  const base = Date.now() + 3_600_000;
  for (const { seederId, body } of burstSeeds(timers, timers, base, 4_000, false)) await host.send(commandMessage(SEED, body, aggregateRef("load", "seeder", seederId)));
  await host.store.idle?.();
  offset = base - 200 - Date.now();
  const cpu0 = process.cpuUsage();
  await host.start();
  await finished;
  const cpu = process.cpuUsage(cpu0);
  await host.close();
  console.log(JSON.stringify({ ops: on ? "on" : "off", decided_per_s: Math.round(timers / ((lastAt - base) / 1000)), cpu_us_per_delivery: Math.round(((cpu.user + cpu.system) / timers) * 10) / 10 }));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
