// The names the binder reserves for each declaration's generated code (compiler/binder/sdk-names.ts,
// behind WOW2012) are exactly the names each context's generated module exports: if a template adds
// or renames an export, this fails until the rule follows, so WOW2012 keeps catching every clash.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { bindContext, groupByContext } from "../../compiler/binder/bind.js";
import { rootSdkNames, sdkNames } from "../../compiler/binder/sdk-names.js";
import { Reporter } from "../../compiler/diagnostics/reporter.js";
import { compileSources } from "../../compiler/program/compile.js";
import { contextFolder } from "../../compiler/emit/imports.js";
import type { SourceFile } from "../../compiler/ast.js";
import { ESHOP, generate, readWowSources, REPO } from "./helpers.js";

const projects: Record<string, SourceFile[]> = {
  eshop: readWowSources(ESHOP),
  hostile: [{ path: "hostile.wow", text: readFileSync(join(REPO, "test/emit/fixtures/hostile.wow"), "utf8") }],
};

/** The names a generated module declares at its top level with `export`. */
function exportedNames(text: string): string[] {
  return [...text.matchAll(/^export (?:const|interface|type|function) ([A-Za-z_$][\w$]*)/gm)].map((m) => m[1]!);
}

describe("the names the SDK gives each declaration", () => {
  for (const [project, sources] of Object.entries(projects)) {
    it(`are the names each context of ${project} exports`, () => {
      const files = generate(sources);
      const groups = [...groupByContext(compileSources(sources, { manifest: false }).files)];
      expect(groups.length).toBeGreaterThan(0);
      for (const scope of groups.map(([name, group]) => bindContext(name, group, new Reporter()))) {
        const folder = `${contextFolder(scope.name)}/`;
        const exported = files.filter((f) => f.path.startsWith(folder) && !f.path.endsWith("index.ts")).flatMap((f) => exportedNames(f.text));
        const reserved = [...scope.symbols.values()].flatMap((symbol) => sdkNames(symbol).map((given) => given.name));
        expect(new Set(exported), scope.name).toEqual(new Set(reserved));
        // An enum, a command and an event export their own name twice (a value and a type); nothing else repeats.
        const twice = [...scope.symbols.values()].filter((s) => s.kind === "Enum" || s.kind === "Command" || s.kind === "Event").length;
        expect(exported.length - new Set(exported).size, scope.name).toBe(twice);
      }
    });
  }
});

describe("the names the SDK's root module exports of its own", () => {
  it("are the names a context may not take (WOW3025)", () => {
    const files = generate(projects.eshop!);
    const text = (path: string): string => files.find((f) => f.path === path)!.text;
    /** The names of `export { a, type B } from "…"` and `export type { … }` lines, optionally only those from `from`. */
    const listed = (source: string, from?: string): string[] =>
      [...source.matchAll(/^export (?:type )?\{([^}]*)\}(?: from "([^"]+)")?/gm)]
        .filter((m) => from === undefined || m[2] === from)
        .flatMap((m) => m[1]!.split(",").map((n) => n.trim().replace(/^type /, "")))
        .filter((n) => n !== "");
    const index = text("index.ts");
    expect(index).toContain(`export * from "./sdk.js";`);
    const sdk = [...exportedNames(text("sdk.ts")), ...listed(text("sdk.ts"))];
    const config = listed(index, "./config.js");
    const client = listed(index, "./client.js");
    expect(new Set([...sdk, ...config, ...client])).toEqual(new Set(rootSdkNames));
    // The root re-exports every export of config.ts but the job keys that the sagas' registrations read there.
    expect(new Set([...config, "jobConfigKeys"])).toEqual(new Set(exportedNames(text("config.ts"))));
  });
});
