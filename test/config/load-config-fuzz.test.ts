// 2,000 random wow.config.json files (wrong types, unknown and hostile keys, cut JSON) and
// environment values over the example's generated schema: loading either returns a configuration
// that holds every declared job and timer setting, or throws WowConfigError; never anything else,
// and Object.prototype stays untouched.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { configDefaults, configSchema, environmentEntries } from "../../compiler/emit/config-view.js";
import { compileSources } from "../../compiler/program/compile.js";
import { loadWowConfig, WowConfigError, type WowConfig } from "../../runtime/index.js";
import { ESHOP, readWowSources } from "../emit/helpers.js";
import { mulberry32, pick, type Random } from "../support/random.js";

const model = compileSources(readWowSources(ESHOP), { manifest: false }).model;
const schema = configSchema(model);
const defaults = configDefaults(model) as WowConfig;
const environment = Object.fromEntries(environmentEntries(model).map((e) => [e.variable, e.path]));
const dir = mkdtempSync(join(tmpdir(), "wowc-config-fuzz-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const KEYS = ["wow", "schedules", "timers", "receive-deliveries", "expression", "zone", "misfire", "enabled", "poll-interval", "max-attempts", "http", "store", "path", "credentials", "token", "tenant", "body-limit", "__proto__", "constructor", "toString", "$schema", "", "x"];
const WORDS = ["1s", "0s", "-1s", "1h", "PT1S", "", "0 0 * * * *", "0 0 6 * * *", "0 0 0 30 2 *", "UTC", "Nope/Zone", "COALESCE", "CATCH_UP", "99999999999999999999d", "1.5s", "1e3ms"];

function value(random: Random, depth: number): unknown {
  switch (Math.floor(random() * 10)) {
    case 0: return null;
    case 1: return random() < 0.5;
    case 2: return Math.floor(random() * 2e6) - 1e6;
    case 3: return random() * 1e20;
    case 4: return [];
    case 5: return [value(random, 0)];
    case 6: case 7: return depth > 0 ? object(random, depth - 1) : {};
    default: return pick(random, WORDS);
  }
}

/** An object with own keys only, `__proto__` included (as JSON.parse makes it). */
function object(random: Random, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let n = Math.floor(random() * 4); n > 0; n--) {
    Object.defineProperty(out, pick(random, KEYS), { value: value(random, depth), enumerable: true, configurable: true, writable: true });
  }
  return out;
}

it("loads or refuses 2,000 random configurations, and nothing else", () => {
  const random = mulberry32(99);
  let loaded = 0;
  for (let run = 0; run < 2000; run++) {
    const file = JSON.stringify(random() < 0.5 ? object(random, 4) : { wow: object(random, 3) });
    const text = random() < 0.1 ? file.slice(0, Math.floor(random() * file.length)) : file;
    writeFileSync(join(dir, "wow.config.json"), text);
    const env: Record<string, string> = {};
    if (random() < 0.3) {
      const v = value(random, 1);
      env[pick(random, Object.keys(environment))] = typeof v === "string" ? v : JSON.stringify(v);
    }
    try {
      const config = loadWowConfig({ schema, defaults, environment, cwd: dir, env });
      loaded++;
      expect(Object.keys(config.wow.schedules), `run ${run}: ${text}`).toEqual(["receive-deliveries"]);
      expect(typeof config.wow.schedules["receive-deliveries"]!.expression).toBe("string");
      expect(typeof config.wow.timers["poll-interval"]).toBe("string");
    } catch (error) {
      if (!(error instanceof WowConfigError)) throw new Error(`run ${run} threw ${String(error)} on ${text} with ${JSON.stringify(env)}`);
    }
    expect(Object.keys(Object.prototype), `run ${run}`).toEqual([]);
  }
  expect(loaded).toBeGreaterThan(200);
});
