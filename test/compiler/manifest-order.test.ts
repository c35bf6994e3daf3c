// The manifest builder writes every object's keys in sorted order, so the build prints each
// context's fragment as it stands (orderedJsonNested) without canonicalJson's walk: over every
// error-free `.wow` program of the repository (each directory's files together), each fragment
// printed as built is its canonical JSON.
import { readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { manifestContext } from "../../compiler/manifest/build-manifest.js";
import { canonicalJson } from "../../compiler/manifest/json.js";
import { compileSources } from "../../compiler/program/compile.js";
import { filesUnder } from "../support/files.js";

const repo = fileURLToPath(new URL("../../", import.meta.url));
const sources = [...filesUnder(join(repo, "test"), (name) => name === "node_modules"), ...filesUnder(join(repo, "examples"), (name) => name === "node_modules" || name === "generated")].filter((path) => path.endsWith(".wow"));
const byDir = new Map<string, string[]>();
for (const path of sources) byDir.set(dirname(path), [...(byDir.get(dirname(path)) ?? []), path]);

describe("the manifest's fragments, as built", () => {
  it("are their canonical JSON in every program of the repository", () => {
    let contexts = 0;
    const unordered: string[] = [];
    for (const [dir, paths] of byDir) {
      const result = compileSources(paths.map((path) => ({ path: relative(repo, path), text: readFileSync(path, "utf8") })));
      if (result.diagnostics.some((d) => d.severity === "error")) continue;
      for (const context of result.model.contexts) {
        contexts++;
        const fragment = manifestContext(context);
        if (`${JSON.stringify(fragment, null, 2)}\n` !== canonicalJson(fragment)) unordered.push(`${relative(repo, dir)}: ${context.name}`);
      }
    }
    expect(unordered).toEqual([]);
    // The corpus holds the example and the diff fixtures (run policies, retries, jobs): not a vacuous pass.
    expect(contexts).toBeGreaterThan(50);
  });
});
