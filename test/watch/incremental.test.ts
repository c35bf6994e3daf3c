// The watcher's Builder redoes only what a change reaches (files parsed, contexts bound and checked,
// contexts regenerated). Whatever it skips, each rebuild must give exactly what a build from nothing
// gives: the same diagnostics and the same output files, byte for byte. Seeded edit sequences —
// docs, renames that break references in other contexts, syntax errors and their fixes, files
// added, deleted and moved to another context, job changes — check that after every step.
import { existsSync, mkdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { Builder, build, type BuildResult } from "../../compiler/program/build.js";
import { IncrementalProgram } from "../../compiler/program/incremental.js";
import { generate } from "../bench/synthetic-project.js";
import { filesUnder } from "../support/files.js";
import { mulberry32, pick, type Random } from "../support/random.js";
import { scratchDir } from "../tools/run-wowc.js";

const ESHOP = join(import.meta.dirname, "../../examples/eshop");

function writeProject(dir: string): void {
  for (const name of ["order.wow", "inventory.wow"]) writeFileSync(join(dir, name), readFileSync(join(ESHOP, name), "utf8"));
  for (const file of generate(60)) {
    mkdirSync(dirname(join(dir, file.path)), { recursive: true });
    writeFileSync(join(dir, file.path), file.text);
  }
}

function outputs(outDir: string): Map<string, string> {
  if (!existsSync(outDir)) return new Map();
  return new Map(filesUnder(outDir).map((path) => [relative(outDir, path), readFileSync(path, "utf8")]));
}

function summary(result: BuildResult): string[] {
  return result.diagnostics.map((d) => `${d.loc?.file.path ?? ""}:${d.loc?.start ?? ""}-${d.loc?.end ?? ""} ${d.severity} ${d.code} ${d.message} ${d.hint ?? ""}`);
}

function wowFiles(dir: string): string[] {
  return filesUnder(dir, (name) => name === "generated" || name === "fresh")
    .filter((path) => path.endsWith(".wow"))
    .map((path) => relative(dir, path).split("\\").join("/"));
}

type Edit = (dir: string, random: Random) => string[];

const replaceIn = (path: string, dir: string, from: RegExp, to: (match: string) => string): void => {
  const text = readFileSync(join(dir, path), "utf8");
  writeFileSync(join(dir, path), text.replace(from, to));
};

/** Each edit changes the project and returns the paths it touched (relative to the root). */
const edits: Record<string, Edit> = {
  doc(dir, random) {
    const path = pick(random, wowFiles(dir));
    replaceIn(path, dir, /\n(\s*)(command|event|aggregate) /, (m) => `\n/** Edited ${Math.floor(random() * 1e6)}. */${m}`);
    return [path];
  },
  renameCommand(dir, random) {
    // Breaks the handler and maybe references from another context, until renamed back.
    const path = pick(random, wowFiles(dir));
    const text = readFileSync(join(dir, path), "utf8");
    const name = /command (\w+)/.exec(text)?.[1];
    if (name === undefined) return [];
    writeFileSync(join(dir, path), text.replaceAll(new RegExp(`command ${name}\\b`, "g"), `command ${name}X`));
    return [path];
  },
  renameEvent(dir, random) {
    // Other contexts name these events (`ctx-1.OrderCreated3`): their checks must be redone.
    const path = pick(random, wowFiles(dir));
    const text = readFileSync(join(dir, path), "utf8");
    const name = /event (OrderCreated\w*)/.exec(text)?.[1];
    if (name === undefined) return [];
    writeFileSync(join(dir, path), text.replaceAll(new RegExp(`\\b${name}\\b`, "g"), `${name}Renamed`));
    return [path];
  },
  syntaxError(dir, random) {
    const path = pick(random, wowFiles(dir));
    replaceIn(path, dir, /\}\s*$/, () => "");
    return [path];
  },
  fixAll(dir) {
    // Puts every file back as generated: fixes whatever earlier edits broke.
    const before = new Set(wowFiles(dir));
    for (const path of before) unlinkSync(join(dir, path));
    writeProject(dir);
    return [...new Set([...before, ...wowFiles(dir)])];
  },
  cron(dir, random) {
    const path = pick(random, wowFiles(dir));
    replaceIn(path, dir, /cron = "([^"]*)"/, () => `cron = "0 ${Math.floor(random() * 60)} 6 * * *"`);
    return [path];
  },
  addFile(dir, random) {
    const name = `added-${Math.floor(random() * 1e6)}`;
    const path = `extra/${name}.wow`;
    mkdirSync(join(dir, "extra"), { recursive: true });
    writeFileSync(join(dir, path), `context ${pick(random, ["extra", "ctx-0", "eshop-order"])}\n\naggregate A${name.replace("-", "")} {\n  command Go { a: int }\n  event Went { a: int }\n  @OnCommand(produces = [Went])\n  on Go\n}\n`);
    return [path];
  },
  crossService(dir, random) {
    // A handler whose parameter is a service of another context: its generated type carries that
    // service's doc comment.
    const path = `extra/uses-${Math.floor(random() * 1e6)}.wow`;
    mkdirSync(join(dir, "extra"), { recursive: true });
    writeFileSync(join(dir, path), `context extra\n\naggregate U${path.length}${Math.floor(random() * 1e6)} {\n  command Use {}\n  event Used {}\n  @OnCommand(produces = [Used])\n  on Use(policy: ctx-0.PaymentPolicy0)\n}\n`);
    return [path];
  },
  serviceDoc(dir, random) {
    const path = "ctx-0/pair-0.wow";
    replaceIn(path, dir, /\/\*\* Host-provided: how long[^*]*\*\//, () => `/** Host-provided, edited ${Math.floor(random() * 1e6)}. */`);
    return [path];
  },
  deleteFile(dir, random) {
    const path = pick(random, wowFiles(dir));
    rmSync(join(dir, path));
    return [path];
  },
  moveContext(dir, random) {
    const path = pick(random, wowFiles(dir));
    replaceIn(path, dir, /^context (\S+)/m, () => `context ${pick(random, ["ctx-0", "ctx-1", "moved", "eshop-inventory"])}`);
    return [path];
  },
};

/** A build from nothing of `dir` (into `dir/fresh`) gives what `incremental` gave. */
function expectFreshEqual(dir: string, incremental: BuildResult, label: string): void {
  rmSync(join(dir, "fresh"), { recursive: true, force: true });
  const fresh = build({ root: dir, outDir: join(dir, "fresh"), write: true });
  expect(summary(incremental), label).toEqual(summary(fresh));
  if (fresh.diagnostics.some((d) => d.severity === "error")) return;
  const mine = outputs(join(dir, "generated"));
  const theirs = outputs(join(dir, "fresh"));
  expect([...mine.keys()].sort(), label).toEqual([...theirs.keys()].sort());
  for (const [path, text] of theirs) expect(mine.get(path), `${label}: ${path}`).toBe(text);
}

describe("incremental builds equal builds from nothing", () => {
  it("after edits that other contexts read: a service doc, an event they handle renamed", () => {
    const random = mulberry32(7);
    const dir = scratchDir("wowc-incremental-");
    writeProject(dir);
    const builder = new Builder({ root: dir, outDir: join(dir, "generated"), write: true });
    builder.run();
    const renameReadEvent: Edit = () => {
      // ctx-2's first saga handles ctx-1.OrderCreated10.
      replaceIn("ctx-1/pair-10.wow", dir, /\bOrderCreated10\b/g, () => "OrderCreated10b");
      return ["ctx-1/pair-10.wow"];
    };
    for (const [name, edit] of [["crossService", edits.crossService!], ["serviceDoc", edits.serviceDoc!], ["renameReadEvent", renameReadEvent], ["serviceDoc", edits.serviceDoc!]] as const) {
      const touched = edit(dir, random);
      expectFreshEqual(dir, builder.run(new Set(touched)), name);
    }
  });

  it("after edits of value types and enums that another context's body schemas copy, through a third context", () => {
    const dir = scratchDir("wowc-incremental-");
    writeFileSync(join(dir, "a.wow"), "context a\n\ntype Money { amount: decimal, currency: b.Currency }\n");
    writeFileSync(join(dir, "b.wow"), "context b\n\nenum Currency { EUR, USD }\n");
    writeFileSync(join(dir, "c.wow"), "context c\n\naggregate Till {\n  state { n: int }\n  @CreateAggregate\n  command Pay { money: a.Money }\n  event Paid {}\n  @OnCommand(produces = [Paid])\n  on Pay\n}\n");
    const builder = new Builder({ root: dir, outDir: join(dir, "generated"), write: true });
    expect(builder.run().diagnostics).toEqual([]);
    const till = () => readFileSync(join(dir, "generated/c/aggregates.ts"), "utf8");
    expect(till()).toContain('"b.Currency":{"enum":["EUR","USD"]}');
    // c's schema copies b's enum through a's type: neither a nor c is checked again, yet c's file follows.
    writeFileSync(join(dir, "b.wow"), "context b\n\nenum Currency { EUR, USD, GBP }\n");
    expectFreshEqual(dir, builder.run(new Set(["b.wow"])), "an enum member added");
    expect(till()).toContain('"b.Currency":{"enum":["EUR","USD","GBP"]}');
    writeFileSync(join(dir, "a.wow"), "context a\n\ntype Money {\n  /** In cents. */\n  amount: long\n  currency: b.Currency\n}\n");
    expectFreshEqual(dir, builder.run(new Set(["a.wow"])), "a field's type and doc changed");
    expect(till()).toContain('"description":"In cents."');
  });

  for (const seed of [1, 2, 3]) {
    it(`seed ${seed}: 14 random edits, each rebuild compared with a fresh build`, () => {
      const random = mulberry32(seed);
      const dir = scratchDir("wowc-incremental-");
      writeProject(dir);
      const builder = new Builder({ root: dir, outDir: join(dir, "generated"), write: true });
      const initial = builder.run();
      expect(initial.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
      const names = Object.keys(edits);
      let reused = 0;
      for (let step = 0; step < 14; step++) {
        const name = step % 4 === 3 ? "fixAll" : pick(random, names);
        const touched = edits[name]!(dir, random);
        const incremental = builder.run(new Set(touched));
        if (builder.lastWork.checked < incremental.model.contexts.length) reused++;
        expectFreshEqual(dir, incremental, `seed ${seed}, step ${step} (${name} ${touched.join(" ")})`);
      }
      // The point of it: most rebuilds re-checked only some of the contexts.
      expect(reused).toBeGreaterThan(5);
    });
  }

  it("a rebuild after one edit re-parses one file and re-checks only the contexts it reaches", () => {
    const dir = scratchDir("wowc-incremental-");
    writeProject(dir);
    const builder = new Builder({ root: dir, write: true });
    const initial = builder.run();
    const contexts = initial.model.contexts.length;
    expect(builder.lastWork).toEqual({ parsed: initial.files.length, bound: contexts, checked: contexts });
    // ctx-1 is read by ctx-2 (a saga there handles an event of ctx-1), and by no other context.
    const path = wowFiles(dir).find((p) => p.startsWith("ctx-1/pair-10."))!;
    // A doc comment: what ctx-2 sees of ctx-1 is unchanged, so ctx-2 keeps its results.
    replaceIn(path, dir, /\n(\s*)command /, (m) => `\n/** A doc. */${m}`);
    const result = builder.run(new Set([path]));
    expect(builder.lastWork).toEqual({ parsed: 1, bound: 1, checked: 1 });
    expect(result.output.changed).toEqual(expect.arrayContaining(["wow-manifest.json"]));
    // The positions below the doc moved: the sources file beside the manifest follows; the doc is a description in openapi.json.
    const followers = ["wow-manifest.json", "wow-manifest.sources.json", "openapi.json", "client.ts"];
    expect(result.output.changed.every((p) => followers.includes(p) || p.startsWith("ctx-1/"))).toBe(true);
    // Nothing changed: nothing parsed, checked or written.
    const again = builder.run(new Set([path]));
    expect(builder.lastWork).toEqual({ parsed: 0, bound: 0, checked: 0 });
    expect(again.output).toEqual({ changed: [], removed: [] });
    // A new event in ctx-1 changes what ctx-2 sees: both are checked again.
    replaceIn(path, dir, /\n(\s*)event /, (m) => `\n  event Added {}${m}`);
    builder.run(new Set([path]));
    expect(builder.lastWork).toEqual({ parsed: 1, bound: 1, checked: 2 });
  });
});

describe("a source that is not UTF-8 (WOW6004)", () => {
  it("is reported on every rebuild until it is saved as UTF-8, not only when it was read", () => {
    const dir = scratchDir("wowc-incremental-");
    writeFileSync(join(dir, "a.wow"), Buffer.concat([Buffer.from("context a\n/** caf"), Buffer.from([0xe9]), Buffer.from(" */\ntype T { x: int }\n")]));
    writeFileSync(join(dir, "b.wow"), "context b\ntype U { y: int }\n");
    const builder = new Builder({ root: dir, write: true });
    const codes = (result: BuildResult) => result.diagnostics.map((d) => `${d.loc?.file.path}:${d.code}`);
    expect(codes(builder.run())).toEqual(["a.wow:WOW6004"]);
    writeFileSync(join(dir, "b.wow"), "context b\ntype U { y: long }\n");
    const other = builder.run(new Set(["b.wow"]));
    expect(builder.lastWork.parsed).toBe(1);
    expect(codes(other)).toEqual(["a.wow:WOW6004"]);
    expect(other.wrote).toBe(false);
    writeFileSync(join(dir, "a.wow"), "context a\n/** café */\ntype T { x: int }\n");
    const fixed = builder.run(new Set(["a.wow"]));
    expect(codes(fixed)).toEqual([]);
    expect(fixed.wrote).toBe(true);
  });
});

describe("incremental completeness", () => {
  it("an event that stops being produced from another context is reported in its own, unchanged context", () => {
    const a = { path: "a.wow", text: "context a\n\naggregate A {\n  command Do {}\n  event Done {}\n  @OnCommand(produces = [Done])\n  on Do\n  event Other {}\n}\n" };
    const b = (produces: string) => ({ path: "b.wow", text: `context b\n\naggregate B {\n  command Go {}\n  event Went {}\n  @OnCommand(produces = [${produces}])\n  on Go\n}\n` });
    const program = new IncrementalProgram();
    const codes = (sources: { path: string; text: string }[]) =>
      program.compile(sources, { manifest: false }).diagnostics.map((d) => `${d.loc?.file.path} ${d.code}`);
    // b wrongly produces a.Other (WOW3009): a.Other counts as produced, so no WOW3008 in a.
    expect(codes([a, b("Went, a.Other")])).toEqual(["b.wow WOW3009"]);
    // b changes, a does not: a is not re-checked, but its completeness is.
    expect(codes([a, b("Went")])).toEqual(["a.wow WOW3008"]);
    expect(program.lastWork.checked).toBe(1);
  });
});

describe("incremental names across contexts", () => {
  it("two contexts the SDK would name alike are reported while both exist, and not after a rename", () => {
    const file = (path: string, context: string) => ({ path, text: `context ${context}

type Money { amount: decimal }
` });
    const program = new IncrementalProgram();
    const codes = (sources: { path: string; text: string }[]) =>
      program.compile(sources, { manifest: false }).diagnostics.map((d) => `${d.loc?.file.path} ${d.code}`);
    expect(codes([file("a.wow", "order-2"), file("b.wow", "billing")])).toEqual([]);
    // Only b.wow changes: a stays bound as it was, and the clash is still seen.
    expect(codes([file("a.wow", "order-2"), file("b.wow", "order2")])).toEqual(["b.wow WOW3023"]);
    expect(program.lastWork.bound).toBe(1);
    expect(codes([file("a.wow", "order-2"), file("b.wow", "order-two")])).toEqual([]);
  });

  it("two jobs whose environment variables meet are reported while both exist, across contexts", () => {
    const file = (path: string, context: string, job: string) => ({
      path,
      text: `context ${context}\n\nsaga Sweeper${context} {\n  @OnSchedule(name = "${job}", cron = "0 0 0 * * *")\n  job sweep\n}\n`,
    });
    const program = new IncrementalProgram();
    const codes = (sources: { path: string; text: string }[]) =>
      program.compile(sources, { manifest: false }).diagnostics.map((d) => `${d.loc?.file.path} ${d.code}`);
    expect(codes([file("a.wow", "a", "nightly"), file("b.wow", "b", "weekly")])).toEqual([]);
    // Only b.wow changes and only b is re-checked, yet its job now meets a's (keys "nightly" and "Nightly").
    expect(codes([file("a.wow", "a", "nightly"), file("b.wow", "b", "Nightly")])).toEqual(["b.wow WOW4009"]);
    expect(program.lastWork.checked).toBe(1);
    expect(codes([file("a.wow", "a", "nightly"), file("b.wow", "b", "weekly")])).toEqual([]);
  });
});
