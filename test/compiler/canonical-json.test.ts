// Canonical JSON: keys sorted at every level, two-space indent, a final newline; and the nested form
// the manifest is assembled from (each context's entry printed apart) equals the whole printed at once.
import { describe, expect, it } from "vitest";
import { canonicalJson, canonicalJsonNested } from "../../compiler/manifest/json.js";

const values: unknown[] = [
  { b: 1, a: [3, { d: "x", c: null }], e: {} , f: [] },
  { "10": "integer-like keys", "2": true, z: { y: "\u2028 and \"quotes\"" } },
  { responses: { default: 0, "404": { b: 1, a: 2 }, "200": [] }, $ref: "x", "0": "a digit key after a $" },
  { responses: { "404": 1, "200": 2, default: 3 } },
  [],
  "text",
  Object.assign(Object.create(null) as object, { name: "no prototype", list: [1, 2] }),
];

describe("canonical JSON", () => {
  it("sorts keys at every level and ends with a newline", () => {
    expect(canonicalJson({ b: 1, a: { d: 2, c: [{ f: 1, e: 2 }] } })).toBe(
      '{\n  "a": {\n    "c": [\n      {\n        "e": 2,\n        "f": 1\n      }\n    ],\n    "d": 2\n  },\n  "b": 1\n}\n',
    );
    expect(canonicalJson({ "10": 1, "2": 2, a: 3 })).toBe('{\n  "10": 1,\n  "2": 2,\n  "a": 3\n}\n');
    expect(canonicalJson({ default: 1, "404": 2, "200": 3 })).toBe('{\n  "200": 3,\n  "404": 2,\n  "default": 1\n}\n');
    expect(canonicalJson({ b: { "1": 1 }, $ref: 2, "0": 3 })).toBe('{\n  "$ref": 2,\n  "0": 3,\n  "b": {\n    "1": 1\n  }\n}\n');
  });

  for (const [i, value] of values.entries()) {
    it(`prints value ${i} nested exactly as it stands inside a larger document`, () => {
      for (const depth of [0, 1, 2, 3]) {
        let whole: unknown = value;
        for (let level = 0; level < depth; level++) whole = { k: whole };
        const text = canonicalJson(whole);
        const nested = canonicalJsonNested(value, depth);
        const prefix = Array.from({ length: depth }, (_, level) => `{\n${"  ".repeat(level + 1)}"k": `).join("");
        expect(text.startsWith(prefix)).toBe(true);
        expect(text.slice(prefix.length, prefix.length + nested.length)).toBe(nested);
        expect(text.length - prefix.length - nested.length).toBe(depth * 2 + depth * (depth - 1) + 1); // the closing lines
      }
    });
  }
});
