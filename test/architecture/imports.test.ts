// Which way the imports of grammar/, compiler/ and runtime/ run: no file-level circle, no edge the
// tables below forbid. Every import counts (type-only ones and `import("…")` too); a computed
// `import(x)`, which no reader can follow, must be listed with its reason.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { circles, describeViolation, importGraph, importsOf, tsFiles, type ImportGraph, type Violation } from "./import-graph.js";

/** The runtime's modules the compiler may import: data the runtime owns (the cron engine, the route and duration grammars, the config sections). */
const compilerMayImportFromRuntime: readonly string[] = ["runtime/cron/", "runtime/model/command-route.ts", "runtime/model/duration.ts", "runtime/config/runtime-sections.ts", "runtime/config/config-keys.ts"];

/** What grammar/ may import besides itself and node's built-ins. */
const grammarPackages: readonly string[] = ["chevrotain"];

/** Folders the runtime never imports (nor names a file of: a path into templates/ in a string). */
const runtimeMayNotReach: readonly string[] = ["compiler/", "grammar/", "templates/", "console/"];

/** What the console's front end (console/src/) may import besides itself: it runs in a browser. */
const consolePackages: readonly string[] = ["preact"];

/**
 * The compiler's layers, lowest first. A module imports its own layer and those below; an import up
 * fails. `base` holds what every layer shares (the syntax tree's types, case conversions, where the
 * package's files are). A path ending in `/` is a folder.
 */
const compilerLayers: readonly { readonly layer: string; readonly paths: readonly string[] }[] = [
  { layer: "base", paths: ["compiler/ast.ts", "compiler/case.ts", "compiler/package-root.ts"] },
  { layer: "diagnostics", paths: ["compiler/diagnostics/"] },
  { layer: "parse", paths: ["compiler/parse/"] },
  { layer: "binder", paths: ["compiler/binder/"] },
  { layer: "checker", paths: ["compiler/checker/", "compiler/model.ts"] },
  { layer: "views", paths: ["compiler/manifest/", "compiler/emit/", "compiler/format/", "compiler/host-check/"] },
  { layer: "program", paths: ["compiler/program/"] },
  { layer: "tools", paths: ["compiler/diff/", "compiler/watch/", "compiler/init/", "compiler/lsp/"] },
  { layer: "cli", paths: ["compiler/cli/", "compiler/index.ts"] },
];

/** The runtime's layers, lowest first, as the compiler's: an import up fails. */
const runtimeLayers: readonly { readonly layer: string; readonly paths: readonly string[] }[] = [
  { layer: "model", paths: ["runtime/model/", "runtime/clock.ts"] },
  { layer: "cron", paths: ["runtime/cron/"] },
  { layer: "config", paths: ["runtime/config/"] },
  { layer: "loop", paths: ["runtime/loop/"] },
  { layer: "store", paths: ["runtime/store/"] },
  { layer: "ops", paths: ["runtime/ops/"] },
  { layer: "cluster", paths: ["runtime/cluster/"] },
  { layer: "processing", paths: ["runtime/processing/"] },
  { layer: "delivery", paths: ["runtime/timers/", "runtime/subscriptions/"] },
  { layer: "handlers", paths: ["runtime/sagas/", "runtime/jobs/"] },
  { layer: "http", paths: ["runtime/http/"] },
  { layer: "hosting", paths: ["runtime/hosting/"] },
  { layer: "testing", paths: ["runtime/testing/", "runtime/index.ts"] },
];

/** `import(x)` with a computed specifier, by file, with why it is one. */
const computedImports: Readonly<Record<string, string>> = {
  "grammar/chevrotain.ts": "Chevrotain's single-file bundle, found next to its entry point (import.meta.resolve)",
};

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

const under = (path: string, prefix: string): boolean => (prefix.endsWith("/") ? path.startsWith(prefix) : path === prefix);

function layerOf(file: string, layers = compilerLayers): number | undefined {
  const at = layers.findIndex((l) => l.paths.some((p) => under(file, p)));
  return at < 0 ? undefined : at;
}

/** Every import of `graph` that a table above forbids. */
function violations(graph: ImportGraph, texts: (file: string) => string): Violation[] {
  const out: Violation[] = [];
  for (const [from, imports] of graph) {
    const computed = computedImports[from] === undefined ? imports.computed : [];
    for (const expression of computed) out.push({ from, to: `import(${expression})`, why: "a computed import hides its edge; import a literal path or list it in computedImports" });
    if (from.startsWith("runtime/")) {
      for (const to of imports.files) if (runtimeMayNotReach.some((p) => to.startsWith(p))) out.push({ from, to, why: "the runtime never imports the compiler, the grammar or the templates" });
      const named = /["'`](?:\.\.?\/)+templates\//.exec(texts(from));
      if (named !== null) out.push({ from, to: "templates/", why: "the runtime never reads the templates" });
      const mine = layerOf(from, runtimeLayers);
      if (mine === undefined) out.push({ from, to: "(its layer)", why: "a runtime module outside every layer: add its folder to runtimeLayers" });
      for (const to of imports.files) {
        const theirs = to.startsWith("runtime/") ? layerOf(to, runtimeLayers) : undefined;
        if (mine !== undefined && theirs !== undefined && theirs > mine) out.push({ from, to, why: `an import up the layers, ${runtimeLayers[mine]!.layer} → ${runtimeLayers[theirs]!.layer}` });
      }
    } else if (from.startsWith("grammar/")) {
      for (const to of imports.files) if (!to.startsWith("grammar/")) out.push({ from, to, why: "the grammar imports only itself, chevrotain and node's built-ins" });
      for (const to of imports.packages) if (!to.startsWith("node:") && !grammarPackages.includes(to)) out.push({ from, to, why: "the grammar imports only itself, chevrotain and node's built-ins" });
    } else if (from.startsWith("compiler/")) {
      const mine = layerOf(from);
      if (mine === undefined) out.push({ from, to: "(its layer)", why: "a compiler module outside every layer: add its folder to compilerLayers" });
      for (const to of imports.files) {
        if (to.startsWith("runtime/")) {
          if (!compilerMayImportFromRuntime.some((p) => under(to, p))) out.push({ from, to, why: "the compiler imports from the runtime only the data it owns (compilerMayImportFromRuntime)" });
          continue;
        }
        if (!to.startsWith("compiler/")) continue;
        const theirs = layerOf(to);
        if (mine !== undefined && theirs !== undefined && theirs > mine) {
          out.push({ from, to, why: `an import up the layers, ${compilerLayers[mine]!.layer} → ${compilerLayers[theirs]!.layer}` });
        }
      }
    }
  }
  return out;
}

describe("the import graph of grammar/, compiler/ and runtime/", () => {
  const files = tsFiles(ROOT, ["grammar", "compiler", "runtime"]);
  const graph = importGraph(ROOT, files);
  const text = (file: string): string => readFileSync(join(ROOT, file), "utf8");

  it("resolves every relative import to a file of the repository", () => {
    const known = new Set(files);
    const missing = [...graph].flatMap(([from, imports]) => imports.files.filter((to) => !known.has(to) && !to.endsWith(".json")).map((to) => `${from} → ${to}`));
    expect(missing).toEqual([]);
  });

  it("has no import a rule forbids (runtime → compiler/grammar/templates, grammar → packages, compiler → runtime, compiler layers)", () => {
    expect(violations(graph, text).map(describeViolation)).toEqual([]);
  });

  it("has no circle in compiler/ and grammar/", () => {
    expect(circles(graph, files.filter((f) => !f.startsWith("runtime/")))).toEqual([]);
  });

  it("has no circle in runtime/", () => {
    expect(circles(graph, files.filter((f) => f.startsWith("runtime/")))).toEqual([]);
  });
});

describe("the console's front end", () => {
  it("is its own room: it imports only itself and Preact, and nothing of the package's imports it", () => {
    const sources: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
        const path = `${dir}/${entry.name}`;
        if (entry.isDirectory()) walk(path);
        else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts")) sources.push(path);
      }
    };
    walk("console/src");
    expect(sources.length).toBeGreaterThan(5);
    const out: string[] = [];
    for (const file of sources) {
      const imports = importsOf(file, readFileSync(join(ROOT, file), "utf8"));
      for (const to of imports.files) if (!to.startsWith("console/src/")) out.push(`${file} → ${to}`);
      for (const to of imports.packages) if (!consolePackages.includes(to)) out.push(`${file} → ${to}`);
    }
    expect(out).toEqual([]);
    const others = tsFiles(ROOT, ["grammar", "compiler", "runtime"]);
    const reaching = others.filter((file) => importsOf(file, readFileSync(join(ROOT, file), "utf8")).files.some((to) => to.startsWith("console/")));
    expect(reaching).toEqual([]);
  });
});

describe("the checks themselves, on a made-up graph", () => {
  const made = (sources: Record<string, string>): ImportGraph => new Map(Object.entries(sources).map(([file, source]) => [file, importsOf(file, source)]));

  it("find an import up the layers, a runtime module the compiler may not import, and a forbidden package", () => {
    const graph = made({
      "compiler/parse/a.ts": `import type { X } from "../checker/b.js";`,
      "compiler/checker/b.ts": `export const b = await import("../../runtime/http/routes.js");`,
      "grammar/c.ts": `import ts from "typescript"; import { readFileSync } from "fs"; import type { T } from "chevrotain";`,
      "runtime/d.ts": `type M = import("../compiler/model.js").ProgramModel; const t = "../templates/x.hbs";`,
      "compiler/e.ts": `const m = await import(name);`,
      "runtime/http/f.ts": `import type { WowHost } from "../hosting/create-host.js";`,
    });
    const texts: Record<string, string> = { "runtime/d.ts": `const t = "../templates/x.hbs";` };
    expect(violations(graph, (f) => texts[f] ?? "").map(describeViolation)).toEqual([
      "compiler/parse/a.ts → compiler/checker/b.ts: an import up the layers, parse → checker",
      "compiler/checker/b.ts → runtime/http/routes.ts: the compiler imports from the runtime only the data it owns (compilerMayImportFromRuntime)",
      "grammar/c.ts → typescript: the grammar imports only itself, chevrotain and node's built-ins",
      "runtime/d.ts → compiler/model.ts: the runtime never imports the compiler, the grammar or the templates",
      "runtime/d.ts → templates/: the runtime never reads the templates",
      "runtime/d.ts → (its layer): a runtime module outside every layer: add its folder to runtimeLayers",
      "compiler/e.ts → import(name): a computed import hides its edge; import a literal path or list it in computedImports",
      "compiler/e.ts → (its layer): a compiler module outside every layer: add its folder to compilerLayers",
      "runtime/http/f.ts → runtime/hosting/create-host.ts: an import up the layers, http → hosting",
    ]);
  });

  it("find each circle once, type-only imports included, as the way round it", () => {
    const graph = made({
      "compiler/a.ts": `import type { B } from "./b.js";`,
      "compiler/b.ts": `export { c } from "./c.js";`,
      "compiler/c.ts": `import "./a.js"; import "./d.js";`,
      "compiler/d.ts": ``,
      "compiler/e.ts": `import "./e.js";`,
    });
    expect(circles(graph, [...graph.keys()])).toEqual(["compiler/a.ts → compiler/b.ts → compiler/c.ts → compiler/a.ts", "compiler/e.ts → compiler/e.ts"]);
  });
});
