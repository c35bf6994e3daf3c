// Build-level diagnostics and writing the manifest only when it changed.
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { build } from "../../compiler/program/build.js";
import { buildCases, tempDir } from "./build-cases.js";
import { textOf } from "../../compiler/emit/emit.js";
import { positionOf } from "../../compiler/diagnostics/line-map.js";

describe("build", () => {
  for (const c of buildCases) {
    it(`${c.code}: ${c.title}`, () => {
      const result = c.run();
      expect(result.diagnostics.map((d) => d.code)).toContain(c.code);
      const d = result.diagnostics.find((x) => x.code === c.code)!;
      if (c.at === undefined) expect(d.loc).toBeUndefined();
      else expect(d.loc && `${d.loc.file.path}:${positionOf(d.loc.file, d.loc.start).line}:${positionOf(d.loc.file, d.loc.start).column}`).toBe(c.at);
      expect(d.hint).toBeTruthy();
    });
  }

  it("a file that is not UTF-8 gets WOW6004, not also an unexpected character for each byte the decoder replaced", () => {
    const root = tempDir();
    writeFileSync(join(root, "a.wow"), Buffer.concat([Buffer.from("context shop\ntype Caf"), Buffer.from([0xe9]), Buffer.from(" { a: int }\ntype Cr"), Buffer.from([0xe8]), Buffer.from("me { b: int } %\n")]));
    const codes = build({ root, write: false }).diagnostics.map((d) => `${d.code} ${positionOf(d.loc!.file, d.loc!.start).line}:${positionOf(d.loc!.file, d.loc!.start).column}`);
    expect(codes).toEqual(["WOW6004 2:9", "WOW1002 3:9", "WOW1001 3:23"]);
  });

  it("writes the manifest only when its content changed, and never with errors", () => {
    const root = tempDir();
    writeFileSync(join(root, "shop.wow"), "context shop\naggregate A {\n  command C {}\n  event E {}\n  @OnCommand(produces = [E])\n  on C\n}\n");
    const first = build({ root, write: true });
    expect(first.wrote).toBe(true);
    const path = join(root, "generated", "wow-manifest.json");
    const before = statSync(path).mtimeMs;
    const second = build({ root, write: true });
    expect(second.wrote).toBe(false);
    expect(statSync(path).mtimeMs).toBe(before);
    writeFileSync(join(root, "shop.wow"), "context shop\naggregate A {\n  command C {}\n}\n");
    const broken = build({ root, write: true });
    expect(broken.wrote).toBe(false);
    expect(broken.diagnostics.map((d) => d.code)).toEqual(["WOW3007"]);
    expect(readFileSync(path, "utf8")).toBe(textOf(first.manifestFile!));
  });

  it("skips node_modules, hidden directories and the output directory", () => {
    const root = tempDir();
    const good = "context shop\nservice Clock\n";
    writeFileSync(join(root, "a.wow"), good);
    for (const dir of ["node_modules", ".hidden", "out"]) {
      mkdirSync(join(root, dir));
      writeFileSync(join(root, dir, "bad.wow"), "this is not wow");
    }
    const result = build({ root, outDir: join(root, "out"), write: false });
    expect(result.sourceCount).toBe(1);
    expect(result.diagnostics).toEqual([]);
  });
});
