// `wow-manifest.sources.json` is printed from each context's list of positions (no record of every
// pointer is built for it): it is the canonical JSON of the record, also when one context's name
// starts another's (`a`, `a-b`: their pointers interleave) and when field indexes pass 9
// (`fields/10` sorts before `fields/2`).
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "../../compiler/manifest/json.js";
import { ManifestSources, PositionList, SOURCES_FILE_NAME } from "../../compiler/manifest/positions.js";
import { build } from "../../compiler/program/build.js";
import { tempDir } from "./build-cases.js";

const fields = Array.from({ length: 12 }, (_, i) => `f${i}: int`).join("\n  ");

function built(files: Record<string, string>): { text: string; positions: Record<string, string> } {
  const root = tempDir();
  for (const [path, text] of Object.entries(files)) writeFileSync(join(root, path), text);
  const result = build({ root, outDir: join(root, "out"), write: true });
  expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  return { text: readFileSync(join(root, "out", SOURCES_FILE_NAME), "utf8"), positions: result.sources!.positions() };
}

describe("the sources file", () => {
  it("is the canonical JSON of the positions, whatever order the contexts' pointers interleave in", () => {
    const { text, positions } = built({
      "a.wow": `context a\ntype Wide {\n  ${fields}\n}\n`,
      "ab.wow": `context a-b\ntype T { n: int }\n`,
      "z.wow": `context z\nenum E { X, Y }\n`,
    });
    expect(positions["/contexts/a/types/Wide/fields/10"]).toBe("a.wow:13");
    expect(positions["/contexts/a-b/types/T"]).toBe("ab.wow:2");
    expect(text).toBe(canonicalJson({ positions, root: ".." }));
    const keys = Object.keys(JSON.parse(text).positions);
    expect(keys).toEqual([...keys].sort());
  });

  it("keeps the last source of a pointer given twice, as a record does, and prints no context as an empty object", () => {
    const list = new PositionList();
    list.add("/b", "x.wow:2");
    list.add("/a", "x.wow:1");
    list.add("/b", "x.wow:3");
    expect(new ManifestSources([list]).fileText(".")).toBe(canonicalJson({ positions: { "/a": "x.wow:1", "/b": "x.wow:3" }, root: "." }));
    expect(new ManifestSources([]).fileText(".")).toBe(canonicalJson({ positions: {}, root: "." }));
  });
});
