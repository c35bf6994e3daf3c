// `npm run bench:virtual-time`: what virtual time costs in the test kit. The e-shop (orders, stock, the
// stock saga and its daily `receive-deliveries` job) on a virtual clock: a 30-day `advanceTime` (30
// job ticks, each receiving stock, plus orders confirmed, paid or cancelled by their deadlines) against a
// 1-hour advance of the same spec in the same run. Reports real milliseconds per virtual day.
// Prints a table, then (last line) one JSON object.
import { execSync } from "node:child_process";
import { existsSync } from "node:fs";
import { argument, median } from "./bench-args.js";

if (!existsSync("dist/runtime/index.js")) execSync("npm run build", { stdio: "inherit" });
if (!existsSync("examples/eshop/generated/wow-manifest.json")) execSync("node dist/compiler/cli/main.js build examples/eshop", { stdio: "inherit" });

const { aggregateRef, commandMessage } = await import("wowc/runtime");
const { scheduleSpec } = await import("wowc/testing");
const { order, stock, stockSaga } = await import("../../examples/eshop/src/index.js");

const ROUNDS = argument("rounds", 5);
const ORDERS = argument("orders", 20);
const DAYS = 30;

function spec() {
  return scheduleSpec({
    aggregates: [order, stock],
    sagas: [stockSaga],
    start: "2026-10-01T00:00:00Z",
    services: {
      "eshop-order.PaymentPolicy": { gracePeriod: "15m" },
      "eshop-inventory.Deliveries": { deliveredOn: async () => [{ productId: "mug", quantity: 40 }] },
    },
  });
}

/** Real ms of one advance; `orders` orders placed first (each reserved by the saga, its deadline 15 minutes on). */
async function measure(duration: string): Promise<{ ms: number; ticks: number; sent: number }> {
  const s = spec();
  await s.send(commandMessage("eshop-inventory.ReceiveStock", { quantity: 1_000 }, aggregateRef("eshop-inventory", "Stock", "mug")));
  for (let i = 0; i < ORDERS; i++) {
    await s.send(commandMessage("eshop-order.CreateOrder", { items: [{ productId: "mug", quantity: 1 }] }, aggregateRef("eshop-order", "Order", `o-${i}`)));
  }
  const started = process.hrtime.bigint();
  const sent = await s.advanceTime(duration);
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  await s.stop();
  return { ms, ticks: s.derived.length, sent: sent.length };
}

await measure("1d"); // warm-up
const hourMs: number[] = [];
const monthMs: number[] = [];
let ticks = 0;
let sent = 0;
for (let r = 0; r < ROUNDS; r++) {
  hourMs.push((await measure("1h")).ms);
  const month = await measure(`${DAYS}d`);
  monthMs.push(month.ms);
  ticks = month.ticks;
  sent = month.sent;
}
const ms_per_virtual_day = Number((median(monthMs) / DAYS).toFixed(2));
const ms_per_virtual_hour = Number(median(hourMs).toFixed(2));
console.log(`the e-shop on a virtual clock (${ORDERS} orders, the daily receive-deliveries job, the stock saga), ${ROUNDS} rounds (median)`);
console.log("| advance | real ms (median) | rounds |");
console.log("| --- | ---: | --- |");
console.log(`| 1 hour | ${ms_per_virtual_hour} | ${hourMs.map((v) => v.toFixed(1)).join(", ")} |`);
console.log(`| ${DAYS} days | ${median(monthMs).toFixed(1)} | ${monthMs.map((v) => v.toFixed(1)).join(", ")} |`);
console.log(`| per virtual day | ${ms_per_virtual_day} | |`);
console.log(JSON.stringify({ ms_per_virtual_day, ms_per_virtual_hour, ratio_day_to_hour: Number((ms_per_virtual_day / ms_per_virtual_hour).toFixed(3)), ticks, scheduled_sent: sent, days: DAYS, rounds: ROUNDS }));
