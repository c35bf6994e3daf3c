// `npm run bench:http`: commands per second through the HTTP route of the e-shop example
// (`PUT /eshop-inventory/tenant/(0)/stock/{id}/receive_stock`, bearer credential, body validated
// against the manifest) against the same commands sent in-process (`host.send`), in the same run, on
// the same SQLite journal kind, with the same concurrency. The ratio is the HTTP overhead.
// Needs the built package and the example's generated SDK (built here when missing).
// Prints a table, then (last line) one JSON object.
import { execSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

if (!existsSync("dist/runtime/index.js")) execSync("npm run build", { stdio: "inherit" });
if (!existsSync("examples/eshop/generated/wow-manifest.json")) execSync("node dist/compiler/cli/main.js build examples/eshop", { stdio: "inherit" });

const { createHost, commandMessage, aggregateRef } = await import("wowc/runtime");
const { loadConfig } = await import("../../examples/eshop/generated/index.js");
const { order, stock, stockSaga } = await import("../../examples/eshop/src/index.js");
const manifest = (await import("../../examples/eshop/generated/wow-manifest.json", { with: { type: "json" } })).default;

const COMMANDS = Number(process.env.WOW_BENCH_COMMANDS ?? 4_000);
const CONCURRENCY = Number(process.env.WOW_BENCH_CONCURRENCY ?? 32);
const ROUNDS = Number(process.env.WOW_BENCH_ROUNDS ?? 3);
const PRODUCTS = 256;
const TOKEN = "bench-operator-token-0123456789";

async function fresh() {
  const dir = mkdtempSync(join(tmpdir(), "wowc-http-bench-"));
  const config = loadConfig({ cwd: "examples/eshop", env: { WOW_SCHEDULES__RECEIVE_DELIVERIES__ENABLED: "false" } });
  const host = createHost({
    registrations: [order, stock, stockSaga],
    store: join(dir, "journal.db"),
    config,
    services: { "eshop-order.PaymentPolicy": { gracePeriod: "15m" }, "eshop-inventory.Deliveries": { deliveredOn: async () => [] } },
    http: { credentials: [{ token: TOKEN }], manifest },
  });
  await host.start();
  return { host, close: async () => (await host.close(), rmSync(dir, { recursive: true, force: true })) };
}

async function run(send: (i: number) => Promise<void>): Promise<number> {
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < COMMANDS) await send(next++);
    }),
  );
  return COMMANDS / (Number(process.hrtime.bigint() - started) / 1e9);
}

async function inProcess(): Promise<number> {
  const { host, close } = await fresh();
  const rate = await run(async (i) => {
    const result = await host.send(commandMessage("eshop-inventory.ReceiveStock", { quantity: 1 }, aggregateRef("eshop-inventory", "Stock", `p-${i % PRODUCTS}`)));
    if (!result.succeeded) throw new Error(`in-process command failed: ${result.errorCode}`);
  });
  await close();
  return rate;
}

async function overHttp(): Promise<number> {
  const { host, close } = await fresh();
  const server = await host.listen(0);
  const address = server.address();
  const base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  const rate = await run(async (i) => {
    const response = await fetch(`${base}/eshop-inventory/tenant/(0)/stock/p-${i % PRODUCTS}/receive_stock`, {
      method: "PUT",
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
      body: '{"quantity":1}',
    });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`HTTP command failed: ${response.status}`);
  });
  await close();
  return rate;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const httpRates: number[] = [];
const inProcessRates: number[] = [];
await inProcess(); // warm-up (JIT, SQLite)
for (let round = 0; round < ROUNDS; round++) {
  inProcessRates.push(await inProcess());
  httpRates.push(await overHttp());
}
const http_per_s = Math.round(median(httpRates));
const in_process_per_s = Math.round(median(inProcessRates));
const ratio = Number((http_per_s / in_process_per_s).toFixed(3));
console.log(`commands: ${COMMANDS} per round, concurrency ${CONCURRENCY}, ${ROUNDS} rounds (median), SQLite journal, keep-alive fetch on 127.0.0.1`);
console.log("| path | commands/s (median) | rounds |");
console.log("| --- | ---: | --- |");
console.log(`| in-process host.send | ${in_process_per_s} | ${inProcessRates.map(Math.round).join(", ")} |`);
console.log(`| HTTP PUT …/receive_stock | ${http_per_s} | ${httpRates.map(Math.round).join(", ")} |`);
console.log(JSON.stringify({ http_per_s, in_process_per_s, ratio, commands: COMMANDS, concurrency: CONCURRENCY, rounds: ROUNDS }));
