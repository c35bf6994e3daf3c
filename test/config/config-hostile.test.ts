// Hostile configuration files and environments over the example's generated schema: each one is
// refused with the JSON path of what is wrong (and the variable or file it came from), or loaded as
// written; never loaded as a default instead of what was written, and never a bare error.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { configDefaults, configSchema, environmentEntries } from "../../compiler/emit/config-view.js";
import { compileSources } from "../../compiler/program/compile.js";
import { createHost, loadWowConfig, MemoryStore, WowConfigError, type WowConfig } from "../../runtime/index.js";
import { ESHOP, readWowSources } from "../emit/helpers.js";

const model = compileSources(readWowSources(ESHOP), { manifest: false }).model;
const schema = configSchema(model);
const defaults = configDefaults(model) as WowConfig;
const environment = Object.fromEntries(environmentEntries(model).map((e) => [e.variable, e.path]));
const dir = mkdtempSync(join(tmpdir(), "wowc-config-hostile-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Outcome = { readonly loaded: WowConfig } | { readonly problems: readonly { path: string; message: string; source: string }[] };

function load(file: unknown, env: Record<string, string> = {}): Outcome {
  writeFileSync(join(dir, "wow.config.json"), JSON.stringify(file));
  try {
    return { loaded: loadWowConfig({ schema, defaults, environment, cwd: dir, env }) };
  } catch (error) {
    if (!(error instanceof WowConfigError)) throw error; // a bare error fails the test
    return { problems: error.problems };
  }
}

const JOB = "receive-deliveries";
const at = (path: readonly string[], value: unknown): unknown => (path.length === 0 ? value : { [path[0]!]: at(path.slice(1), value) });
const valueAt = (root: unknown, path: readonly string[]): unknown => path.reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], root);

/** [path under wow, value, loads?] */
const SETTINGS: [readonly string[], unknown, boolean][] = [];
const settings = (path: readonly string[], good: unknown[], bad: unknown[]) => {
  for (const value of good) SETTINGS.push([path, value, true]);
  for (const value of bad) SETTINGS.push([path, value, false]);
};
const SHAPES = [{}, { value: 1 }, [], [1], null];
settings(["schedules", JOB, "expression"], ["0 0 * * * *", "@daily", " 0 30 5 * * MON-FRI "], ["every day", "", "0 0 * * *", "61 * * * * *", "0 0 0 30 2 *", `${"1,".repeat(600)}1 * * * * *`, 5, true, ...SHAPES]);
settings(["schedules", JOB, "zone"], ["Europe/Paris", "UTC", "America/Argentina/Buenos_Aires"], ["Mars/Olympus", "asia/tokyo", "PST", "", 1, false, ...SHAPES]);
settings(["schedules", JOB, "misfire"], ["CATCH_UP", "COALESCE"], ["catch_up", "NONE", "", 0, ...SHAPES]);
settings(["schedules", JOB, "enabled"], [false, true], ["false", 0, 1, "", ...SHAPES, { value: false }]);
settings(["timers", "poll-interval"], ["250ms", "1h30m", "PT1S", 250, 1], ["0s", 0, -1, "1x", "", "1e3ms", 1.5, 1e308, true, ...SHAPES]);
settings(["timers", "max-attempts"], [1, 3, 10_000], [0, -1, 1.5, 1e308, 2 ** 53, "3", true, ...SHAPES]);
settings(["http", "body-limit"], [1, 1024, 10_485_760], [0, -5, 1e308, "1024", 1.25, ...SHAPES]);
settings(["store", "path"], ["data/app.db", "x.db"], ["", 5, false, ...SHAPES]);

describe("every setting, a wrong shape or value refused at its path; a right one loaded as written", () => {
  it.each(SETTINGS.map(([path, value, loads]) => [`/wow/${path.join("/")} = ${JSON.stringify(value)?.slice(0, 40)}`, path, value, loads] as const))("%s", (_name, path, value, loads) => {
    const outcome = load({ wow: at(path, value) });
    const pointer = `/wow/${path.join("/")}`;
    if (loads) {
      expect("loaded" in outcome ? valueAt(outcome.loaded.wow, path) : outcome).toEqual(value);
    } else {
      expect("problems" in outcome ? outcome.problems.map((p) => [p.path, p.source]) : outcome).toContainEqual([pointer, "wow.config.json"]);
    }
  });
});

describe("unknown settings, at every level, refused at their path with what is allowed", () => {
  it.each([
    [{ wow: { timer: {} } }, "/wow/timer"],
    [{ wow: { timers: { "poll-intervall": "1s" } } }, "/wow/timers/poll-intervall"],
    [{ wow: { schedules: { "receive-delivery": {} } } }, "/wow/schedules/receive-delivery"],
    [{ wow: { schedules: { [JOB]: { cron: "0 0 * * * *" } } } }, `/wow/schedules/${JOB}/cron`],
    [{ wow: { http: { credential: [] } } }, "/wow/http/credential"],
    [{ wow: { store: { file: "x.db" } } }, "/wow/store/file"],
    [{ wowc: {} }, "/wowc"],
    [{ wow: { ["__proto__"]: { polluted: true } } }, "/wow/__proto__"],
    [{ wow: { constructor: {} } }, "/wow/constructor"],
  ])("%j → %s", (file, path) => {
    const outcome = load(JSON.parse(JSON.stringify(file).replace('"__proto__"', '"__proto__"')));
    expect("problems" in outcome && outcome.problems.map((p) => p.path)).toContain(path);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("whole files of the wrong shape", () => {
    for (const file of [[], 5, "wow", null, { wow: [] }, { wow: 5 }, { wow: null }]) {
      const outcome = load(file);
      expect("problems" in outcome).toBe(true);
    }
  });
});

describe("credentials in the file", () => {
  it.each([
    [[{ token: "same-token-0123456789" }, { token: "same-token-0123456789", tenant: "acme" }], "/wow/http/credentials/1/token"],
    [[{ token: "with spaces in it 0123" }], "/wow/http/credentials/0/token"],
    [[{ token: "tab\tin-the-token-0123" }], "/wow/http/credentials/0/token"],
    [[{ token: "short" }], "/wow/http/credentials/0/token"],
    [[{ token: "fine-token-0123456789", tenant: "../x" }], "/wow/http/credentials/0/tenant"],
    [[{ token: "fine-token-0123456789", tenant: "" }], "/wow/http/credentials/0/tenant"],
    [[{ token: "fine-token-0123456789", tenant: "a/b" }], "/wow/http/credentials/0/tenant"],
    [[{ tenant: "acme" }], "/wow/http/credentials/0"],
    [[{ token: 12345678901234567890 }], "/wow/http/credentials/0/token"],
  ])("%j → refused at %s", (credentials, path) => {
    const outcome = load({ wow: { http: { credentials } } });
    expect("problems" in outcome && outcome.problems.map((p) => p.path)).toContain(path);
  });

  it("usable ones load as written", () => {
    const credentials = [{ token: "operator-token-0123456789" }, { token: "acme-token~0123456789+/==", tenant: "acme", name: "Acme" }];
    const outcome = load({ wow: { http: { credentials } } });
    expect("loaded" in outcome && outcome.loaded.wow.http?.credentials).toEqual(credentials);
  });
});

describe("the environment", () => {
  const ENV: [Record<string, string>, string | null, string][] = [
    [{ WOW_TIMERS__POLL_INTERVAL: "5s" }, null, "/wow/timers/poll-interval"],
    [{ WOW_TIMERS__POLL_INTERVAL: "0s" }, "/wow/timers/poll-interval", "WOW_TIMERS__POLL_INTERVAL"],
    [{ WOW_TIMERS__POLL_INTERVAL: "soon" }, "/wow/timers/poll-interval", "WOW_TIMERS__POLL_INTERVAL"],
    [{ WOW_TIMERS__MAX_ATTEMPTS: "3" }, null, "/wow/timers/max-attempts"],
    [{ WOW_TIMERS__MAX_ATTEMPTS: "1e308" }, "/wow/timers/max-attempts", "WOW_TIMERS__MAX_ATTEMPTS"],
    [{ WOW_TIMERS__MAX_ATTEMPTS: "99999999999999999999" }, "/wow/timers/max-attempts", "WOW_TIMERS__MAX_ATTEMPTS"],
    [{ WOW_TIMERS__MAX_ATTEMPTS: "three" }, "/wow/timers/max-attempts", "WOW_TIMERS__MAX_ATTEMPTS"],
    [{ WOW_SCHEDULES__RECEIVE_DELIVERIES__ENABLED: "false" }, null, `/wow/schedules/${JOB}/enabled`],
    [{ WOW_SCHEDULES__RECEIVE_DELIVERIES__ENABLED: "no" }, `/wow/schedules/${JOB}/enabled`, "WOW_SCHEDULES__RECEIVE_DELIVERIES__ENABLED"],
    [{ WOW_SCHEDULES__RECEIVE_DELIVERIES__ZONE: "Europe/Berlin" }, null, `/wow/schedules/${JOB}/zone`],
    [{ WOW_SCHEDULES__RECEIVE_DELIVERIES__ZONE: "Berlin" }, `/wow/schedules/${JOB}/zone`, "WOW_SCHEDULES__RECEIVE_DELIVERIES__ZONE"],
    [{ WOW_SCHEDULES__RECEIVE_DELIVERIES__EXPRESSION: "0 15 * * * *" }, null, `/wow/schedules/${JOB}/expression`],
    [{ WOW_SCHEDULES__RECEIVE_DELIVERIES__EXPRESSION: "hourly" }, `/wow/schedules/${JOB}/expression`, "WOW_SCHEDULES__RECEIVE_DELIVERIES__EXPRESSION"],
    [{ WOW_SCHEDULES__RECEIVE_DELIVERIES__MISFIRE: "CATCH_UP" }, null, `/wow/schedules/${JOB}/misfire`],
    [{ WOW_SCHEDULES__RECEIVE_DELIVERIES__MISFIRE: "LATER" }, `/wow/schedules/${JOB}/misfire`, "WOW_SCHEDULES__RECEIVE_DELIVERIES__MISFIRE"],
    [{ WOW_STORE__PATH: "from-env.db" }, null, "/wow/store/path"],
    [{ WOW_STORE__URL: "postgres://127.0.0.1:5432/test" }, null, "/wow/store/url"],
    [{ WOW_STORE__URL: "mysql://127.0.0.1/test" }, "/wow/store/url", "WOW_STORE__URL"],
    [{ WOW_STORE__POOL: "0" }, "/wow/store/pool", "WOW_STORE__POOL"],
    [{ WOW_HTTP__BODY_LIMIT: "4096" }, null, "/wow/http/body-limit"],
    [{ WOW_HTTP__BODY_LIMIT: "0" }, "/wow/http/body-limit", "WOW_HTTP__BODY_LIMIT"],
  ];
  it.each(ENV)("%j", (env, refusedAt, variableOrPath) => {
    const outcome = load({}, env);
    if (refusedAt === null) {
      const path = variableOrPath.split("/").slice(2);
      const raw = Object.values(env)[0]!;
      const written = /^-?\d+(\.\d+)?$/.test(raw) ? Number(raw) : raw === "true" ? true : raw === "false" ? false : raw;
      expect("loaded" in outcome ? valueAt(outcome.loaded.wow, path) : outcome).toEqual(written);
    } else {
      expect("problems" in outcome ? outcome.problems.map((p) => [p.path, p.source]) : outcome).toContainEqual([refusedAt, variableOrPath]);
    }
  });

  it.each([
    ["WOW_TIMERS__POLL_INTERVALL", "did you mean WOW_TIMERS__POLL_INTERVAL?"],
    ["WOW_TIMER__POLL_INTERVAL", "did you mean WOW_TIMERS__POLL_INTERVAL?"],
    ["WOW_SCHEDULES__RECEIVE_DELIVERY__ZONE", "did you mean WOW_SCHEDULES__RECEIVE_DELIVERIES__ZONE?"],
    ["WOW_STORE__PAHT", "did you mean WOW_STORE__PATH?"],
    ["WOW_HTTP__BODYLIMIT", "did you mean WOW_HTTP__BODY_LIMIT?"],
    ["WOW_NOTHING__LIKE_IT_AT_ALL_REALLY", "(known: "],
  ])("an unknown setting variable %s is refused: %s", (variable, hint) => {
    const outcome = load({}, { [variable]: "1" });
    const problem = "problems" in outcome ? outcome.problems.find((p) => p.source === variable) : undefined;
    expect(problem?.message).toContain(`unknown setting variable ${variable}`);
    expect(problem?.message).toContain(hint);
  });

  it("a store is a PostgreSQL server or a SQLite file: url beside a SQLite setting is refused at each, a PostgreSQL setting needs url", () => {
    const both = load({ wow: { store: { url: "postgres://db.example:5432/app", path: "wow.db", synchronous: "FULL" } } });
    expect("problems" in both && both.problems.map((p) => [p.path, p.message.split(":")[0]])).toEqual([
      ["/wow/store/path", "a SQLite setting beside url"],
      ["/wow/store/synchronous", "a SQLite setting beside url"],
    ]);
    const alone = load({ wow: { store: { schema: "wow" } } });
    expect("problems" in alone && alone.problems.map((p) => [p.path, p.message])).toEqual([["/wow/store", "must have property url when property schema is present"]]);
    const postgres = load({ wow: { store: { url: "postgres://db.example:5432/app", schema: "shop", pool: 4, "statement-timeout": "5s" } } });
    expect("loaded" in postgres && postgres.loaded.wow.store).toEqual({ url: "postgres://db.example:5432/app", schema: "shop", pool: 4, "statement-timeout": "5s" });
  });

  it("leaves alone variables that are not settings (no level separator): a tool's own WOW_ variables", () => {
    expect("loaded" in load({}, { WOW_REQUIRE_POSTGRES: "1", WOW_BENCH_BATCH: "500" })).toBe(true);
  });

  it("a variable under a value of the file that is not an object reports the file's value", () => {
    const outcome = load({ wow: { timers: 5 } }, { WOW_TIMERS__POLL_INTERVAL: "1s" });
    expect("problems" in outcome && outcome.problems.map((p) => [p.path, p.source])).toContainEqual(["/wow/timers", "wow.config.json"]);
  });
});

describe("createHost", () => {
  it("refuses a configuration's timer setting the timer service cannot take, naming its path (a config built in code)", () => {
    const config = { wow: { schedules: {}, timers: { "poll-interval": "1s", "max-attempts": 1e308 } } } as WowConfig;
    try {
      createHost({ registrations: [], store: new MemoryStore(), config });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(WowConfigError);
      expect((error as WowConfigError).problems.map((p) => p.path)).toEqual(["/wow/timers/max-attempts"]);
      expect((error as WowConfigError).message).toContain("must be a positive integer");
    }
  });
});
