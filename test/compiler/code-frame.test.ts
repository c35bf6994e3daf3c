// The code frame under each text diagnostic: the span's line, with `~` under the span. A long line
// (minified, generated or mangled) is shown as a window around the span, so that thousands of errors
// on one line print in linear, not quadratic, space.
import { describe, expect, it } from "vitest";
import { formatDiagnostics } from "../../compiler/diagnostics/format.js";
import { compileSources } from "../../compiler/program/compile.js";

function frames(text: string): string[] {
  const out = formatDiagnostics(compileSources([{ path: "a.wow", text }]).diagnostics, { summary: false });
  return [...out.matchAll(/ - error [^\n]*\n\n([^\n]*\n[^\n]*)\n/g)].map((m) => m[1]!);
}

describe("code frames", () => {
  it("show a short line whole", () => {
    expect(frames("context shop\ntype T { x: strng }\n")).toEqual(["2 type T { x: strng }\n              ~~~~~"]);
  });

  it("cut a long line to a window around the span, marked … where cut, with the marker under the span", () => {
    const text = `context shop\n${"x".repeat(300)} type U { b: nope } ${"y".repeat(300)}\n`;
    const [, unknown] = frames(text);
    const [line, marker] = unknown!.split("\n");
    expect(line!.length).toBeLessThanOrEqual(2 + 1 + 120 + 1);
    expect(line).toMatch(/^2 …x+ type U \{ b: nope \} y+…$/);
    expect(line!.slice(marker!.indexOf("~"), marker!.lastIndexOf("~") + 1)).toBe("nope");
  });

  it("keep the output linear in the number of errors on one long line", () => {
    // Characters the lexer refuses, each its own error (syntax errors stop at MAX_SYNTAX_ERRORS).
    const text = `context shop\ntype T { a: int } ${"# ".repeat(3000)}\n`;
    const { diagnostics } = compileSources([{ path: "a.wow", text }]);
    expect(diagnostics.length).toBeGreaterThan(1000);
    const out = formatDiagnostics(diagnostics);
    // Each error prints its message, at most a 120-character window twice and its hint.
    expect(out.length).toBeLessThan(diagnostics.length * 600);
  });
});
