// Headless Chromium for the console's tests: Debian's /usr/bin/chromium driven by playwright-core,
// with no network of its own and a fresh profile per launch. Without the binary the suites are
// skipped with one line (WOW_REQUIRE_BROWSER=1 makes that a failure, as in CI).
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";

const ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

/** Whether the browser suites run; says once, in one line, why not. */
export function browserAvailable(): boolean {
  if (existsSync(CHROMIUM)) return true;
  if (process.env["WOW_REQUIRE_BROWSER"] === "1") throw new Error(`WOW_REQUIRE_BROWSER=1 but ${CHROMIUM} is missing: install Debian's chromium package (apt-get install -y chromium)`);
  console.warn(`browser tests skipped: ${CHROMIUM} is missing (apt-get install -y chromium to run them; WOW_REQUIRE_BROWSER=1 fails instead)`);
  return false;
}

/** A fresh Chromium profile (`--user-data-dir`), in the viewer's zone given. */
export async function launch(timezoneId: string): Promise<BrowserContext> {
  const profile = mkdtempSync(join(tmpdir(), "wowc-chromium-"));
  return chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ARGS, timezoneId, viewport: { width: 1280, height: 900 }, offline: false });
}

/** Where a flow's screenshots go (a temporary folder, named in the test's output). */
export const SHOTS = mkdtempSync(join(tmpdir(), "wowc-console-shots-"));

export async function shot(page: Page, name: string): Promise<string> {
  const path = join(SHOTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

export interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly nodes: readonly { readonly target: readonly string[] }[];
}

/** axe-core's serious and critical violations on the page as it is (the script evaluated over DevTools, beside the page's CSP). */
export async function seriousViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE);
  const violations = (await page.evaluate(async () => (await (window as unknown as { axe: { run(): Promise<{ violations: unknown[] }> } }).axe.run()).violations)) as AxeViolation[];
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

/** Width and height of a PNG, from its header. */
export function pngSize(path: string): { width: number; height: number; bytes: number } {
  const png = readFileSync(path);
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20), bytes: png.length };
}

/** How many distinct colours an image has, and the share of its pixels that are not its most common one: decoded by the browser. */
export async function imageSpread(context: BrowserContext, png: Buffer): Promise<{ colours: number; inked: number }> {
  const page = await context.newPage();
  try {
    const file = join(SHOTS, "spread.html");
    writeFileSync(file, "<!doctype html><title>spread</title>");
    await page.goto(`file://${file}`);
    return await page.evaluate(async (data) => {
      const image = new Image();
      image.src = `data:image/png;base64,${data}`;
      await image.decode();
      const canvas = document.createElement("canvas");
      canvas.width = image.width;
      canvas.height = image.height;
      const g = canvas.getContext("2d")!;
      g.drawImage(image, 0, 0);
      const pixels = g.getImageData(0, 0, image.width, image.height).data;
      const counts = new Map<number, number>();
      for (let i = 0; i < pixels.length; i += 4) {
        const key = (pixels[i]! << 16) | (pixels[i + 1]! << 8) | pixels[i + 2]!;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      const top = Math.max(...counts.values());
      const total = pixels.length / 4;
      return { colours: counts.size, inked: (total - top) / total };
    }, png.toString("base64"));
  } finally {
    await page.close();
  }
}
