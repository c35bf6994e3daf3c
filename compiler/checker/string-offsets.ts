// Where the characters of a string literal's value sit in the source: the value's index i is at
// `start + offsets[i]`. Needed to point a cron diagnostic at the offending field inside the quotes,
// even when the literal has escapes (`\"`, `\\`, `\uXXXX`, `\u{X…}`).
import type { Location } from "../ast.js";

/**
 * Source offsets of each UTF-16 unit of the literal's value, plus one past the last. Mirrors the
 * lexer's decoding (compiler/parse/strings.ts): an unknown escape is kept as written.
 */
export function valueOffsets(literal: Location): number[] {
  const raw = literal.file.text.slice(literal.start, literal.end);
  const offsets: number[] = [];
  const closed = raw.length >= 2 && raw.endsWith('"') && !raw.endsWith('\\"');
  const stop = closed ? raw.length - 1 : raw.length;
  let i = raw.startsWith('"') ? 1 : 0;
  const emit = (at: number, units: number): void => {
    for (let u = 0; u < units; u++) offsets.push(literal.start + at);
  };
  while (i < stop) {
    const next = raw[i + 1];
    if (raw[i] !== "\\" || next === undefined || i + 1 >= stop) {
      emit(i, 1);
      i++;
      continue;
    }
    if ('"\\/nrtbf'.includes(next)) {
      emit(i, 1);
      i += 2;
      continue;
    }
    if (next === "u") {
      const braced = /^\{([0-9A-Fa-f]{1,6})\}/.exec(raw.slice(i + 2, stop));
      const plain = /^[0-9A-Fa-f]{4}/.exec(raw.slice(i + 2, stop));
      const hex = braced?.[1] ?? plain?.[0];
      const code = hex === undefined ? NaN : parseInt(hex, 16);
      if (hex !== undefined && code <= 0x10ffff) {
        emit(i, code > 0xffff ? 2 : 1);
        i += 2 + (braced ? braced[0].length : 4);
        continue;
      }
    }
    // An unknown escape stays as written: each character maps to itself.
    emit(i, 1);
    i++;
  }
  offsets.push(literal.start + i);
  return offsets;
}

/** The source location of `[from, from + length)` of the literal's value. */
export function locationInString(literal: Location, from: number, length: number): Location {
  const offsets = valueOffsets(literal);
  const last = offsets.length - 1;
  const start = offsets[Math.max(0, Math.min(from, last))]!;
  const endIndex = Math.max(0, Math.min(from + Math.max(length, 0), last));
  // The end of the span is just after the source text of its last character.
  const end = length > 0 && endIndex > 0 ? Math.max(offsets[endIndex]!, offsets[endIndex - 1]! + 1) : start;
  return { file: literal.file, start, end: Math.max(start, end) };
}
