// Seeded property test: comments inserted between any two tokens of the examples and the
// REFERENCE.md snippets are all kept, the manifest-relevant tokens and each doc comment's place
// (formatText checks both) are unchanged and formatting stays idempotent. Also CRLF line ends.
import { describe, expect, it } from "vitest";
import { formatText } from "../../compiler/format/format-text.js";
import { lexFile } from "../../compiler/parse/parse-file.js";
import { allSources } from "./helpers.js";

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const kinds = [
  " // line note\n",
  " /* block */ ",
  "\n/* block\n   on two lines */\n",
  " /* trailing block\n     on two lines */ ",
  "\n\n// after a blank line\n",
  " /** doc */ ",
];

/** Inserts `count` comments at random token boundaries of `text`. */
function withComments(text: string, seed: number, count: number): string {
  const next = random(seed);
  const { tokens } = lexFile({ path: "x.wow", text });
  const cuts = new Set<number>();
  for (let i = 0; i < count; i++) cuts.add(tokens[Math.floor(next() * tokens.length)]!.startOffset);
  let out = "";
  let last = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    out += text.slice(last, cut) + kinds[Math.floor(next() * kinds.length)]!;
    last = cut;
  }
  return out + text.slice(last);
}

const words = (images: string[]) => images.map((i) => i.split(/\s+/).filter(Boolean).join(" "));

describe("comments anywhere", () => {
  const sources = allSources().filter(([name]) => !name.endsWith(".out.wow"));
  it.each(sources)("%s with comments at random token boundaries", (name, text) => {
    for (let seed = 1; seed <= 8; seed++) {
      const input = withComments(text, seed * 7919 + name.length, 6);
      const once = formatText(input, name);
      expect(formatText(once, name), `seed ${seed}`).toBe(once);
      const before = lexFile({ path: name, text: input });
      const after = lexFile({ path: name, text: once });
      expect(words(after.comments.map((c) => c.image))).toEqual(words(before.comments.map((c) => c.image)));
    }
  });

  it("formats CRLF sources to LF with the same content", () => {
    const text = "context c\r\n\r\n// note\r\ntype T {\r\n  a: int // why\r\n  b: string\r\n}\r\n";
    expect(formatText(text)).toBe("context c\n\n// note\ntype T {\n  a: int // why\n  b: string\n}\n");
  });
});
