// `wowc fmt` audit: doc comments before a comma keep documenting what they did, the safety check
// compares doc attachment, a multi-line block comment after `context NAME` is idempotent, old Mac
// line ends keep their blank lines and a trailing block comment over several lines stays trailing.
import { describe, expect, it } from "vitest";
import { assertSameContent, formatText } from "../../compiler/format/format-text.js";
import { compileSources } from "../../compiler/program/compile.js";
import { textOf } from "../../compiler/emit/emit.js";
import { lexFile } from "../../compiler/parse/parse-file.js";

/** The manifest without source lines. */
function manifestOf(text: string): unknown {
  const result = compileSources([{ path: "audit.wow", text }]);
  expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  return JSON.parse(textOf(result.manifestFile!), (key, value: unknown) => (key === "source" || key === "sources" ? undefined : value));
}

const once = (text: string): string => formatText(text, "audit.wow");

describe("a doc comment before a separating comma", () => {
  const sources = [
    ["an enum on one line", "context c\nenum E { A /** D */, B }\n"],
    ["an enum over several lines", "context c\nenum E {\n  A /** D */,\n  B\n}\n"],
    ["a field list on one line", "context c\ntype T { a: int /** D */, b: string }\n"],
    ["a field list over several lines", "context c\ntype T {\n  a: int /** D */,\n  b: string\n}\n"],
    ["a field list with a line comment after the doc", "context c\ntype T {\n  a: int /** D */ // note\n  , b: string\n}\n"],
  ] as const;

  it.each(sources)("%s: stays before the comma, so the manifest's docs do not change", (_, text) => {
    const formatted = once(text);
    expect(formatted).toMatch(/ \/\*\* D \*\/(,| \/\/ note\n *,)\n/);
    expect(manifestOf(formatted)).toEqual(manifestOf(text));
    expect(once(formatted)).toBe(formatted);
  });

  it("lays an enum out with the doc after its item", () => {
    expect(once("context c\nenum E { A /** D */, B }\n")).toBe("context c\n\nenum E {\n  A /** D */,\n  B\n}\n");
  });
});

describe("the formatter's safety check", () => {
  const check = (input: string, formatted: string) => {
    const { tokens, comments } = lexFile({ path: "audit.wow", text: input });
    return () => assertSameContent({ path: "audit.wow", text: input }, tokens, comments, formatted);
  };

  it("refuses output where a doc comment documents another item", () => {
    expect(check("context c\nenum E { A /** D */, B }\n", "context c\n\nenum E {\n  A, /** D */\n  B\n}\n")).toThrow(
      /would change the content of audit\.wow/,
    );
  });

  it("accepts output where each doc comment documents the same item", () => {
    expect(check("context c\nenum E { /** D */ A, B }\n", "context c\n\nenum E {\n  /** D */\n  A,\n  B\n}\n")).not.toThrow();
  });
});

describe("idempotence around forced blank lines", () => {
  it.each([
    ["after `context NAME`", "context c /*\n*/ type T {}\n"],
    ["before an aggregate", "context c\ntype T {} /*\n*/ aggregate A {}\n"],
  ])("a multi-line block comment on the line %s", (_, text) => {
    const formatted = once(text);
    expect(once(formatted)).toBe(formatted);
  });
});

describe("line ends and trailing block comments", () => {
  it("keeps the blank lines of a file with old Mac line ends (\\r)", () => {
    expect(once("context c\r\rtype T {}\r\rtype U {}\r")).toBe("context c\n\ntype T {}\n\ntype U {}\n");
  });

  it("keeps a block comment over several lines after the token it trails, its later lines moved with it", () => {
    expect(once("context c\ntype T {} /* a\n b */\ntype U {}\n")).toBe("context c\n\ntype T {} /* a\n b */\ntype U {}\n");
    expect(once("context c\ntype T {\n    a: int /* x\n            y */\n}\n")).toBe("context c\n\ntype T {\n  a: int /* x\n          y */\n}\n");
  });
});

describe("a doc comment moved to a shallower or deeper indentation", () => {
  it.each([
    ["moved left, a later line already left of the new indentation", "context c\ntype T {\n      /**\n  Usage:\n     x\n      */\n  a: int\n}\n"],
    ["moved right, lines of several depths", "context c\ntype T {\n/**\nUsage:\n   x\n      y\n*/\n  a: int\n}\n"],
    ["moved left with tabs and spaces", "context c\ntype T {\n\t\t/**\n\t\t  Usage:\n\t\t    x\n\t\t*/\n  a: int\n}\n"],
  ])("%s: its lines keep their relative indentation, so its text in the manifest does not change", (_, text) => {
    const formatted = once(text);
    expect(manifestOf(formatted)).toEqual(manifestOf(text));
    expect(once(formatted)).toBe(formatted);
  });
});
