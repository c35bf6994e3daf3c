// `npm run bench:console`: the operator console with 10,000 job instances and 1,000,000 pending timers
// in a SQLite store. In headless Chromium, the time from opening the jobs page to its table being
// interactive (rows drawn, a job's link focusable), and the time each list call the page made took
// (resource timing); against, in the same run, `GET /wow/jobs` of the same page of the same data called
// straight (the page's cost over the API's). Also each list call's round trip on 127.0.0.1 with the
// million timers: the first page, by key, by aggregate id, by tenant, by command type, parked, the
// overview. `--jobs N --timers N --runs N` (defaults 10000, 1000000, 3) make a smoke run smaller.
// Prints a table, then (last line) one JSON object.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execSync } from "node:child_process";
import { argument, median } from "./bench-args.js";
import { browserAvailable, launch } from "../browser/browser.js";
import { order, probe, receiveJob, shopSaga, stock, suppliers } from "../runtime/sagas/saga-domain.js";

if (!existsSync("dist/runtime/index.js") || !existsSync("dist/console/manifest.json")) execSync("npm run build", { stdio: "inherit" });
const { createHost, SqliteStore, JobCommands, aggregateRef, commandMessage, refKey } = (await import(new URL("../../dist/runtime/index.js", import.meta.url).href)) as typeof import("../../runtime/index.js");

const JOBS = argument("jobs", 10_000);
const TIMERS = argument("timers", 1_000_000);
const RUNS = argument("runs", 3);
const TOKEN = "bench-operator-token-0123456789";
const TENANTS = 1000;
if (!browserAvailable()) process.exit(1);

const dir = mkdtempSync(join(tmpdir(), "wowc-bench-console-"));
const store = new SqliteStore(join(dir, "console.db"));

// A million pending timers, written straight into the table (what a million ScheduleSet commits leave):
// due over the next 30 days, owned by stocks of 1,000 tenants, under a few keys and command types.
const seedStart = performance.now();
const now = Date.now();
const insert = store.db.prepare("INSERT INTO wow_timers (id, owner, tenant_id, aggregate_id, key, spec, command_type, slot, due, fire_at) VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?)");
store.db.transaction(() => {
  for (let i = 0; i < TIMERS; i++) {
    const due = now + 3_600_000 + Math.floor((i * 2_592_000_000) / TIMERS);
    const ref = aggregateRef("shop", "Stock", `s-${i}`, `t-${i % TENANTS}`);
    const command = i % 10 === 0 ? "shop.Release" : "shop.Receive";
    const spec = JSON.stringify({ rule: { kind: "at", at: due }, command: { type: command, body: { quantity: 1 } }, causation: { version: 1, commandId: `c-${i}` } });
    insert.run(`timer-${String(i).padStart(8, "0")}`, refKey(ref), ref.tenantId, ref.id, i % 7 === 0 ? "restock" : `hold:${i % 100}`, spec, command, due, due);
  }
})();
const seedTimersS = (performance.now() - seedStart) / 1000;

const host = createHost({
  registrations: [order, stock, shopSaga(probe(), [receiveJob({ name: "report", function: "report", subscription: "ShopSaga.report", scope: "TENANT" })])],
  store,
  services: { "shop.Suppliers": suppliers },
  http: { credentials: [{ token: TOKEN }] },
  config: { wow: { log: { level: "silent" } } } as never,
});
await host.start();
// 10,000 job instances: the TENANT job enabled in as many tenants, each with its own rule.
const jobsStart = performance.now();
for (let i = 0; i < JOBS; i++) {
  const ref = aggregateRef("shop", "schedule", "report", `tenant-${String(i).padStart(5, "0")}`);
  const r = await host.send(commandMessage(JobCommands.Enable, { expression: `0 ${i % 60} * * * *`, zone: i % 2 === 0 ? "UTC" : "Europe/Paris" }, ref));
  if (r.outcome !== "decided") throw new Error(`enable failed: ${r.errorCode} ${r.errorMsg}`);
  await store.subscriptions.rememberInstance(ref);
}
const seedJobsS = (performance.now() - jobsStart) / 1000;
const server = await host.listen(0);
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

async function timed(path: string): Promise<number> {
  const start = performance.now();
  const response = await fetch(base + path, { headers: { authorization: `Bearer ${TOKEN}` } });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
  return performance.now() - start;
}

const PAGE_CALL = "/wow/jobs?limit=50&fires=5";
const LISTS: readonly [string, string][] = [
  ["jobs, first page (the page's call)", PAGE_CALL],
  ["jobs, a tenant's", "/wow/jobs?tenant=tenant-04242&fires=5"],
  ["jobs, text search", "/wow/jobs?q=tenant-0999&limit=50&fires=5"],
  ["timers, first page", "/wow/timers?limit=50"],
  ["timers by key", "/wow/timers?key=restock&limit=50"],
  ["timers by aggregate id", `/wow/timers?aggregate=s-${Math.floor(TIMERS / 2)}&limit=50`],
  ["timers by tenant", "/wow/timers?tenant=t-7&limit=50"],
  ["timers by command type", "/wow/timers?command=shop.Release&limit=50"],
  ["parked timers and events", "/wow/parked?limit=50"],
  ["overview counts", "/wow/overview"],
];
// Warm once (statements prepared, zone tables built), then measure.
for (const [, path] of LISTS) await timed(path);
const listMs = new Map<string, number[]>();
for (let r = 0; r < RUNS; r++) for (const [label, path] of LISTS) listMs.set(label, [...(listMs.get(label) ?? []), await timed(path)]);

const browser = await launch("UTC");
const page = await browser.newPage();
await page.goto(`${base}/wow/console/`);
await page.getByLabel("Credential").fill(TOKEN);
await page.getByRole("button", { name: "Sign in" }).click();
await page.getByRole("heading", { name: /^Overview/ }).waitFor({ timeout: 120_000 });
const pageMs: number[] = [];
const pageCalls = new Map<string, number[]>();
for (let r = 0; r < RUNS + 1; r++) {
  await page.goto("about:blank");
  const start = performance.now();
  await page.goto(`${base}/wow/console/#/jobs`);
  // Interactive: the rows are drawn and a job's link takes the focus.
  const link = page.getByTestId("jobs-table").locator("tbody tr td:nth-child(2) a").first();
  await link.waitFor({ timeout: 120_000 });
  await link.focus();
  const elapsed = performance.now() - start;
  const calls = (await page.evaluate(() => performance.getEntriesByType("resource").filter((e) => e.name.includes("/wow/") && !e.name.includes("/wow/console/")).map((e) => [new URL(e.name).pathname, e.duration] as const))) as [string, number][];
  if (r === 0) continue; // the first load fills the browser's cache of the bundle
  pageMs.push(elapsed);
  for (const [path, ms] of calls) pageCalls.set(path, [...(pageCalls.get(path) ?? []), ms]);
}
const rows = await page.getByTestId("jobs-table").locator("tbody tr").count();
await browser.close();
await host.close();
await store.close();
rmSync(dir, { recursive: true, force: true });

const round = (ms: number) => Math.round(ms * 10) / 10;
const jobs_page_ms = round(median(pageMs));
const api_list_ms = round(median(listMs.get(LISTS[0]![0])!));
console.log(`console bench: ${JOBS} job instances, ${TIMERS} pending timers (SQLite), ${RUNS} runs, medians; seeding ${seedTimersS.toFixed(1)} s (timers) + ${seedJobsS.toFixed(1)} s (jobs)`);
console.log(`${"measure".padEnd(52)} ${"ms".padStart(10)}`);
console.log(`${"jobs page: open to table interactive (Chromium)".padEnd(52)} ${String(jobs_page_ms).padStart(10)}`);
for (const [path, ms] of pageCalls) console.log(`${`  the page's call ${path}`.padEnd(52)} ${String(round(median(ms))).padStart(10)}`);
for (const [label, ms] of listMs) console.log(`${`GET ${label}`.padEnd(52)} ${String(round(median(ms))).padStart(10)}`);
console.log(`${"rows in the jobs table (a page)".padEnd(52)} ${String(rows).padStart(10)}`);
console.log(
  JSON.stringify({
    jobs_page_ms,
    api_list_ms,
    ratio: Number((jobs_page_ms / api_list_ms).toFixed(2)),
    page_calls_ms: Object.fromEntries([...pageCalls].map(([path, ms]) => [path, round(median(ms))])),
    list_ms: Object.fromEntries([...listMs].map(([label, ms]) => [label, round(median(ms))])),
    jobs: JOBS,
    timers: TIMERS,
    runs: RUNS,
  }),
);
