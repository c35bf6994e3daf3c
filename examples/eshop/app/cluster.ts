// The e-shop tour on two hosts sharing the machine's PostgreSQL (a schema of the tour's own, dropped
// first): both serve; order A is created through host-A, order B through host-B; host-A is killed
// (SIGKILL) in the middle; host-B takes its partitions over when its lease ends and finishes the tour:
// order A cancelled by its scheduled command, order B paid, the job receiving stock. The timeline says
// which host delivered each scheduled command, from the database's delivery log.
//   npm run example:cluster   (EXAMPLE_STORE_URL, default postgres://127.0.0.1:5432/test)
import { spawn, type ChildProcess } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { PostgresStore, type EventMessage } from "wowc/runtime";
import { dropSchema, redactedUrl } from "./postgres.js";
import { GRACE_PERIOD } from "./services.js";
import { Timeline } from "./timeline.js";
import { orderStatus, TENANT } from "./tour.js";

const here = dirname(fileURLToPath(import.meta.url));
const url = process.env["EXAMPLE_STORE_URL"] ?? "postgres://127.0.0.1:5432/test";
const schema = "eshop_cluster_example";
const TOKEN = "eshop-operator-token-change-me";

await dropSchema(url, schema);
const reader = new PostgresStore({ url, schema, pool: 2 });
const withUser = new URL(url);
if (withUser.username === "") withUser.username = process.env["PGUSER"] ?? process.env["USER"] ?? "postgres";
const db = new pg.Pool({ connectionString: withUser.toString(), max: 2 });

interface Running {
  readonly id: string;
  readonly child: ChildProcess;
  readonly base: string;
}

function startHost(id: string): Promise<Running> {
  const child = spawn(process.execPath, ["--import", "tsx", join(here, "cluster-host.ts"), id], { stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, EXAMPLE_STORE_URL: url, EXAMPLE_STORE_SCHEMA: schema } });
  return new Promise((resolve, reject) => {
    let output = "";
    child.stdout!.on("data", (d) => {
      output += d;
      const serving = /serving (\d+)/.exec(output);
      if (serving) resolve({ id, child, base: `http://127.0.0.1:${serving[1]}` });
    });
    child.on("exit", (code) => reject(new Error(`${id} exited with ${code}: ${output}`)));
  });
}

async function call(host: Running, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Record<string, unknown>> {
  const response = await fetch(host.base + path, { method, headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json", ...headers }, body: body === undefined ? null : JSON.stringify(body) });
  const json = (await response.json()) as Record<string, unknown>;
  if (!response.ok) throw new Error(`${method} ${path} on ${host.id} → ${response.status} ${JSON.stringify(json)}`);
  return json;
}

/** Which host delivered a scheduled command (its request id is `<timer>#<slot>`), from the delivery log. */
async function deliveredBy(event: EventMessage): Promise<string | undefined> {
  const slot = /^(.*)#(\d+)$/.exec(event.requestId ?? "");
  if (slot === null) return undefined;
  const { rows } = await db.query<{ data: string }>(`SELECT data FROM "${schema}".wow_timer_attempts WHERE timer = $1`, [slot[1]]);
  const attempt = rows.map((r) => JSON.parse(r.data) as { slot: number; host: string; outcome: string }).find((a) => a.slot === Number(slot[2]) && a.outcome === "decided");
  return attempt?.host;
}

interface HostsView {
  readonly hosts: readonly { readonly id: string; readonly partitions: readonly number[] }[];
  readonly unowned: readonly number[];
}

async function hostsView(via: Running): Promise<HostsView> {
  return (await call(via, "GET", "/wow/hosts")) as unknown as HostsView;
}

async function hosts(via: Running): Promise<string> {
  const view = await hostsView(via);
  return `${view.hosts.map((h) => `${h.id} owns [${h.partitions.join(",")}]`).join(", ")}${view.unowned.length > 0 ? `, unowned [${view.unowned.join(",")}]` : ""}`;
}


const timeline = new Timeline(reader.events, deliveredBy);

const running: Running[] = [];
try {
  timeline.say(`two hosts on ${redactedUrl(url)} schema ${schema}; heartbeat 500ms, lease 3s, 4 partitions; payment grace period ${GRACE_PERIOD}`);
  const a = await startHost("host-A");
  running.push(a);
  const b = await startHost("host-B");
  running.push(b);
  await timeline.until("both hosts owning their share", async () => {
    const view = await hostsView(a);
    return view.hosts.length === 2 && view.hosts.every((h) => h.partitions.length === 2);
  }, 10_000);
  timeline.say(`GET /wow/hosts: ${await hosts(a)}`);

  const orders = `/eshop-order/tenant/${encodeURIComponent(TENANT)}/order`;
  const stocks = `/eshop-inventory/tenant/${encodeURIComponent(TENANT)}/stock`;
  timeline.say("stock arrives through host-A: 5 mugs, 5 caps");
  await call(a, "PUT", `${stocks}/mug/receive_stock`, { quantity: 5 });
  await call(a, "PUT", `${stocks}/cap/receive_stock`, { quantity: 5 });
  timeline.say("order A through host-A: 2 mugs (nobody will pay it)");
  await call(a, "POST", `${orders}/create_order`, { items: [{ productId: "mug", quantity: 2 }] }, { "Command-Aggregate-Id": "order-A" });
  timeline.say("order B through host-B: 1 cap (paid in time)");
  await call(b, "POST", `${orders}/create_order`, { items: [{ productId: "cap", quantity: 1 }] }, { "Command-Aggregate-Id": "order-B" });
  await timeline.until("both orders' stock confirmed", async () => (await orderStatus(reader.events, "order-A")) === "AWAITING_PAYMENT" && (await orderStatus(reader.events, "order-B")) === "AWAITING_PAYMENT", 10_000);
  timeline.say("order B is paid through host-B");
  await call(b, "PUT", `${orders}/order-B/pay_order`, { amount: 19.9 });
  await timeline.flush();

  timeline.say("host-A is killed (SIGKILL): no goodbye, its leases run out in 3 s");
  a.child.kill("SIGKILL");
  running.splice(running.indexOf(a), 1);
  const killedAt = Date.now();
  let tookOver: number | undefined;
  await timeline.until(
    "host-B owning every partition, order A cancelled by its scheduled command, and the job receiving stock after the kill",
    async () => {
      if (tookOver === undefined && (await hosts(b)) === "host-B owns [0,1,2,3]") {
        tookOver = Date.now() - killedAt;
        timeline.say(`takeover: ${await hosts(b)}, ${tookOver} ms after the kill`);
      }
      const events = await reader.events.read(0, 10_000);
      const tickAfter = events.find((e) => e.type === "wow.schedule.Ticked" && e.createdAt > killedAt)?.position ?? Infinity;
      const received = events.some((e) => e.type === "eshop-inventory.StockReceived" && e.position! > tickAfter);
      return tookOver !== undefined && (await orderStatus(reader.events, "order-A")) === "CANCELLED" && received;
    },
    20_000,
  );
  const statusA = await orderStatus(reader.events, "order-A");
  const statusB = await orderStatus(reader.events, "order-B");
  timeline.say(`order A is ${statusA}, order B is ${statusB}; host-B finished the tour alone`);
  if (statusA !== "CANCELLED" || statusB !== "PAID") throw new Error(`unexpected end state: A ${statusA}, B ${statusB}`);
  timeline.say("tour complete");
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  for (const host of running) host.child.kill("SIGTERM");
  await Promise.all(running.map((h) => new Promise((r) => h.child.once("exit", r))));
  await reader.close();
  await db.end();
  await dropSchema(url, schema);
}
