// The README's main command, end to end: `npm run example` builds the package and the example, runs
// the e-shop host on SQLite and plays its tour on the real clock; then the same tour on PostgreSQL
// (WOW_STORE__URL), in a schema of the test's own.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { postgresUrl, testSchema } from "../support/postgres.js";

// The tour's store goes to a directory of the test's own, not into the example.
const dir = mkdtempSync(join(tmpdir(), "wowc-example-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The tour's timeline (from its first line), checked as the README shows it. */
function expectTour(stdout: string): void {
  const tour = stdout.slice(stdout.indexOf("▶ host up"));
  expect(tour).toMatch(/schedule\/receive-deliveries\s+job enabled: \{"expression":"\*\/3 \* \* \* \* \*"/);
  expect(tour).toMatch(/Order\/order-A\s+schedules CancelOrder under 'payment-grace-period'/);
  expect(tour).toMatch(/Order\/order-B\s+OrderPaid/);
  expect(tour).toMatch(/Order\/order-B\s+cancels its schedule 'payment-grace-period'/);
  expect(tour).toMatch(/schedule\/receive-deliveries\s+job tick: slot \d+, skipped 0/);
  expect(tour).toMatch(/Order\/order-A\s+OrderCancelled \{"reason":"PAYMENT_TIMEOUT"\}/);
  expect(tour).not.toMatch(/Order\/order-B\s+OrderCancelled/);
  expect(tour).toContain("order A is CANCELLED (its scheduled CancelOrder), order B is PAID");
  expect(tour).toContain("tour complete");
  // The tour itself (after the build) takes a few seconds of real time.
  const seconds = [...tour.matchAll(/^\+\s*([\d.]+)s/gm)].map((m) => Number(m[1]));
  expect(Math.max(...seconds)).toBeLessThan(15);
}

it("npm run example plays the tour: order A cancelled by its scheduled command, order B paid, the job receives stock", () => {
  const started = Date.now();
  const run = spawnSync("npm", ["run", "example"], { cwd: process.cwd(), encoding: "utf8", timeout: 240_000, env: { ...process.env, FORCE_COLOR: "0", WOW_STORE__PATH: join(dir, "eshop.db") } });
  const output = `${run.stdout}\n${run.stderr}`;
  expect(run.status, output).toBe(0);
  expectTour(run.stdout);
  expect(run.stdout).toContain(`(store ${join(dir, "eshop.db")})`);
  expect(Date.now() - started).toBeLessThan(240_000);
}, 250_000);

const PG_URL = postgresUrl();

// After the run above built the example: its app alone, as `WOW_STORE__URL=… npm run example` runs it.
it.skipIf(PG_URL === undefined)("the same tour on PostgreSQL (WOW_STORE__URL)", () => {
  const schema = testSchema(PG_URL!);
  const run = spawnSync(process.execPath, ["--import", "tsx", "examples/eshop/app/main.ts"], {
    cwd: process.cwd(),
    encoding: "utf8",
    timeout: 120_000,
    env: { ...process.env, FORCE_COLOR: "0", WOW_STORE__URL: PG_URL!, WOW_STORE__SCHEMA: schema },
  });
  const output = `${run.stdout}\n${run.stderr}`;
  expect(run.status, output).toBe(0);
  expectTour(run.stdout);
  expect(run.stdout).toContain(`(store postgres ${PG_URL!} schema ${schema})`);
}, 130_000);
