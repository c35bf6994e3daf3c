// A job's overrides under `wow.schedules` reach the runtime under the key the generated config
// declares for it: the job's name, or `<context>.<name>` when two contexts declare that name. The
// generated registrations carry that key (`configKey`, read from the program-wide config.ts's `jobConfigKeys`,
// since a key depends on the other contexts), and createHost reads the override there.
// End to end: generated SDK (run as it is) + loadConfig + createHost → jobs.list.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHost, MemoryStore, type Registration, type SagaRegistration, type WowConfig } from "../../runtime/index.js";
import { Builder } from "../../compiler/program/build.js";
import { generate, REPO, writeFiles } from "./helpers.js";

const aggregate = (name: string, command: string, event: string): string => `
aggregate ${name} {
  state { n: int }
  command ${command} {}
  event ${event} {}
  @OnCommand(produces = [${event}])
  on ${command}
}`;

/** Two contexts declare a job `sweep` (keys `ctx-a.sweep`, `ctx-b.sweep`); `nightly` is ctx-b's alone (key `nightly`). */
const sources = [
  {
    path: "a.wow",
    text: `context ctx-a\n${aggregate("A", "Bump", "Bumped")}\nsaga SagaA {\n  @OnSchedule(name = "sweep", cron = "0 0 * * * *", commands = [Bump])\n  job sweep()\n}\n`,
  },
  {
    path: "b.wow",
    text: `context ctx-b\n${aggregate("B", "Poke", "Poked")}\nsaga SagaB {\n  @OnSchedule(name = "sweep", cron = "0 30 * * * *", commands = [Poke])\n  job sweep()\n  @OnSchedule(name = "nightly", cron = "0 0 2 * * *")\n  job nightly()\n}\n`,
  },
];

interface Generated {
  readonly loadConfig: (options: { file?: string; cwd?: string; env?: Record<string, string> }) => WowConfig;
  readonly configEnvironment: Readonly<Record<string, readonly string[]>>;
  readonly a: Record<string, (impl: object) => Registration>;
  readonly b: Record<string, (impl: object) => Registration>;
}

let work: string;
let sdk: Generated;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "wowc-job-key-"));
  // The generated files as they are, `wowc/runtime` pointed at the runtime's sources.
  const runtime = pathToFileURL(join(REPO, "runtime/index.ts")).href;
  writeFiles(work, generate(sources).map((f) => ({ path: f.path, text: f.text.replaceAll('"wowc/runtime"', JSON.stringify(runtime)) })));
  const load = (path: string): Promise<Record<string, unknown>> => import(/* @vite-ignore */ pathToFileURL(join(work, path)).href);
  const config = await load("config.ts");
  sdk = { loadConfig: config.loadConfig as Generated["loadConfig"], configEnvironment: config.configEnvironment as Generated["configEnvironment"], a: (await load("ctx-a/index.ts")) as Generated["a"], b: (await load("ctx-b/index.ts")) as Generated["b"] };
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("a job's config key", () => {
  it("is in each job registration, the same key as the generated config's", () => {
    const jobs = [sdk.a.defineSagaA!({ sweep: () => [] }), sdk.b.defineSagaB!({ sweep: () => [], nightly: () => [] })].flatMap((saga) =>
      (saga as SagaRegistration).jobs.map((job) => [`${saga.context}/${job.name}`, (job as { configKey?: string }).configKey]),
    );
    expect(jobs).toEqual([
      ["ctx-a/sweep", "ctx-a.sweep"],
      ["ctx-b/sweep", "ctx-b.sweep"],
      ["ctx-b/nightly", "nightly"],
    ]);
    expect(Object.keys(readConfigDefaults().wow.schedules).sort()).toEqual(["ctx-a.sweep", "ctx-b.sweep", "nightly"]);
  });

  it("carries the host's overrides to the jobs, a shared name's under its qualified key", async () => {
    writeFileSync(
      join(work, "wow.config.json"),
      JSON.stringify({
        wow: {
          schedules: {
            "ctx-a.sweep": { enabled: false, expression: "0 0 3 * * *" },
            "ctx-b.sweep": { zone: "Asia/Tokyo" },
            nightly: { misfire: "CATCH_UP" },
          },
        },
      }),
    );
    const config = sdk.loadConfig({ cwd: work, env: {} });
    const noop = () => ({ kind: "noop" });
    const registrations = [
      sdk.a.defineA!({ initialState: () => ({ n: 0 }), onBump: noop, apply: { Bumped: (s: unknown) => s } }),
      sdk.b.defineB!({ initialState: () => ({ n: 0 }), onPoke: noop, apply: { Poked: (s: unknown) => s } }),
      sdk.a.defineSagaA!({ sweep: () => [] }),
      sdk.b.defineSagaB!({ sweep: () => [], nightly: () => [] }),
    ];
    const host = createHost({ registrations, store: new MemoryStore(), config });
    try {
      await host.start();
      const jobs = Object.fromEntries((await host.jobs.list()).map((v) => [`${v.context}/${v.job}`, { enabled: v.enabled, rule: v.rule }]));
      expect(jobs["ctx-a/sweep"]).toMatchObject({ enabled: false, rule: { expression: "0 0 3 * * *", zone: "UTC", misfire: "COALESCE" } });
      expect(jobs["ctx-b/sweep"]).toMatchObject({ enabled: true, rule: { expression: "0 30 * * * *", zone: "Asia/Tokyo", misfire: "COALESCE" } });
      expect(jobs["ctx-b/nightly"]).toMatchObject({ enabled: true, rule: { expression: "0 0 2 * * *", zone: "UTC", misfire: "CATCH_UP" } });
    } finally {
      await host.close();
    }
  });

  it("takes each job's settings from its environment variables, a shared name's under its qualified key", () => {
    const env = { WOW_SCHEDULES__CTX_A_SWEEP__ENABLED: "false", WOW_SCHEDULES__CTX_B_SWEEP__RETRY__MAX_ATTEMPTS: "7", WOW_SCHEDULES__NIGHTLY__ZONE: "Asia/Tokyo", WOW_TIMERS__MAX_ATTEMPTS: "3" };
    writeFileSync(join(work, "empty.json"), "{}");
    const config = sdk.loadConfig({ cwd: work, file: "empty.json", env });
    expect(config.wow.schedules["ctx-a.sweep"]).toMatchObject({ enabled: false });
    expect(config.wow.schedules["ctx-b.sweep"]).toMatchObject({ retry: { "max-attempts": 7 } });
    expect(config.wow.schedules.nightly).toMatchObject({ zone: "Asia/Tokyo" });
    expect(config.wow.timers["max-attempts"]).toBe(3);
    expect(Object.keys(sdk.configEnvironment).filter((v) => v.startsWith("WOW_SCHEDULES__NIGHTLY__")).sort()).toEqual(
      ["BACKOFF", "ENABLED", "EXPRESSION", "JITTER", "MAX_ATTEMPTS", "MAX_BACKOFF", "MISFIRE", "OVERLAP", "TIMEOUT", "ZONE"].map((s) => `WOW_SCHEDULES__NIGHTLY__${s.endsWith("BACKOFF") || s === "MAX_ATTEMPTS" ? "RETRY__" : ""}${s}`).sort(),
    );
  });

  it("of a shared name is refused bare by the schema (the runtime never reads it)", () => {
    writeFileSync(join(work, "bare.json"), JSON.stringify({ wow: { schedules: { sweep: { enabled: false } } } }));
    expect(() => sdk.loadConfig({ cwd: work, file: "bare.json", env: {} })).toThrow(/sweep/);
  });
});

describe("under the watcher", () => {
  it("follows another context that starts sharing a job's name, without regenerating the first context", () => {
    const dir = mkdtempSync(join(tmpdir(), "wowc-job-key-watch-"));
    try {
      writeFileSync(join(dir, "a.wow"), sources[0]!.text);
      const builder = new Builder({ root: dir, write: true });
      builder.run();
      const keys = (): string => readFileSync(join(dir, "generated/config.ts"), "utf8");
      expect(keys()).toContain(`sweep: "sweep"`);
      // ctx-b declares `sweep` too: ctx-a's key becomes `ctx-a.sweep`, though ctx-a's sources did not change.
      writeFileSync(join(dir, "b.wow"), sources[1]!.text);
      const result = builder.run(new Set(["b.wow"]));
      expect(result.output.changed).not.toContain("ctx-a/sagas.ts");
      expect(readFileSync(join(dir, "generated/ctx-a/sagas.ts"), "utf8")).toContain(`configKey: $jobConfigKeys["ctx-a"].sweep,`);
      expect(keys()).toContain(`"ctx-a": {\n    sweep: "ctx-a.sweep",`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

function readConfigDefaults(): WowConfig {
  const text = readFileSync(join(work, "config.ts"), "utf8");
  const literal = /export const configDefaults: WowConfig<JobName> = (\{[\s\S]*?\n\});/.exec(text)?.[1];
  return new Function(`return ${literal};`)() as WowConfig;
}
