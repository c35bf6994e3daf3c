// Robustness: thousands of inputs made by mutating the example files (deleting, duplicating and
// swapping tokens and lines, truncating, inserting random bytes; seeded) go through the whole
// pipeline and the CLI: no throw, exit 0 or 1, and every diagnostic points inside its file.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCli } from "../../compiler/cli/run-cli.js";
import { tempDir } from "./build-cases.js";
import { describe, expect, it } from "vitest";
import type { SourceFile } from "../../compiler/ast.js";
import { positionOf } from "../../compiler/diagnostics/line-map.js";
import { formatDiagnostics } from "../../compiler/diagnostics/format.js";
import { compileSources } from "../../compiler/program/compile.js";

const dir = new URL("../../examples/eshop/", import.meta.url);
const originals: SourceFile[] = readdirSync(dir)
  .filter((f) => f.endsWith(".wow"))
  .sort()
  .map((path) => ({ path, text: readFileSync(new URL(path, dir), "utf8") }));

/** mulberry32: a small seeded PRNG. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const tokenPattern = /[A-Za-z_][A-Za-z0-9_-]*|"(?:[^"\\\n]|\\.)*"|\/\*[\s\S]*?\*\/|\/\/[^\n]*|\s+|./g;
const junk = ["@", "{", "}", "(", ")", "[", "]", ",", "=", ".", "?", ":", '"', "\\", "/*", "*/", "\u0000", "\uFEFF", "é", "😀", "\r", "\t", "\n", "-", "on", "job", "context", "#"];

function mutate(text: string, random: () => number): string {
  const pick = <T,>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const kind = Math.floor(random() * 8);
  if (kind <= 3) {
    const tokens = text.match(tokenPattern) ?? [];
    if (tokens.length === 0) return text;
    const i = Math.floor(random() * tokens.length);
    const j = Math.floor(random() * tokens.length);
    if (kind === 0) tokens.splice(i, 1);
    else if (kind === 1) tokens.splice(i, 0, tokens[i]);
    else if (kind === 2) [tokens[i], tokens[j]] = [tokens[j], tokens[i]];
    else tokens.splice(i, 0, pick(junk));
    return tokens.join("");
  }
  if (kind <= 5) {
    const lines = text.split("\n");
    const i = Math.floor(random() * lines.length);
    const j = Math.floor(random() * lines.length);
    if (kind === 4) random() < 0.5 ? lines.splice(i, 1) : lines.splice(i, 0, lines[j]);
    else [lines[i], lines[j]] = [lines[j], lines[i]];
    return lines.join("\n");
  }
  if (kind === 6) return text.slice(0, Math.floor(random() * text.length));
  const at = Math.floor(random() * text.length);
  const bytes = Array.from({ length: 1 + Math.floor(random() * 4) }, () => String.fromCharCode(Math.floor(random() * 256))).join("");
  return text.slice(0, at) + bytes + text.slice(at);
}

describe("robustness", () => {
  it("survives 2,400 mutated builds", () => {
    const random = prng(20240601);
    let withErrors = 0;
    for (let run = 0; run < 2400; run++) {
      const files = originals.map((file) => ({ ...file }));
      const rounds = 1 + Math.floor(random() * 3);
      for (let r = 0; r < rounds; r++) {
        const target = Math.floor(random() * files.length);
        files[target] = { path: files[target].path, text: mutate(files[target].text, random) };
      }
      let result;
      try {
        result = compileSources(files);
        formatDiagnostics(result.diagnostics, { format: run % 2 === 0 ? "text" : "json" });
      } catch (error) {
        throw new Error(`run ${run} threw ${String(error)} on:\n${files.map((f) => `--- ${f.path}\n${f.text}`).join("\n")}`);
      }
      if (result.diagnostics.some((d) => d.severity === "error")) withErrors++;
      for (const d of result.diagnostics) {
        expect(d.loc, `${d.code} has a location (run ${run})`).toBeDefined();
        const { file, start, end } = d.loc!;
        expect(start >= 0 && start <= end && end <= file.text.length, `${d.code} span inside the file (run ${run})`).toBe(true);
        const lines = file.text.split(/\r\n|\r|\n/);
        const { line, column } = positionOf(file, start);
        expect(line >= 1 && line <= lines.length && column >= 1 && column <= lines[line - 1].length + 1, `${d.code} line/column inside (run ${run})`).toBe(true);
      }
    }
    expect(withErrors).toBeGreaterThan(1000);
  });

  it("the CLI exits 0 or 1 on 200 more mutated projects, never 2", async () => {
    const random = prng(7);
    const root = tempDir();
    for (let run = 0; run < 200; run++) {
      for (const file of originals) writeFileSync(join(root, file.path), random() < 0.7 ? mutate(file.text, random) : file.text);
      let stderr = "";
      const code = await runCli(["build", root, "--format", run % 2 === 0 ? "json" : "text"], {
        stdout: () => {},
        stderr: (t) => void (stderr += t),
        cwd: root,
      });
      expect([0, 1], `run ${run}: ${stderr}`).toContain(code);
    }
  });
});
