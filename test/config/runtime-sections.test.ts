// `wow.http` and `wow.store` are the runtime's own sections. The compiler writes them into the
// generated `wow.config.schema.json`, so an editor validating the file as it is typed and the loader
// agree: the e-shop's own wow.config.json passes, and mistakes in these sections name their path.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv } from "ajv";
import { afterAll, expect, it } from "vitest";
import { loadWowConfig, WowConfigError, type WowConfig } from "../../runtime/index.js";

/** The schema `wowc build examples/eshop` generates (kept current by the emit golden test). */
const schema = JSON.parse(readFileSync(new URL("../emit/golden/eshop/wow.config.schema.json", import.meta.url), "utf8")) as object;
const defaults = { wow: { schedules: { "receive-deliveries": { expression: "0 0 6 * * *", zone: "UTC", misfire: "COALESCE", enabled: true } }, timers: { "poll-interval": "1s", "max-attempts": 10 } } } as WowConfig;
const dir = mkdtempSync(join(tmpdir(), "wowc-config-http-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function load(file: unknown): WowConfig {
  writeFileSync(join(dir, "wow.config.json"), JSON.stringify(file));
  return loadWowConfig({ schema, defaults, cwd: dir, env: {} });
}

it("accepts bearer credentials (optionally bound to a tenant), a body limit and the store's path", () => {
  const config = load({ wow: { http: { credentials: [{ token: "a-long-enough-token", tenant: "acme" }], "body-limit": 4096 }, store: { path: "data/x.db" } } });
  expect(config.wow.http?.credentials).toEqual([{ token: "a-long-enough-token", tenant: "acme" }]);
  expect(config.wow.store?.path).toBe("data/x.db");
});

it("reports a short token, an unknown field and a bad limit at their paths", () => {
  try {
    load({ wow: { http: { credentials: [{ token: "short", role: "admin" }], "body-limit": 0 } } });
    throw new Error("expected a WowConfigError");
  } catch (error) {
    expect(error).toBeInstanceOf(WowConfigError);
    const paths = (error as WowConfigError).problems.map((p) => p.path).sort();
    expect(paths).toEqual(["/wow/http/body-limit", "/wow/http/credentials/0/role", "/wow/http/credentials/0/token"]);
  }
});

it("the e-shop's wow.config.json is valid against the generated schema, as an editor sees it", () => {
  const file = JSON.parse(readFileSync(new URL("../../examples/eshop/wow.config.json", import.meta.url), "utf8")) as unknown;
  const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
  expect(validate(file), JSON.stringify(validate.errors)).toBe(true);
  expect(validate({ wow: { http: { credential: [] } } })).toBe(false);
});

it("accepts the console turned off or moved, and reports a path that is not absolute at its path", () => {
  expect(load({ wow: { http: { console: { enabled: false, path: "/ops/console" } } } }).wow.http?.console).toEqual({ enabled: false, path: "/ops/console" });
  try {
    load({ wow: { http: { console: { path: "ops", theme: "dark" } } } });
    throw new Error("expected a WowConfigError");
  } catch (error) {
    expect(error).toBeInstanceOf(WowConfigError);
    expect((error as WowConfigError).problems.map((p) => p.path).sort()).toEqual(["/wow/http/console/path", "/wow/http/console/theme"]);
  }
});

it("sets the console by variables too", () => {
  writeFileSync(join(dir, "wow.config.json"), "{}");
  const config = loadWowConfig({ schema, defaults, cwd: dir, env: { WOW_HTTP__CONSOLE__ENABLED: "false", WOW_HTTP__CONSOLE__PATH: "/ops" } });
  expect(config.wow.http?.console).toEqual({ enabled: false, path: "/ops" });
});
