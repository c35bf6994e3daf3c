// String literals: `"…"` with JSON-like escapes (`\"`, `\\`, `\/`, `\n`, `\r`, `\t`, `\b`, `\f`,
// `\uXXXX`) plus `\u{X…}`. Unknown escapes are reported (WOW1008) and kept as written.
import type { SourceFile } from "../ast.js";
import { createDiagnostic, type Diagnostic } from "../diagnostics/diagnostic.js";

const SIMPLE: Readonly<Record<string, string>> = {
  '"': '"', "\\": "\\", "/": "/", n: "\n", r: "\r", t: "\t", b: "\b", f: "\f",
};

/**
 * The value of the string token `image` found at `offset`; an unterminated string runs to its end. A
 * string between other quotes (`'x'`, reported by the lexer) always holds its closing quote.
 */
export function decodeString(file: SourceFile, image: string, offset: number, diagnostics: Diagnostic[]): string {
  const closed = !image.startsWith('"') || (image.length >= 2 && image.endsWith('"') && !image.endsWith('\\"'));
  const body = image.slice(1, closed ? -1 : undefined);
  if (!body.includes("\\")) return body;
  let out = "";
  for (let i = 0; i < body.length; i++) {
    const char = body[i]!;
    if (char !== "\\") {
      out += char;
      continue;
    }
    const next = body[i + 1];
    if (next === undefined) break;
    const simple = SIMPLE[next];
    if (simple !== undefined) {
      out += simple;
      i += 1;
      continue;
    }
    if (next === "u") {
      const braced = /^\{([0-9A-Fa-f]{1,6})\}/.exec(body.slice(i + 2));
      const plain = /^[0-9A-Fa-f]{4}/.exec(body.slice(i + 2));
      const hex = braced?.[1] ?? plain?.[0];
      const code = hex === undefined ? NaN : parseInt(hex, 16);
      if (hex !== undefined && code <= 0x10ffff) {
        out += String.fromCodePoint(code);
        i += 1 + (braced ? braced[0].length : 4);
        continue;
      }
    }
    const start = offset + 1 + i;
    const length = next === "u" ? 2 : 1 + String.fromCodePoint(body.codePointAt(i + 1)!).length;
    diagnostics.push(createDiagnostic("WOW1008", { escape: body.slice(i, i + length) }, { file, start, end: start + length }));
    out += body.slice(i, i + length);
    i += length - 1;
  }
  return out;
}
