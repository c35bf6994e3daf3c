// The WAL bound's trade-off, for bench:timers: with a checkpoint every `pages` WAL pages, what a burst
// of deliveries costs (decided/s, the WAL's peak size) and what a start after a crash costs (recovery
// reads the whole WAL: the time to open a crash image of the file and its WAL, the -shm gone).
//   npx tsx test/bench/tools/wal-tradeoff.ts <pages> <timers>   (one line of JSON)
import { copyFileSync, existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SEED, burstSeeds, seeder, target } from "../../runtime/fixtures/timer-domain.js";

const { Host, SqliteStore, aggregateRef, commandMessage } = (await import(new URL("../../../dist/runtime/index.js", import.meta.url).href)) as typeof import("../../../runtime/index.js");

const pages = Number(process.argv[2]);
const timers = Number(process.argv[3] ?? 100_000);
const dir = mkdtempSync(join(tmpdir(), "wowc-wal-"));
try {
  const path = join(dir, "store.db");
  const store = new SqliteStore(path, { walAutocheckpoint: pages });
  const base = Date.now() + 3_600_000;
  let offset = 0;
  const clock = { now: () => Date.now() + offset, sleep: (ms: number, signal?: AbortSignal) => new Promise<void>((r) => { const t = setTimeout(r, ms); signal?.addEventListener("abort", () => (clearTimeout(t), r()), { once: true }); }) };
  let delivered = 0;
  let walPeak = 0;
  let done!: () => void;
  const finished = new Promise<void>((r) => (done = r));
  const host = new Host({
    store,
    aggregates: [seeder, target(() => clock.now())],
    clock,
    timers: { pollInterval: 1_000 },
    onDelivery: () => {
      if (++delivered % 5_000 === 0 && existsSync(`${path}-wal`)) walPeak = Math.max(walPeak, statSync(`${path}-wal`).size);
      if (delivered === timers) done();
    },
  });
  for (const { seederId, body } of burstSeeds(timers, timers, base, 4_000, false)) await host.send(commandMessage(SEED, body, aggregateRef("load", "seeder", seederId)));
  await store.idle();
  offset = base - 200 - Date.now();
  const started = performance.now();
  host.start();
  await finished;
  const seconds = (performance.now() - started - 200) / 1000;
  await host.stop();
  await store.close();
  // A crash image of a store that wrote ~130 MB since it last rested (no idle checkpoint): the WAL holds
  // what the bound let pile up. Recovery at the next start reads it whole.
  const busy = join(dir, "busy.db");
  const writer = new SqliteStore(busy, { walAutocheckpoint: pages });
  const seeding = new Host({ store: writer, aggregates: [seeder, target(() => clock.now())], clock });
  for (let i = 0; i < 60; i++) await seeding.send(commandMessage(SEED, burstSeeds(2_000, 0, base, 1, false)[0]!.body, aggregateRef("load", "seeder", `late-${i}`)));
  const walBytes = statSync(`${busy}-wal`).size;
  const image = join(dir, "image.db");
  copyFileSync(busy, image);
  copyFileSync(`${busy}-wal`, `${image}-wal`);
  copyFileSync(`${busy}.store-id`, `${image}.store-id`);
  await writer.close();
  const t0 = performance.now();
  const recovered = new SqliteStore(image, { integrityCheck: false });
  await recovered.timers.nextDueAt();
  const recoveryMs = performance.now() - t0;
  await recovered.close();
  console.log(JSON.stringify({ pages, decided_per_s: Math.round(timers / seconds), wal_peak_mb: Math.round(walPeak / 1048576), crash_wal_mb: Math.round(walBytes / 1048576), recovery_ms: Math.round(recoveryMs) }));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
