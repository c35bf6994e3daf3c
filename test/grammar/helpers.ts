// Shared helpers of the grammar tests: inline sources, example files, line/column of diagnostics.
import { readFileSync } from "node:fs";
import type { SourceFile } from "../../compiler/ast.js";
import type { Diagnostic } from "../../compiler/diagnostics/diagnostic.js";
import { parseFile, type ParsedFile } from "../../compiler/parse/parse-file.js";

export function source(text: string, path = "test.wow"): SourceFile {
  return { path, text };
}

export function parse(text: string): ParsedFile {
  return parseFile(source(text));
}

export function example(name: "order" | "inventory"): SourceFile {
  const text = readFileSync(new URL(`../../examples/eshop/${name}.wow`, import.meta.url), "utf8");
  return { path: `examples/eshop/${name}.wow`, text };
}

/** 1-based line and column of an offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/** `CODE@line:column` of each diagnostic, for compact assertions. */
export function codes(text: string, diagnostics: readonly Diagnostic[]): string[] {
  return diagnostics.map((d) => {
    const at = lineColumn(text, d.loc?.start ?? 0);
    return `${d.code}@${at.line}:${at.column}`;
  });
}

/** The source text a location covers. */
export function slice(file: SourceFile, loc: { start: number; end: number }): string {
  return file.text.slice(loc.start, loc.end);
}
