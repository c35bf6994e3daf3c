// Offsets (UTF-16, what the compiler's locations hold) ↔ LSP positions (0-based line and UTF-16
// character). Lines end at `\n`, `\r\n` or a lone `\r`, as for the compiler's own line map
// (compiler/diagnostics/line-map.ts), whose line starts are shared.
import type { Position, Range } from "vscode-languageserver";
import type { Location, SourceFile } from "../ast.js";
import { lineStarts, positionOf } from "../diagnostics/line-map.js";

export function toPosition(file: SourceFile, offset: number): Position {
  const { line, column } = positionOf(file, offset);
  return { line: line - 1, character: column - 1 };
}

export function toRange(loc: Location): Range {
  return { start: toPosition(loc.file, loc.start), end: toPosition(loc.file, Math.max(loc.start, loc.end)) };
}

/** The offset of `position` in `file`, clamped to its line (a character past the end is the line's end). */
export function toOffset(file: SourceFile, position: Position): number {
  const starts = lineStarts(file);
  if (position.line < 0) return 0;
  if (position.line >= starts.length) return file.text.length;
  const start = starts[position.line]!;
  const next = position.line + 1 < starts.length ? starts[position.line + 1]! : file.text.length;
  // The line's own text, without its line break (`\n`, `\r\n` or `\r`).
  let end = next;
  if (end > start && file.text.charCodeAt(end - 1) === 10) end--;
  if (end > start && file.text.charCodeAt(end - 1) === 13) end--;
  return Math.min(start + Math.max(0, position.character), end);
}

/** Whether `offset` lies in `[start, end]` (a name is "at" the cursor also just after its last character). */
export function touches(loc: { readonly start: number; readonly end: number }, offset: number): boolean {
  return loc.start <= offset && offset <= loc.end;
}
