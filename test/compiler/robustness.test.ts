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
import { mutateSource } from "../support/mutate-source.js";
import { mulberry32 } from "../support/random.js";
import { MAX_SYNTAX_ERRORS } from "../../grammar/parser.js";

const dir = new URL("../../examples/eshop/", import.meta.url);
const originals: SourceFile[] = readdirSync(dir)
  .filter((f) => f.endsWith(".wow"))
  .sort()
  .map((path) => ({ path, text: readFileSync(new URL(path, dir), "utf8") }));

describe("robustness", () => {
  it("survives 2,400 mutated builds", () => {
    const random = mulberry32(20240601);
    let withErrors = 0;
    for (let run = 0; run < 2400; run++) {
      const files = originals.map((file) => ({ ...file }));
      const rounds = 1 + Math.floor(random() * 3);
      for (let r = 0; r < rounds; r++) {
        const target = Math.floor(random() * files.length);
        const file = files[target]!;
        files[target] = { path: file.path, text: mutateSource(file.text, random) };
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
        expect(line >= 1 && line <= lines.length && column >= 1 && column <= lines[line - 1]!.length + 1, `${d.code} line/column inside (run ${run})`).toBe(true);
      }
    }
    expect(withErrors).toBeGreaterThan(1000);
  });

  it("survives lists nested thousands deep, closed or not (the parser recurses per level)", () => {
    for (const [open, close] of [[5000, 5000], [20000, 0], [70, 3]] as const) {
      const text = `context shop\n@OnEvent(commands = ${"[".repeat(open)}A${"]".repeat(close)})\ntype T { a: int }\n`;
      const codes = compileSources([{ path: "deep.wow", text }]).diagnostics.map((d) => d.code);
      expect(codes, `${open} [ and ${close} ]`).toContain("WOW1013");
    }
  });

  it("survives token soup: 200,000 random tokens once overflowed the stack (each recovery recursed), 1,000,000 stop at the error limit", () => {
    const random = mulberry32(1);
    const kinds = ["{", "}", "(", ")", "[", "]", ":", ",", "@", "=", "type", "aggregate", "on", "command", "x", '"s"', "1", ".", "?"];
    const soup = (count: number) => `context c\n${Array.from({ length: count }, () => kinds[Math.floor(random() * kinds.length)]).join(" ")}\n`;
    for (const count of [200_000, 1_000_000]) {
      const text = soup(count);
      let diagnostics;
      try {
        diagnostics = compileSources([{ path: "soup.wow", text }]).diagnostics;
      } catch (error) {
        throw new Error(`${count} tokens: threw ${String(error)}`);
      }
      const syntax = diagnostics.filter((d) => /^WOW1/.test(d.code));
      expect(syntax.length, `${count} tokens`).toBeGreaterThan(100);
      expect(syntax.length, `${count} tokens`).toBeLessThanOrEqual(MAX_SYNTAX_ERRORS + 1);
      if (count === 1_000_000) expect(syntax.at(-1)!.code).toBe("WOW1014");
    }
  });

  it("the CLI exits 0 or 1 on 200 more mutated projects, never 2, raw bytes that are not UTF-8 included", async () => {
    const random = mulberry32(7);
    const root = tempDir();
    let notUtf8 = 0;
    for (let run = 0; run < 200; run++) {
      for (const file of originals) {
        const text = random() < 0.7 ? mutateSource(file.text, random) : file.text;
        writeFileSync(join(root, file.path), random() < 0.2 ? withRawBytes(Buffer.from(text), random) : text);
      }
      let stdout = "";
      let stderr = "";
      const json = run % 2 === 0;
      const code = await runCli(["build", root, "--format", json ? "json" : "text"], {
        stdout: (t) => void (stdout += t),
        stderr: (t) => void (stderr += t),
        cwd: root,
      });
      expect([0, 1], `run ${run}: ${stderr}`).toContain(code);
      if (!json) continue;
      const { diagnostics } = JSON.parse(stdout) as { diagnostics: { code: string; file?: string; line?: number; column?: number }[] };
      for (const d of diagnostics.filter((x) => x.code === "WOW6004")) {
        notUtf8++;
        const lines = readFileSync(join(root, d.file!)).toString("utf8").split(/\r\n|\r|\n/);
        expect(d.line! >= 1 && d.line! <= lines.length && d.column! >= 1 && d.column! <= lines[d.line! - 1]!.length, `run ${run}: ${d.file}:${d.line}:${d.column}`).toBe(true);
      }
    }
    expect(notUtf8).toBeGreaterThan(5);
  });
});

/** `bytes` with 1-6 random bytes (0x80-0xFF among them, so often not UTF-8) inserted at a random place. */
function withRawBytes(bytes: Buffer, random: () => number): Buffer {
  const at = Math.floor(random() * (bytes.length + 1));
  const inserted = Buffer.from(Array.from({ length: 1 + Math.floor(random() * 6) }, () => Math.floor(random() * 256)));
  return Buffer.concat([bytes.subarray(0, at), inserted, bytes.subarray(at)]);
}
