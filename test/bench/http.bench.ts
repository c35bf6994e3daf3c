// `npm run bench:http`: commands per second through the HTTP route of the e-shop example
// (`PUT /eshop-inventory/tenant/(0)/stock/{id}/receive_stock`, bearer credential, body validated
// against the manifest) against the same commands sent in-process (`host.send`), in the same run, on
// the same SQLite journal kind, with the same concurrency. The ratio is the HTTP overhead.
// Needs the built package and the example's generated SDK (built here when missing).
// Prints a table, then (last line) one JSON object.
import { execSync } from "node:child_process";
import { Agent, createServer, request } from "node:http";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { median } from "./bench-args.js";

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

const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
const BODY = '{"quantity":1}';

/** One keep-alive request with node:http (lighter than fetch, so the client costs less of the shared CPU). */
function put(port: number, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      { agent, host: "127.0.0.1", port, method: "PUT", path, headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json", "content-length": BODY.length } },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end(BODY);
  });
}

function portOf(server: import("node:http").Server): number {
  const address = server.address();
  return typeof address === "object" && address ? address.port : 0;
}

async function overHttp(): Promise<number> {
  const { host, close } = await fresh();
  const port = portOf(await host.listen(0));
  const rate = await run(async (i) => {
    const status = await put(port, `/eshop-inventory/tenant/(0)/stock/p-${i % PRODUCTS}/receive_stock`);
    if (status !== 200) throw new Error(`HTTP command failed: ${status}`);
  });
  await close();
  return rate;
}

/** The ceiling of this machine: the same requests to a server that answers `{}` without doing anything. */
async function plainHttp(): Promise<number> {
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => res.end("{}"));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = portOf(server);
  const rate = await run(async (i) => void (await put(port, `/eshop-inventory/tenant/(0)/stock/p-${i % PRODUCTS}/receive_stock`)));
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return rate;
}

const httpRates: number[] = [];
const inProcessRates: number[] = [];
const plainRates: number[] = [];
await inProcess(); // warm-up (JIT, SQLite)
for (let round = 0; round < ROUNDS; round++) {
  inProcessRates.push(await inProcess());
  httpRates.push(await overHttp());
  plainRates.push(await plainHttp());
}
agent.destroy();
const plain_http_per_s = Math.round(median(plainRates));
const http_per_s = Math.round(median(httpRates));
const in_process_per_s = Math.round(median(inProcessRates));
const ratio = Number((http_per_s / in_process_per_s).toFixed(3));
console.log(`commands: ${COMMANDS} per round, concurrency ${CONCURRENCY}, ${ROUNDS} rounds (median), SQLite journal, keep-alive node:http client on 127.0.0.1, client and server in one process`);
console.log("| path | commands/s (median) | rounds |");
console.log("| --- | ---: | --- |");
console.log(`| in-process host.send | ${in_process_per_s} | ${inProcessRates.map(Math.round).join(", ")} |`);
console.log(`| HTTP PUT …/receive_stock | ${http_per_s} | ${httpRates.map(Math.round).join(", ")} |`);
console.log(`| HTTP, empty server (the client's and socket's ceiling) | ${plain_http_per_s} | ${plainRates.map(Math.round).join(", ")} |`);
console.log(JSON.stringify({ http_per_s, in_process_per_s, ratio, plain_http_per_s, commands: COMMANDS, concurrency: CONCURRENCY, rounds: ROUNDS }));
