// The runtime config loader against the schema, defaults and environment table generated for examples/eshop.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configDefaults, configSchema, environmentEntries } from "../../compiler/emit/config-view.js";
import type { ProgramModel } from "../../compiler/model.js";
import { compileSources } from "../../compiler/program/compile.js";
import { loadWowConfig, WowConfigError, type ConfigProblem, type WowConfig } from "../../runtime/index.js";
import { ESHOP, readWowSources } from "../emit/helpers.js";

let model: ProgramModel;
let dir: string;
let schema: object;
let defaults: WowConfig;
let environment: Record<string, readonly string[]>;

beforeAll(() => {
  model = compileSources(readWowSources(ESHOP), { manifest: false }).model;
  schema = configSchema(model);
  defaults = configDefaults(model) as WowConfig;
  environment = Object.fromEntries(environmentEntries(model).map((e) => [e.variable, e.path]));
  dir = mkdtempSync(join(tmpdir(), "wowc-config-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function load(file: unknown, env: Record<string, string> = {}): WowConfig {
  writeFileSync(join(dir, "wow.config.json"), JSON.stringify(file));
  return loadWowConfig({ schema, defaults, environment, cwd: dir, env });
}

function problems(file: unknown, env: Record<string, string> = {}): ConfigProblem[] {
  try {
    load(file, env);
  } catch (error) {
    expect(error).toBeInstanceOf(WowConfigError);
    return [...(error as WowConfigError).problems];
  }
  throw new Error("expected a WowConfigError");
}

describe("loadWowConfig", () => {
  it("loads a valid file over the declared defaults", () => {
    const config = load({ $schema: "./generated/wow.config.schema.json", wow: { schedules: { "receive-deliveries": { expression: "0 30 5 * * MON-FRI", zone: "Europe/Paris" } }, timers: { "max-attempts": 3 } } });
    expect(config.wow.schedules["receive-deliveries"]).toEqual({ expression: "0 30 5 * * MON-FRI", zone: "Europe/Paris", misfire: "COALESCE", enabled: true });
    expect(config.wow.timers).toEqual({ "poll-interval": "1s", "max-attempts": 3 });
  });

  it("uses the defaults when there is no file", () => {
    rmSync(join(dir, "wow.config.json"), { force: true });
    expect(loadWowConfig({ schema, defaults, environment, cwd: dir, env: {} })).toEqual(defaults);
  });

  it("an unknown job name is an error at its path, naming the declared jobs", () => {
    const found = problems({ wow: { schedules: { "receive-delivery": { enabled: false } } } });
    expect(found.map((p) => p.path)).toEqual(["/wow/schedules/receive-delivery"]);
    expect(found[0]!.message).toContain("receive-deliveries");
  });

  it("a five-field expression is an error at its path", () => {
    expect(problems({ wow: { schedules: { "receive-deliveries": { expression: "0 6 * * *" } } } }).map((p) => p.path)).toEqual(["/wow/schedules/receive-deliveries/expression"]);
  });

  it("a six-field expression the cron engine refuses, and an unknown zone, are errors at their paths", () => {
    const found = problems({ wow: { schedules: { "receive-deliveries": { expression: "0 0 25 * * *", zone: "Mars/Olympus" } } } });
    expect(found.map((p) => p.path).sort()).toEqual(["/wow/schedules/receive-deliveries/expression", "/wow/schedules/receive-deliveries/zone"]);
  });

  it("a negative max-attempts is an error at its path; every problem is reported at once", () => {
    const found = problems({ wow: { timers: { "max-attempts": -1, "poll-intervall": "1s" }, schedules: { "receive-deliveries": { misfire: "SOMETIMES" } } } });
    expect(found.map((p) => p.path).sort()).toEqual(["/wow/schedules/receive-deliveries/misfire", "/wow/timers/max-attempts", "/wow/timers/poll-intervall"]);
    try {
      load({ wow: { timers: { "max-attempts": -1 } } });
    } catch (error) {
      expect((error as Error).message).toContain("/wow/timers/max-attempts: must be >= 1 (wow.config.json)");
    }
  });

  it("environment variables override the file, and their problems name the variable", () => {
    const config = load({ wow: { timers: { "poll-interval": "5s" } } }, { WOW_TIMERS__POLL_INTERVAL: "250ms", WOW_SCHEDULES__RECEIVE_DELIVERIES__ENABLED: "false", WOW_TIMERS__MAX_ATTEMPTS: "4" });
    expect(config.wow.timers).toEqual({ "poll-interval": "250ms", "max-attempts": 4 });
    expect(config.wow.schedules["receive-deliveries"]!.enabled).toBe(false);
    const found = problems({}, { WOW_SCHEDULES__RECEIVE_DELIVERIES__ZONE: "Nowhere/Land" });
    expect(found).toEqual([expect.objectContaining({ path: "/wow/schedules/receive-deliveries/zone", source: "WOW_SCHEDULES__RECEIVE_DELIVERIES__ZONE" })]);
  });

  it("an environment variable under a value of the file that is not an object leaves that value to be reported", () => {
    // Laid over it, the variable's object would replace it and drop the declared defaults with it.
    expect(problems({ wow: 5 }, { WOW_TIMERS__POLL_INTERVAL: "2s" }).map((p) => `${p.path}: ${p.message} (${p.source})`)).toEqual(["/wow: must be object (wow.config.json)"]);
    const found = problems({ wow: { schedules: { "receive-deliveries": "daily" } } }, { WOW_SCHEDULES__RECEIVE_DELIVERIES__ZONE: "UTC" });
    expect(found.map((p) => `${p.path}: ${p.message} (${p.source})`)).toEqual(["/wow/schedules/receive-deliveries: must be object (wow.config.json)"]);
  });

  it("an expression that never fires in its zone is an error at its path (every match in a DST gap)", () => {
    const found = problems({ wow: { schedules: { "receive-deliveries": { expression: "0 30 2 31 3 SUN", zone: "Europe/Berlin" } } } });
    expect(found.map((p) => `${p.path}: ${p.message}`)).toEqual(["/wow/schedules/receive-deliveries/expression: '0 30 2 31 3 SUN' never fires in Europe/Berlin: each time it matches falls in a daylight-saving gap"]);
    expect(load({ wow: { schedules: { "receive-deliveries": { expression: "0 30 2 31 3 SUN", zone: "UTC" } } } }).wow.schedules["receive-deliveries"]!.zone).toBe("UTC");
  });

  it("a bad poll-interval is caught by the duration parser, and a zero one is refused", () => {
    expect(problems({ wow: { timers: { "poll-interval": "soon" } } }).map((p) => p.path)).toEqual(["/wow/timers/poll-interval"]);
    // An idle host would poll without pause.
    for (const zero of ["0ms", "PT0S", "0"]) {
      expect(problems({ wow: { timers: { "poll-interval": zero } } }).map((p) => `${p.path}: ${p.message}`)).toEqual(["/wow/timers/poll-interval: must be at least 1 ms"]);
    }
  });

  it("takes a job's run policy from the file and the environment, over the declaration", () => {
    const config = load(
      { wow: { schedules: { "receive-deliveries": { overlap: "BUFFER_ONE", timeout: "2m", jitter: "PT10S", retry: { "max-attempts": 4, backoff: "5s" } } } } },
      { WOW_SCHEDULES__RECEIVE_DELIVERIES__RETRY__MAX_BACKOFF: "1m", WOW_SCHEDULES__RECEIVE_DELIVERIES__OVERLAP: "SKIP" },
    );
    expect(config.wow.schedules["receive-deliveries"]).toMatchObject({ overlap: "SKIP", timeout: "2m", jitter: "PT10S", retry: { "max-attempts": 4, backoff: "5s", "max-backoff": "1m" } });
  });

  it("a run policy's wrong values are errors at their paths: an unknown overlap, durations the parser refuses or that are 0, attempts out of range", () => {
    const found = problems({ wow: { schedules: { "receive-deliveries": { overlap: "QUEUE", timeout: "0s", jitter: "PTxS", retry: { "max-attempts": 0, backof: "1s" } } } } });
    expect(found.map((p) => p.path).sort()).toEqual([
      "/wow/schedules/receive-deliveries/jitter",
      "/wow/schedules/receive-deliveries/overlap",
      "/wow/schedules/receive-deliveries/retry/backof",
      "/wow/schedules/receive-deliveries/retry/max-attempts",
      "/wow/schedules/receive-deliveries/timeout",
    ]);
    expect(found.find((p) => p.path.endsWith("/timeout"))!.message).toBe("must be at least 1 ms");
    expect(found.find((p) => p.path.endsWith("/jitter"))!.message).toContain("not a duration");
  });

  it("every duration setting is read by the duration parser, in every section", () => {
    // "P1X" fits the schema's pattern: only the parser refuses it.
    const found = problems({ wow: { runs: { keep: "P1X" }, alerts: { webhook: { url: "https://example.test/hook", secret: "a-secret-of-16-chars", timeout: "0" } } } });
    expect(found.map((p) => `${p.path}: ${p.message}`).sort()).toEqual([
      "/wow/alerts/webhook/timeout: must be at least 1 ms",
      '/wow/runs/keep: not a duration: "P1X" (use milliseconds, "250ms", "30s", "15m", "2h", "1d" or ISO-8601 "PT15M")',
    ]);
  });

  it("reports the engine's problems together with the schema's, in one round", () => {
    const first = problems({ wow: { schedules: { "receive-deliveries": { zone: "Europe/Pariss", misfire: "LATEST" } } } });
    expect(first.map((p) => p.path).sort()).toEqual(["/wow/schedules/receive-deliveries/misfire", "/wow/schedules/receive-deliveries/zone"]);
    const second = problems({ wow: { timers: { "max-attempts": 0, "poll-interval": "0ms" }, schedules: { "receive-deliveries": { expression: "0 0 25 * * *" } } } });
    expect(second.map((p) => p.path).sort()).toEqual(["/wow/schedules/receive-deliveries/expression", "/wow/timers/max-attempts", "/wow/timers/poll-interval"]);
    // A value the schema refuses is reported once, by the schema.
    const once = problems({ wow: { schedules: { "receive-deliveries": { expression: "0 6 * * *", zone: 5 } } } });
    expect(once.map((p) => p.path).sort()).toEqual(["/wow/schedules/receive-deliveries/expression", "/wow/schedules/receive-deliveries/zone"]);
  });
});

describe("keys named __proto__", () => {
  // A plain `object[key] = …` with this key sets a prototype instead of a property, and walking a
  // path through it reaches Object.prototype itself. (No job can have the name: WOW4005.)
  it("in the file, an unknown property at its path, not a prototype", () => {
    const found = problems({ wow: JSON.parse('{"__proto__":{"polluted":true}}') });
    expect(found.map((p) => p.path)).toEqual(["/wow/__proto__"]);
    expect("polluted" in {}).toBe(false);
  });

  it("on an environment variable's path, an unknown property, and Object.prototype untouched", () => {
    let thrown: unknown;
    try {
      loadWowConfig({ schema, defaults, environment: { ...environment, WOW_POLLUTE: ["wow", "__proto__", "polluted"] }, cwd: dir, env: { WOW_POLLUTE: "true" } });
    } catch (error) {
      thrown = error;
    }
    expect("polluted" in {}).toBe(false);
    expect(thrown).toBeInstanceOf(WowConfigError);
    expect((thrown as WowConfigError).problems).toEqual([expect.objectContaining({ path: "/wow/__proto__", source: "WOW_POLLUTE" })]);
  });
});
