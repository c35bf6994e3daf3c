// `npm run bench:http`: commands per second through the HTTP route of the e-shop example
// (`PUT /eshop-inventory/tenant/(0)/stock/{id}/receive_stock`, bearer credential, body validated)
// against the same commands sent in-process (`host.send`) with the same concurrency, in the same run,
// on a fresh store each. The load comes from a client process of its own (as wrk would), so the
// server's process pays only the server's side; an empty node:http server under the same client gives
// the ceiling of the sockets and the client. The ratio HTTP / in-process (the median of each round's own ratio,
// the two measured one after the other) is the HTTP path's overhead.
// Also in each round: the route with the body schemas removed (what checking bodies costs), and with
// the run log, metrics and logs off (what operations cost).
// `--store postgres`: each round also serves the route (and sends in-process) on PostgreSQL
// (WOW_BENCH_POSTGRES_URL, a schema of its own per host, dropped after), next to SQLite.
// Prints a table, then (last line) one JSON object.
import { execFileSync, execSync, spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { median, option } from "./bench-args.js";
import { postgresBenchSchema, POSTGRES_BENCH_URL } from "./tools/postgres-bench.js";

if (!existsSync("dist/runtime/index.js")) execSync("npm run build", { stdio: "inherit" });
if (!existsSync("examples/eshop/generated/wow-manifest.json")) execSync("node dist/compiler/cli/main.js build examples/eshop", { stdio: "inherit" });

const { createHost, commandMessage, aggregateRef } = await import("wowc/runtime");
const { loadConfig } = await import("../../examples/eshop/generated/index.js");
const { order, stock, stockSaga } = await import("../../examples/eshop/src/index.js");

const COMMANDS = Number(process.env.WOW_BENCH_COMMANDS ?? 8_000);
const CONCURRENCY = Number(process.env.WOW_BENCH_CONCURRENCY ?? 32);
const ROUNDS = Number(process.env.WOW_BENCH_ROUNDS ?? 7);
const PRODUCTS = 256;
const TOKEN = "bench-operator-token-0123456789";
const LOAD = fileURLToPath(new URL("./tools/http-load.mjs", import.meta.url));
const PREFIX = "/eshop-inventory/tenant/(0)/stock";

/** `registration` without its commands' body schemas: bodies reach the handlers unchecked. */
function unchecked<R extends { commands: Record<string, object> }>(registration: R): R {
  return { ...registration, commands: Object.fromEntries(Object.entries(registration.commands).map(([type, { bodySchema: _schema, ...command }]: [string, { bodySchema?: unknown }]) => [type, command])) };
}

/** What a round's host runs with: body checks, and operations (run log, metrics, logs at info). */
interface Variant {
  readonly validate?: boolean;
  readonly ops?: boolean;
  /** The store: a fresh SQLite file (default), or a fresh schema on PostgreSQL. */
  readonly postgres?: boolean;
}

const ON_POSTGRES = option("store", ["sqlite", "postgres"], "sqlite") === "postgres";

async function fresh({ validate = true, ops = true, postgres = false }: Variant = {}) {
  const dir = mkdtempSync(join(tmpdir(), "wowc-http-bench-"));
  const schema = postgres ? await postgresBenchSchema("wow_bench_http") : undefined;
  const env: Record<string, string> = { WOW_SCHEDULES__RECEIVE_DELIVERIES__ENABLED: "false", WOW_LOG__LEVEL: ops ? "info" : "silent" };
  if (!ops) Object.assign(env, { WOW_RUNS__ENABLED: "false", WOW_METRICS__ENABLED: "false" });
  if (schema !== undefined) Object.assign(env, { WOW_STORE__URL: POSTGRES_BENCH_URL, WOW_STORE__SCHEMA: schema.name });
  const config = loadConfig({ cwd: "examples/eshop", env });
  const host = createHost({
    registrations: validate ? [order, stock, stockSaga] : [unchecked(order), unchecked(stock), stockSaga],
    ...(schema === undefined ? { store: join(dir, "store.db") } : {}),
    config,
    services: { "eshop-order.PaymentPolicy": { gracePeriod: "15m" }, "eshop-inventory.Deliveries": { deliveredOn: async () => [] } },
    http: { credentials: [{ token: TOKEN }] },
  });
  await host.start();
  return { host, close: async () => (await host.close(), rmSync(dir, { recursive: true, force: true }), await schema?.drop()) };
}

async function inProcess(variant: Variant = {}): Promise<number> {
  const { host, close } = await fresh(variant);
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < COMMANDS) {
        const i = next++;
        const result = await host.send(commandMessage("eshop-inventory.ReceiveStock", { quantity: 1 }, aggregateRef("eshop-inventory", "Stock", `p-${i % PRODUCTS}`)));
        if (!result.succeeded) throw new Error(`in-process command failed: ${result.errorCode}`);
      }
    }),
  );
  const rate = COMMANDS / (Number(process.hrtime.bigint() - started) / 1e9);
  await close();
  return rate;
}

function portOf(server: Server): number {
  const address = server.address();
  return typeof address === "object" && address ? address.port : 0;
}

/** Runs the client process against `port`; resolves with its rate (every answer must be `expected`). */
function load(port: number, expected: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [LOAD, String(port), String(COMMANDS), String(CONCURRENCY), TOKEN, PREFIX], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.on("error", reject);
    child.on("exit", (code) => {
      if (code !== 0) return reject(new Error(`the load process exited with ${code}`));
      const { per_s, statuses } = JSON.parse(out) as { per_s: number; statuses: Record<string, number> };
      if (statuses[String(expected)] !== COMMANDS) return reject(new Error(`unexpected statuses: ${JSON.stringify(statuses)}`));
      resolve(per_s);
    });
  });
}

async function overHttp(variant: Variant = {}): Promise<number> {
  const { host, close } = await fresh(variant);
  const rate = await load(portOf(await host.listen(0)), 200);
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
  const rate = await load(portOf(server), 200);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return rate;
}

execFileSync(process.execPath, ["--version"]); // the child's start is warm
const httpRates: number[] = [];
const uncheckedRates: number[] = [];
const opsOffRates: number[] = [];
const inProcessRates: number[] = [];
const plainRates: number[] = [];
const pgHttpRates: number[] = [];
const pgInProcessRates: number[] = [];
const checks = Boolean((stock.commands["eshop-inventory.ReceiveStock"] as { bodySchema?: object }).bodySchema);
await inProcess(); // warm-up (JIT, SQLite)
await overHttp();
if (ON_POSTGRES) await overHttp({ postgres: true });
for (let round = 0; round < ROUNDS; round++) {
  if (ON_POSTGRES) {
    pgInProcessRates.push(await inProcess({ postgres: true }));
    pgHttpRates.push(await overHttp({ postgres: true }));
  }
  inProcessRates.push(await inProcess());
  httpRates.push(await overHttp());
  uncheckedRates.push(await overHttp({ validate: false }));
  opsOffRates.push(await overHttp({ ops: false }));
  plainRates.push(await plainHttp());
}
const plain_http_per_s = Math.round(median(plainRates));
const http_per_s = Math.round(median(httpRates));
const in_process_per_s = Math.round(median(inProcessRates));
/** Each round's `a[i] / b[i]`: a round's paths run one after another, so they share the machine's mood. */
const roundRatios = (a: readonly number[], b: readonly number[]) => a.map((x, i) => x / b[i]!);
const pairRatio = (a: readonly number[], b: readonly number[]) => Number(median(roundRatios(a, b)).toFixed(3));
const ratio = pairRatio(httpRates, inProcessRates);
const unchecked_http_per_s = Math.round(median(uncheckedRates));
/** What checking bodies against their schemas costs the route (1: nothing). */
const validation_ratio = pairRatio(httpRates, uncheckedRates);
const ops_off_http_per_s = Math.round(median(opsOffRates));
/** What the run log, metrics and logs cost the route (1: nothing). */
const ops_ratio = pairRatio(httpRates, opsOffRates);
/** What the route would reach if its cost were node:http's plus the decision's, nothing more. */
const sum_model_per_s = Math.round(1 / (1 / in_process_per_s + 1 / plain_http_per_s));
console.log(`commands: ${COMMANDS} per round, concurrency ${CONCURRENCY}, ${ROUNDS} rounds (median), SQLite${ON_POSTGRES ? " and PostgreSQL" : ""}, keep-alive node:http client in its own process on 127.0.0.1`);
console.log("| path | commands/s (median) | rounds |");
console.log("| --- | ---: | --- |");
console.log(`| in-process host.send | ${in_process_per_s} | ${inProcessRates.map(Math.round).join(", ")} |`);
console.log(`| HTTP PUT …/receive_stock${checks ? ", body checked against its schema" : " (the registrations carry no body schema)"} | ${http_per_s} | ${httpRates.map(Math.round).join(", ")} |`);
console.log(`| HTTP PUT …/receive_stock, the body schemas removed | ${unchecked_http_per_s} | ${uncheckedRates.map(Math.round).join(", ")} |`);
console.log(`| HTTP PUT …/receive_stock, run log, metrics and logs off | ${ops_off_http_per_s} | ${opsOffRates.map(Math.round).join(", ")} |`);
console.log(`| HTTP, empty server (the client's and sockets' ceiling) | ${plain_http_per_s} | ${plainRates.map(Math.round).join(", ")} |`);
if (ON_POSTGRES) {
  console.log(`| PostgreSQL: in-process host.send | ${Math.round(median(pgInProcessRates))} | ${pgInProcessRates.map(Math.round).join(", ")} |`);
  console.log(`| PostgreSQL: HTTP PUT …/receive_stock | ${Math.round(median(pgHttpRates))} | ${pgHttpRates.map(Math.round).join(", ")} |`);
}
console.log(`| node:http's cost plus the decision's (1 / (1/in-process + 1/empty)) | ${sum_model_per_s} | |`);
console.log(`ratio HTTP / in-process: ${ratio} (median of the rounds' own ratios: ${roundRatios(httpRates, inProcessRates).map((r) => r.toFixed(2)).join(", ")})`);
const postgres = ON_POSTGRES
  ? { store: "postgres", pg_http_per_s: Math.round(median(pgHttpRates)), pg_in_process_per_s: Math.round(median(pgInProcessRates)), pg_ratio_to_sqlite: Number((median(pgHttpRates) / http_per_s).toFixed(3)) }
  : {};
console.log(JSON.stringify({ ...postgres, http_per_s, in_process_per_s, ratio, unchecked_http_per_s, validation_ratio, bodies_checked: checks, ops_off_http_per_s, ops_ratio, plain_http_per_s, sum_model_per_s, ratio_to_sum_model: Number((http_per_s / sum_model_per_s).toFixed(3)), commands: COMMANDS, concurrency: CONCURRENCY, rounds: ROUNDS }));
