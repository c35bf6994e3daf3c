// Test helpers: compile inline sources in memory and look at the diagnostics as `CODE line:col`.
import type { SourceFile } from "../../compiler/ast.js";
import type { Diagnostic } from "../../compiler/diagnostics/diagnostic.js";
import { positionOf } from "../../compiler/diagnostics/line-map.js";
import { compileSources, type CompileResult } from "../../compiler/program/compile.js";

/** Removes the first new line and the indentation common to every line, so sources can be indented in tests. */
export function dedent(text: string): string {
  const lines = text.replace(/^\n/, "").replace(/\n[ \t]*$/, "\n").split("\n");
  const indent = Math.min(...lines.filter((l) => l.trim() !== "").map((l) => /^[ \t]*/.exec(l)![0].length));
  return lines.map((l) => l.slice(Number.isFinite(indent) ? indent : 0)).join("\n");
}

/** Sources as `{ path: text }`, or one text (then `main.wow`). */
export type Sources = string | Readonly<Record<string, string>>;

export function sourceFiles(sources: Sources): SourceFile[] {
  const entries = typeof sources === "string" ? [["main.wow", sources] as const] : Object.entries(sources);
  return entries.map(([path, text]) => ({ path, text: dedent(text) }));
}

export function compile(sources: Sources): CompileResult {
  return compileSources(sourceFiles(sources));
}

/** `WOW2001 3:18` (with the file when there are several: `b.wow WOW2001 3:18`). */
export function describe(diagnostic: Diagnostic, withFile = false): string {
  if (diagnostic.loc === undefined) return diagnostic.code;
  const { line, column } = positionOf(diagnostic.loc.file, diagnostic.loc.start);
  return `${withFile ? `${diagnostic.loc.file.path} ` : ""}${diagnostic.code} ${line}:${column}`;
}

/** Every diagnostic of the sources, as `CODE line:col`, sorted. */
export function diagnose(sources: Sources): string[] {
  const multi = typeof sources !== "string" && Object.keys(sources).length > 1;
  return compile(sources).diagnostics.map((d) => describe(d, multi));
}
