// `npm run bench:send`: the online path's cost while a host runs. Commands sent one after another
// (an order created, then its stock confirmed, which schedules its payment deadline) on a SQLite host
// whose loops run (timers, subscriptions, jobs) against the same host with its loops stopped, in the
// same run, alternating, each on a fresh file. The ratio is what running the loops costs the path.
// Prints a table, then (last line) one JSON object.
import { execSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { argument, median } from "./bench-args.js";

if (!existsSync("dist/runtime/index.js")) execSync("npm run build", { stdio: "inherit" });
if (!existsSync("examples/eshop/generated/wow-manifest.json")) execSync("node dist/compiler/cli/main.js build examples/eshop", { stdio: "inherit" });

const { createHost, commandMessage, aggregateRef } = await import("wowc/runtime");
const { order } = await import("../../examples/eshop/src/index.js");

const ORDERS = argument("orders", 200);
const ROUNDS = argument("rounds", 7);

/** Per-command milliseconds of `ORDERS` orders (create + confirm each) on a fresh host, running or not. */
async function round(running: boolean): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), "wowc-send-bench-"));
  const host = createHost({ registrations: [order], store: join(dir, "store.db"), services: { "eshop-order.PaymentPolicy": { gracePeriod: "15m" } } });
  if (running) await host.start();
  try {
    const started = process.hrtime.bigint();
    for (let i = 0; i < ORDERS; i++) {
      const ref = aggregateRef("eshop-order", "Order", `o-${i}`);
      const created = await host.send(commandMessage("eshop-order.CreateOrder", { items: [{ productId: "mug", quantity: 1 }] }, ref));
      const confirmed = await host.send(commandMessage("eshop-order.ConfirmOrderStock", { productId: "mug" }, ref));
      if (!created.succeeded || !confirmed.succeeded || !confirmed.events.some((e) => e.type === "wow.ScheduleSet")) throw new Error("a command was not decided as expected");
    }
    return Number(process.hrtime.bigint() - started) / 1e6 / (2 * ORDERS);
  } finally {
    await host.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await round(true); // warm-up (JIT, SQLite)
await round(false);
const runningMs: number[] = [];
const stoppedMs: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  runningMs.push(await round(true));
  stoppedMs.push(await round(false));
}
const running_ms_per_command = Number(median(runningMs).toFixed(4));
const stopped_ms_per_command = Number(median(stoppedMs).toFixed(4));
const ratio = Number((running_ms_per_command / stopped_ms_per_command).toFixed(3));
const show = (values: number[]) => values.map((v) => v.toFixed(3)).join(", ");
console.log(`${ORDERS} orders (create + confirm, the confirmation sets a timer) sent one after another, SQLite, ${ROUNDS} rounds each (median), alternating`);
console.log("| host | ms per command (median) | rounds |");
console.log("| --- | ---: | --- |");
console.log(`| running (timers, subscriptions, jobs) | ${running_ms_per_command} | ${show(runningMs)} |`);
console.log(`| loops stopped | ${stopped_ms_per_command} | ${show(stoppedMs)} |`);
console.log(JSON.stringify({ running_ms_per_command, stopped_ms_per_command, ratio, orders: ORDERS, rounds: ROUNDS }));
