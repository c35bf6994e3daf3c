// The operator console in real headless Chromium against a host on 127.0.0.1: sign-in and tenant
// isolation, and each action an operator takes (trigger, reschedule, disable and enable, re-drive,
// backfill) seen through to its effect. Each flow leaves a screenshot; axe-core finds no serious or
// critical violation on any page.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BrowserContext, Page } from "playwright-core";
import { aggregateRef, commandMessage, ScheduleRule, SystemCommands } from "../../runtime/index.js";
import { browserAvailable, imageSpread, launch, pngSize, seriousViolations, shot, SHOTS } from "./browser.js";
import { ACME, buildConsole, consoleHost, GLOBEX, OPERATOR, sensor, type ConsoleHost } from "./console-host.js";

const run = browserAvailable();

describe.skipIf(!run)("the operator console in Chromium", () => {
  let h: ConsoleHost;
  let browser: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    h = await consoleHost(await buildConsole());
    // Two tenants with the TENANT job, in Paris time; the viewer reads UTC.
    for (const token of [ACME, GLOBEX]) {
      const r = await fetch(`${h.base}/shop/schedule/report/wow.schedule.enable`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify({ expression: "0 30 * * * *", zone: "Europe/Paris" }) });
      expect(r.status).toBe(200);
    }
    browser = await launch("UTC");
    page = await browser.newPage();
    console.log(`console screenshots: ${SHOTS}`);
  });

  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  async function signIn(token: string): Promise<void> {
    await page.goto(h.console);
    await page.getByLabel("Credential").fill(token);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: /^Overview/ }).waitFor();
  }

  async function signOut(): Promise<void> {
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("heading", { name: /Sign in/ }).waitFor();
  }

  async function open(hash: string): Promise<void> {
    await page.goto(`${h.console}#${hash}`);
  }

  it("refuses a wrong credential, and keeps a tenant's credential to its tenant's jobs: another tenant's job is not found", async () => {
    await page.goto(h.console);
    await page.getByLabel("Credential").fill("not-a-known-credential-000");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect.poll(() => page.getByRole("alert").textContent()).toContain("not known to the host");
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    await shot(page, "sign-in-refused");

    await signIn(ACME);
    expect(await page.getByTestId("who").textContent()).toBe("Tenant acme");
    await open("/jobs");
    const table = page.getByTestId("jobs-table");
    await table.waitFor();
    const tenants = await table.locator("tbody tr td:nth-child(3)").allTextContents();
    expect(tenants).toEqual(["acme"]);
    // The next fire times in the job's zone (Paris) and in the viewer's (UTC, this browser's).
    const fires = (await table.locator("tbody tr td:nth-child(7) li").first().textContent()) ?? "";
    expect(fires).toMatch(/:30:00 (CET|CEST|GMT\+\d) \(Europe\/Paris\) · \d{4}-\d\d-\d\d \d\d:30:00 UTC$/);
    await shot(page, "tenant-jobs");
    await open("/jobs/shop/report?tenant=globex");
    await page.getByRole("heading", { name: "Not found" }).waitFor();
    const text = (await page.locator("main").textContent()) ?? "";
    expect(text).not.toContain("0 30 * * * *");
    expect(text).not.toContain("Europe/Paris");
    await shot(page, "tenant-other-job-not-found");
    await signOut();
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
  });

  it("shows the overview with its counts, this host and the last hour's lateness as a chart", async () => {
    // Deliveries to chart: readings scheduled now, delivered by the poller.
    sensor.down = false;
    const dial = aggregateRef("shop", "Gauge", "dial-1");
    await h.host.send(commandMessage("shop.Install", {}, dial));
    for (const key of ["a", "b", "c"]) await h.host.send(commandMessage(SystemCommands.ScheduleCommand, { key, rule: ScheduleRule.after(0), command: { type: "shop.Read", body: {} } }, dial));
    await expect.poll(async () => (await h.host.store.events.load(dial)).events.filter((e) => e.type === "shop.ReadingTaken").length, { timeout: 10_000 }).toBe(3);
    await signIn(OPERATOR);
    await page.getByTestId("lateness-chart").waitFor();
    expect(await page.getByTestId("host-id").textContent()).toBe(h.host.ops.host);
    expect(await page.getByTestId("count-Jobs enabled").textContent()).toBe("3");
    const path = await shot(page, "overview");
    const size = pngSize(path);
    expect(size.width).toBe(1280);
    expect(size.height).toBeGreaterThanOrEqual(700);
    expect(size.bytes).toBeGreaterThan(20_000);
    // The chart rendered: a line of sixty minutes, drawn in more than its background.
    expect(await page.locator("path.chart-p95").getAttribute("data-points")).toBe("60");
    expect(((await page.locator("path.chart-p95").getAttribute("d")) ?? "").split(/[ML]/).filter((p) => p.trim() !== "")).toHaveLength(60);
    const spread = await imageSpread(browser, await page.getByTestId("lateness-chart").screenshot());
    expect(spread.colours).toBeGreaterThan(8);
    expect(spread.inked).toBeGreaterThan(0.02);
  });

  it("triggers a job and shows the run in its run log with its outcome", async () => {
    await open("/jobs/shop/receive?tenant=(0)");
    await page.getByRole("button", { name: "Trigger now" }).click();
    await expect.poll(() => page.getByTestId("notice").textContent()).toContain("Triggered now: decided");
    const manual = page.getByTestId("runs-table").locator('tbody tr[data-kind="manual"]');
    await expect.poll(() => manual.count(), { timeout: 10_000 }).toBeGreaterThan(0);
    expect(await manual.first().getAttribute("data-outcome")).toBe("succeeded");
    expect(await manual.first().textContent()).toContain("succeeded");
    await shot(page, "trigger");
  });

  it("shows a five-field cron's error inline and sends nothing; previews a valid rule, and the next run changes", async () => {
    await open("/jobs/shop/receive?tenant=(0)");
    const before = await page.getByTestId("next-fires").textContent();
    const sent: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes("wow.schedule.reschedule")) sent.push(request.url());
    });
    await page.getByLabel(/Cron rule/).fill("*/5 * * * *");
    await expect.poll(() => page.getByTestId("rule-error").textContent()).toContain("six fields");
    // The button says it is not ready (aria-disabled); Enter in the field submits the form all the same.
    expect(await page.getByRole("button", { name: "Reschedule" }).getAttribute("aria-disabled")).toBe("true");
    await page.getByLabel(/Cron rule/).press("Enter");
    await page.getByText("nothing was sent").waitFor();
    expect(sent).toEqual([]);
    await shot(page, "reschedule-refused");
    await page.getByLabel(/Cron rule/).fill("0 */5 * * * *");
    const preview = page.getByTestId("rule-preview");
    await expect.poll(() => preview.locator("li").count()).toBe(5);
    expect(await preview.textContent()).toContain("every 5 minutes");
    await page.getByRole("button", { name: "Reschedule" }).click();
    await expect.poll(() => page.getByTestId("notice").textContent()).toContain("Rescheduled: decided");
    expect(sent).toHaveLength(1);
    await expect.poll(() => page.getByTestId("rule").textContent()).toBe("0 */5 * * * *");
    const after = await page.getByTestId("next-fires").textContent();
    expect(after).not.toBe(before);
    const first = (await page.getByTestId("next-fires").locator("li").first().textContent()) ?? "";
    expect(first).toMatch(/:[0-5][05]:00 UTC/);
    await shot(page, "reschedule");
  });

  it("disables with a note, shows the note, and enables again", async () => {
    await open("/jobs/shop/receive?tenant=(0)");
    await page.getByLabel("Note").fill("supplier maintenance until Monday");
    await page.getByRole("button", { name: "Disable" }).click();
    await expect.poll(() => page.getByTestId("paused-note").textContent().catch(() => "")).toBe("“supplier maintenance until Monday”");
    expect(await page.getByTestId("job-state").textContent()).toContain("Paused");
    await shot(page, "disabled-with-note");
    await open("/jobs?state=paused");
    await expect.poll(() => page.getByTestId("jobs-table").locator("tbody").textContent()).toContain("supplier maintenance until Monday");
    await open("/jobs/shop/receive?tenant=(0)");
    await page.getByRole("button", { name: "Enable" }).click();
    await expect.poll(() => page.getByTestId("job-state").textContent()).toContain("Enabled");
    await shot(page, "enabled-again");
  });

  it("re-drives a parked timer and shows it delivered", async () => {
    sensor.down = true;
    const dial = aggregateRef("shop", "Gauge", "dial-2");
    await h.host.send(commandMessage("shop.Install", {}, dial));
    await h.host.send(commandMessage(SystemCommands.ScheduleCommand, { key: "reading", rule: ScheduleRule.after(0), command: { type: "shop.Read", body: {} } }, dial));
    await expect.poll(async () => (await h.host.store.timers.list({ status: "parked" })).length, { timeout: 10_000 }).toBe(1);
    await open("/parked");
    const row = page.getByTestId("parked-timers").locator("tbody tr").first();
    await expect.poll(() => row.textContent()).toContain("the gauge's sensor does not answer");
    // An operator's credential sees the stack behind the first line.
    expect(await row.locator("pre.stack").textContent()).toContain("at readSensor");
    sensor.down = false;
    await row.getByRole("button", { name: /^Re-drive/ }).click();
    await expect.poll(() => row.getByTestId("redrive-result").textContent(), { timeout: 15_000 }).toContain("re-driven: delivered");
    expect((await h.host.store.events.load(dial)).events.some((e) => e.type === "shop.ReadingTaken")).toBe(true);
    await shot(page, "redrive");
  });

  it("backfills a range and shows one run per slot", async () => {
    await open("/jobs/shop/report?tenant=acme");
    await page.getByRole("heading", { name: /Job report/ }).waitFor();
    // Three slots of "0 30 * * * *" (Paris time: :30 of every hour) in the three hours before the last one.
    const hour = Math.floor(Date.now() / 3_600_000) * 3_600_000;
    const local = (ms: number) => new Date(ms).toISOString().slice(0, 19); // the viewer reads UTC
    await page.getByLabel("From", { exact: true }).fill(local(hour - 4 * 3_600_000));
    await page.getByLabel("To", { exact: true }).fill(local(hour - 3_600_000));
    await page.getByRole("button", { name: "Backfill" }).click();
    await expect.poll(() => page.getByTestId("notice").textContent()).toContain("Backfill asked: decided");
    await page.getByLabel("Outcome or kind").selectOption("backfill");
    await page.getByRole("button", { name: "Filter" }).click();
    const rows = page.getByTestId("runs-table").locator('tbody tr[data-kind="backfill"]');
    await expect.poll(async () => {
      await page.getByRole("button", { name: "Refresh" }).click();
      return rows.count();
    }, { timeout: 15_000 }).toBe(3);
    const dues = await rows.locator("td:nth-child(2)").allTextContents();
    expect(new Set(dues).size).toBe(3);
    for (const due of dues) expect(due).toMatch(/:30:00 UTC$/);
    await shot(page, "backfill");
  });

  it("shows a tenant's credential its parked timers without stacks, and re-drives a selection", async () => {
    sensor.down = true;
    for (const id of ["dial-a1", "dial-a2"]) {
      const dial = aggregateRef("shop", "Gauge", id, "acme");
      await h.host.send(commandMessage("shop.Install", {}, dial));
      await h.host.send(commandMessage(SystemCommands.ScheduleCommand, { key: "reading", rule: ScheduleRule.after(0), command: { type: "shop.Read", body: {} } }, dial));
    }
    await expect.poll(async () => (await h.host.store.timers.list({ status: "parked", tenantId: "acme" })).length, { timeout: 10_000 }).toBe(2);
    await signOut();
    await signIn(ACME);
    await open("/parked");
    const rows = page.getByTestId("parked-timers").locator("tbody tr");
    await expect.poll(() => rows.count()).toBe(2);
    const text = (await page.getByTestId("parked-timers").textContent()) ?? "";
    expect(text).toContain("the gauge's sensor does not answer");
    expect(text).not.toContain("at readSensor");
    expect(await page.locator("pre.stack").count()).toBe(0);
    sensor.down = false;
    for (const box of await rows.getByRole("checkbox").all()) await box.check();
    await page.getByRole("button", { name: "Re-drive selected (2)" }).first().click();
    for (let i = 0; i < 2; i++) await expect.poll(() => rows.nth(i).getByTestId("redrive-result").textContent(), { timeout: 15_000 }).toContain("re-driven: delivered");
    await shot(page, "redrive-selection-tenant");
    await signOut();
    await signIn(OPERATOR);
  });

  it("has no serious or critical accessibility violation on any page (axe-core)", async () => {
    const pages = ["/overview", "/jobs", "/jobs/shop/receive?tenant=(0)", "/runs/shop/receive?tenant=(0)", "/timers", "/parked", "/aggregate", "/aggregate/shop/Gauge/(0)/dial-2"];
    const found: Record<string, string[]> = {};
    for (const hash of pages) {
      await open(hash);
      await page.locator("main h1").first().waitFor();
      await page.waitForLoadState("networkidle");
      found[hash] = await seriousViolations(page);
    }
    await signOut();
    found["sign-in"] = await seriousViolations(page);
    expect(found).toEqual(Object.fromEntries(Object.keys(found).map((k) => [k, []])));
    // The check sees what it is for: a field without a label, in low contrast, is reported.
    await page.evaluate(() => document.querySelector("main")!.insertAdjacentHTML("beforeend", '<input id="probe-field"><p style="color:#bbb;background:#fff">faint</p>'));
    expect((await seriousViolations(page)).join("\n")).toMatch(/label|color-contrast/);
    await page.evaluate(() => document.getElementById("probe-field")?.remove());
  });

  it("is reached with the keyboard alone: the skip link, the navigation, and a page's controls", async () => {
    await signIn(OPERATOR);
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Skip to the page");
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Overview");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "Jobs" }).waitFor();
    await signOut();
  });
});
