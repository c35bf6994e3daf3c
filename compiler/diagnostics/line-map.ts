// Offsets → 1-based lines and columns, computed once per file at the edge (printing, manifest).
import type { Location, SourceFile } from "../ast.js";

export interface Position {
  /** 1-based line. */
  readonly line: number;
  /** 1-based column, in UTF-16 code units. */
  readonly column: number;
}

export interface Span {
  readonly start: Position;
  readonly end: Position;
}

const lineStartsCache = new WeakMap<SourceFile, readonly number[]>();

/**
 * The offset at which each line starts; `\n`, `\r\n` and lone `\r` end a line. A byte order mark
 * at the start of the file is not part of line 1 (it takes no column, as editors show it).
 */
export function lineStarts(file: SourceFile): readonly number[] {
  let starts = lineStartsCache.get(file);
  if (starts === undefined) {
    const computed = [file.text.charCodeAt(0) === 0xfeff ? 1 : 0];
    const text = file.text;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 10) computed.push(i + 1);
      else if (c === 13) {
        if (text.charCodeAt(i + 1) === 10) i++;
        computed.push(i + 1);
      }
    }
    starts = computed;
    lineStartsCache.set(file, starts);
  }
  return starts;
}

/** The line and column of `offset` (clamped into the file). */
export function positionOf(file: SourceFile, offset: number): Position {
  const starts = lineStarts(file);
  const at = Math.max(0, Math.min(offset, file.text.length));
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (starts[mid]! <= at) low = mid;
    else high = mid - 1;
  }
  // The byte order mark itself (offset 0, before line 1's start) is at column 1.
  return { line: low + 1, column: Math.max(0, at - starts[low]!) + 1 };
}

export function spanOf(loc: Location): Span {
  const start = positionOf(loc.file, loc.start);
  const end = positionOf(loc.file, Math.max(loc.start, loc.end));
  return { start, end };
}

/** The text of 1-based line `line`, without its line break. */
export function lineText(file: SourceFile, line: number): string {
  const starts = lineStarts(file);
  const start = starts[line - 1] ?? file.text.length;
  const next = starts[line] ?? file.text.length;
  return file.text.slice(start, next).replace(/\r?\n$|\r$/, "");
}
