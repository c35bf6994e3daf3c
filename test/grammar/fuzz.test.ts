// Parse-level fuzzing: mutations of the example files never make the parser throw, and every
// diagnostic points inside the text.
import { describe, expect, it } from "vitest";
import { parseFile } from "../../compiler/parse/parse-file.js";
import { example } from "./helpers.js";

/** mulberry32: a small seeded PRNG, so failures reproduce. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ODD = ["é", "日本", "\u0000", "\uFEFF", "\u2028", "😀", "\uD800", "\\", '"', "/*", "*/", "//", "@", "{", "}", "(", ")", "[", "]", ",", ":", "=", ".", "?", "-", "#", ";", "\t", "\r\n", "`"];

function mutate(text: string, random: () => number): string {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const pieces = text.split(/(\s+|[{}()[\],:=.?@])/).filter((p) => p !== "");
  const lines = text.split("\n");
  const rounds = 1 + Math.floor(random() * 4);
  let current = text;
  for (let round = 0; round < rounds; round++) {
    const op = Math.floor(random() * 9);
    const i = Math.floor(random() * pieces.length);
    const j = Math.floor(random() * pieces.length);
    const l = Math.floor(random() * lines.length);
    const m = Math.floor(random() * lines.length);
    switch (op) {
      case 0: pieces.splice(i, 1); current = pieces.join(""); break;
      case 1: pieces.splice(i, 0, pieces[j]!); current = pieces.join(""); break;
      case 2: [pieces[i], pieces[j]] = [pieces[j]!, pieces[i]!]; current = pieces.join(""); break;
      case 3: lines.splice(l, 1); current = lines.join("\n"); break;
      case 4: lines.splice(l, 0, lines[m]!); current = lines.join("\n"); break;
      case 5: [lines[l], lines[m]] = [lines[m]!, lines[l]!]; current = lines.join("\n"); break;
      case 6: current = current.slice(0, Math.floor(random() * current.length)); break;
      case 7: {
        const at = Math.floor(random() * current.length);
        current = current.slice(0, at) + pick(ODD) + current.slice(at);
        break;
      }
      default: {
        const at = Math.floor(random() * current.length);
        let bytes = "";
        for (let k = 0, n = 1 + Math.floor(random() * 6); k < n; k++) bytes += String.fromCharCode(Math.floor(random() * 0x3000));
        current = current.slice(0, at) + bytes + current.slice(at);
      }
    }
  }
  return current;
}

describe("parser fuzz", () => {
  it("never throws on 2,400 mutated example files; every diagnostic lies inside the text", () => {
    const sources = [example("order").text, example("inventory").text];
    const random = prng(20240611);
    let withErrors = 0;
    for (let n = 0; n < 2400; n++) {
      const text = mutate(sources[n % 2]!, random);
      let result;
      try {
        result = parseFile({ path: `fuzz-${n}.wow`, text });
      } catch (error) {
        throw new Error(`parseFile threw on input #${n}: ${JSON.stringify(text)}\n${String(error)}`);
      }
      if (result.diagnostics.length > 0) withErrors++;
      for (const d of result.diagnostics) {
        const loc = d.loc;
        if (loc === undefined || !(loc.start >= 0 && loc.start <= loc.end && loc.end <= text.length)) {
          throw new Error(`bad location ${JSON.stringify(loc && { start: loc.start, end: loc.end })} for ${d.code} on input #${n}: ${JSON.stringify(text)}`);
        }
        expect(d.message).not.toMatch(/^\{|undefined|NaN/);
      }
      const starts = result.diagnostics.map((d) => d.loc!.start);
      expect(new Set(starts).size).toBe(starts.length);
    }
    expect(withErrors).toBeGreaterThan(1500);
  });
});
