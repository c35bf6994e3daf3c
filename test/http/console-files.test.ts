// The host serves the console's built files at wow.http.console.path without a credential (they hold
// no data), with a policy that lets them load nothing from elsewhere; the path moves or the console
// is turned off by configuration; a path that would hide the API's routes is refused.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createHost, MemoryStore, type WowHost } from "../../runtime/index.js";
import { checkConsolePath } from "../../runtime/http/console-files.js";
import { order } from "../runtime/sagas/saga-domain.js";

const TOKEN = "operator-token-0123456789";

/** A built console as Vite writes it: a page, a hashed script, the manifest. */
function builtConsole(): string {
  const dir = mkdtempSync(join(tmpdir(), "wowc-console-files-"));
  mkdirSync(join(dir, "assets"));
  writeFileSync(join(dir, "index.html"), '<!doctype html><script type="module" src="./assets/index-abc123.js"></script>');
  writeFileSync(join(dir, "assets", "index-abc123.js"), "console.log('console');");
  writeFileSync(join(dir, "manifest.json"), "{}");
  return dir;
}

const hosts: WowHost[] = [];
afterAll(async () => {
  for (const host of hosts) await host.close();
});

async function served(console: { enabled?: boolean; path?: string } | undefined, folder = builtConsole()): Promise<string> {
  const host = createHost({
    registrations: [order],
    store: new MemoryStore(),
    config: { wow: { http: { credentials: [{ token: TOKEN }], ...(console === undefined ? {} : { console }) } } } as never,
    http: { consoleFolder: folder },
  });
  hosts.push(host);
  const server = await host.listen(0);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("the console's files", () => {
  it("are served at /wow/console/ without a credential, with a policy that allows only the host's own files", async () => {
    const base = await served(undefined);
    const redirect = await fetch(`${base}/wow/console`, { redirect: "manual" });
    expect([redirect.status, redirect.headers.get("location")]).toEqual([308, "/wow/console/"]);
    const page = await fetch(`${base}/wow/console/`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.headers.get("cache-control")).toBe("no-cache");
    const policy = page.headers.get("content-security-policy") ?? "";
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("connect-src 'self'");
    expect(await page.text()).toContain("index-abc123.js");
    const script = await fetch(`${base}/wow/console/assets/index-abc123.js`);
    expect([script.status, script.headers.get("content-type"), script.headers.get("cache-control")]).toEqual([200, "text/javascript; charset=utf-8", "public, max-age=31536000, immutable"]);
    const head = await fetch(`${base}/wow/console/index.html`, { method: "HEAD" });
    expect([head.status, await head.text()]).toEqual([200, ""]);
    // The API behind it still needs its credential.
    expect((await fetch(`${base}/wow/jobs`)).status).toBe(401);
  });

  it("answer 404 for a file the bundle does not have (the manifest included) and 405 for a write, naming no path of the host", async () => {
    const base = await served(undefined);
    for (const path of ["/wow/console/nope.js", "/wow/console/manifest.json"]) {
      const response = await fetch(`${base}${path}`);
      expect([path, response.status]).toEqual([path, 404]);
      expect(await response.text()).not.toContain(tmpdir());
    }
    // A path that climbs out (sent as written: fetch would resolve it) names no file of the bundle.
    for (const path of ["/wow/console/../../package.json", "/wow/console/assets/../../../etc/passwd"]) {
      const raw = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request(`${base}${path}`, { path }, (res) => {
          let body = "";
          res.on("data", (chunk) => (body += chunk));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on("error", reject);
        req.end();
      });
      expect([path, raw.status]).toEqual([path, 404]);
      expect(raw.body).not.toContain('"dependencies"');
      expect(raw.body).not.toContain("root:");
    }
    expect((await fetch(`${base}/wow/console/`, { method: "POST" })).status).toBe(405);
  });

  it("move to the configured path, or are not served when the console is turned off", async () => {
    const moved = await served({ path: "/ops/console" });
    expect((await fetch(`${moved}/ops/console/`)).status).toBe(200);
    expect((await fetch(`${moved}/wow/console/`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
    const off = await served({ enabled: false });
    const response = await fetch(`${off}/wow/console/`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(404);
    expect((await response.json()).errorMsg).toContain("no route");
  });

  it("say how to build them when the installation has none", async () => {
    const base = await served(undefined, join(tmpdir(), "wowc-no-such-console-folder"));
    const response = await fetch(`${base}/wow/console/`);
    expect(response.status).toBe(404);
    expect((await response.json()).errorMsg).toContain("npm run build");
  });

  it("refuse a path that is not absolute or would hide the API's routes", () => {
    expect(checkConsolePath("/wow/console")).toBe("/wow/console");
    expect(() => checkConsolePath("console")).toThrow(/absolute path/);
    expect(() => checkConsolePath("/wow/jobs")).toThrow(/would hide the API's \/wow\/jobs routes/);
    expect(() => checkConsolePath("/a//b")).toThrow(/plain segments/);
  });
});
