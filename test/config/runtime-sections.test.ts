// `wow.http` and `wow.store` are the runtime's own sections: the loader accepts and checks them
// whatever the generated schema declares.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { loadWowConfig, WowConfigError, type WowConfig } from "../../runtime/index.js";

/** The generated schema's shape: closed objects, no runtime sections. */
const schema = {
  type: "object",
  additionalProperties: false,
  properties: {
    $schema: { type: "string" },
    wow: { type: "object", additionalProperties: false, properties: { schedules: { type: "object" }, timers: { type: "object" } } },
  },
};
const defaults = { wow: { schedules: {}, timers: { "poll-interval": "1s", "max-attempts": 10 } } } as WowConfig;
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
