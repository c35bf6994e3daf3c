// The e-shop as a running host on SQLite, and a scripted tour on the real clock:
//   1. order A: created, its stock confirmed; nobody pays: its scheduled CancelOrder cancels it;
//   2. order B: created, confirmed, paid in time: it stays paid (its deadline is cancelled);
//   3. the `receive-deliveries` job (every 3 s here, see wow.config.json) ticks and receives stock.
// Commands go through the HTTP API, as a client would send them.
import { mkdirSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createHost } from "wowc/runtime";
import { loadConfig } from "../generated/index.js";
import { order, stock, stockSaga } from "../src/index.js";
import { GRACE_PERIOD, tourServices } from "./services.js";
import { Timeline } from "./timeline.js";
import { orderStatus, TENANT } from "./tour.js";
import { dropSchema, redactedUrl } from "./postgres.js";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..");

const loaded = loadConfig({ cwd: root });
// Each tour starts on a new store: on PostgreSQL (WOW_STORE__URL=postgres://…) in a schema of the
// example's own (WOW_STORE__SCHEMA, default eshop_example), dropped first; else a SQLite file relative to
// the example (WOW_STORE__PATH may name one elsewhere), removed first.
const url = loaded.wow.store?.url;
const config = url === undefined ? loaded : { ...loaded, wow: { ...loaded.wow, store: { url, ...loaded.wow.store, schema: loaded.wow.store?.schema ?? "eshop_example" } } };
let store: string;
if (url !== undefined) {
  await dropSchema(url, config.wow.store!.schema!);
  store = url;
} else {
  store = resolve(root, config.wow.store?.path ?? "data/eshop.db");
  mkdirSync(dirname(store), { recursive: true });
  for (const suffix of ["", "-wal", "-shm", ".store-id"]) rmSync(store + suffix, { force: true });
}

const services = tourServices();

// Command bodies arriving over HTTP are checked against the JSON Schemas the generated registrations
// carry, and decoded to the SDK's types (an ISO-8601 instant to epoch ms, "15m" to ms, a null optional to absent).
const host = createHost({ registrations: [order, stock, stockSaga], store, config, services });
const timeline = new Timeline(host.store.events);
const server = await host.listen(0);
const address = server.address();
const base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
const token = config.wow.http?.credentials?.[0]?.token ?? "";

async function call(method: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Record<string, unknown>> {
  const response = await fetch(base + path, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...headers },
    body: method === "GET" ? null : JSON.stringify(body),
  });
  const json = (await response.json()) as Record<string, unknown>;
  if (!response.ok) throw new Error(`${method} ${path} → ${response.status} ${JSON.stringify(json)}`);
  return json;
}

const orders = `/eshop-order/tenant/${encodeURIComponent(TENANT)}/order`;
const stocks = `/eshop-inventory/tenant/${encodeURIComponent(TENANT)}/stock`;



let ticksWithStock = 0;
try {
  timeline.say(`host up on ${base} (store ${url === undefined ? config.wow.store?.path : `${host.store.kind} ${redactedUrl(url)} schema ${config.wow.store!.schema}`}); payment grace period ${GRACE_PERIOD}; receive-deliveries: '${config.wow.schedules["receive-deliveries"].expression}'`);
  await host.start();
  await timeline.flush();

  timeline.say("stock arrives: 5 mugs, 5 caps");
  await call("PUT", `${stocks}/mug/receive_stock`, { quantity: 5 });
  await call("PUT", `${stocks}/cap/receive_stock`, { quantity: 5 });
  await timeline.flush();

  timeline.say("order A: 2 mugs (nobody will pay it)");
  await call("POST", `${orders}/create_order`, { items: [{ productId: "mug", quantity: 2 }] }, { "Command-Aggregate-Id": "order-A" });
  timeline.say("order B: 1 cap (paid in time)");
  await call("POST", `${orders}/create_order`, { items: [{ productId: "cap", quantity: 1 }] }, { "Command-Aggregate-Id": "order-B" });
  await timeline.until("both orders' stock confirmed", async () => (await orderStatus(host.store.events, "order-A")) === "AWAITING_PAYMENT" && (await orderStatus(host.store.events, "order-B")) === "AWAITING_PAYMENT", 5_000);

  timeline.say("order B is paid");
  await call("PUT", `${orders}/order-B/pay_order`, { amount: 19.9 });
  await timeline.flush();

  timeline.say(`waiting for order A's payment grace period (${GRACE_PERIOD}) and a job tick…`);
  await timeline.until(
    "order A cancelled by its scheduled command, and a delivery received by the job",
    async () => {
      const events = await host.store.events.read(0, 10_000);
      const firstTick = events.find((e) => e.type === "wow.schedule.Ticked")?.position ?? Infinity;
      const received = events.filter((e) => e.type === "eshop-inventory.StockReceived" && e.position! > firstTick).length;
      ticksWithStock = received;
      return (await orderStatus(host.store.events, "order-A")) === "CANCELLED" && received > 0;
    },
    10_000,
  );

  const jobs = (await call("GET", "/wow/jobs", undefined)) as { jobs: { id: string; rule: { expression: string }; nextFireTimes: string[]; lastRun?: { outcome: string; durationMs: number } }[] };
  const job = jobs.jobs[0]!;
  const runs = (await call("GET", `/wow/jobs/${job.id}/runs`, undefined)) as { runs: { slot: number; outcome: string }[] };
  const last = job.lastRun ? `last run ${job.lastRun.outcome} in ${job.lastRun.durationMs} ms` : "no run yet";
  timeline.say(`GET /wow/jobs: ${job.id} '${job.rule.expression}', ${last}, ${runs.runs.length} run(s) in its run log, next at ${job.nextFireTimes[0]?.slice(11, 23)}`);
  const a = await orderStatus(host.store.events, "order-A");
  const b = await orderStatus(host.store.events, "order-B");
  timeline.say(`order A is ${a} (its scheduled CancelOrder), order B is ${b}; ${ticksWithStock} stock receipt(s) from the job`);
  if (a !== "CANCELLED" || b !== "PAID") throw new Error(`unexpected end state: A ${a}, B ${b}`);
  timeline.say("tour complete");
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  await host.close();
}
