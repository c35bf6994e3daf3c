// Node spans (compiler/parse/cst-access.ts) come from each rule's child groups, not from Chevrotain
// node locations: the groups must list every key a node can hold, and the spans they give must be
// those of a full scan (first and last real token among all children), on valid and broken inputs.
// After a parse without errors, the token indices the parser records on each node give the same.
import { describe, expect, it } from "vitest";
import { childList, isToken, type CstNode } from "../../grammar/cst.js";
import { parseCst, wowParser } from "../../grammar/parser.js";
import { childGroups, indexedSpanEnd, indexedSpanStart, isReal, spanEnd, spanStart, spanStartFrom } from "../../compiler/parse/cst-access.js";
import { lexFile } from "../../compiler/parse/parse-file.js";
import { mutateSource } from "../support/mutate-source.js";
import { mulberry32 } from "../support/random.js";
import { example, source } from "./helpers.js";
import { generate } from "../bench/synthetic-project.js";

/** The reference: every child of every key, in any order. */
function scan(n: CstNode): { start: number; end: number } {
  let start = Infinity;
  let end = -Infinity;
  for (const held of Object.values(n.children)) {
    for (const element of childList(held)) {
      if (isToken(element)) {
        if (!isReal(element)) continue;
        start = Math.min(start, element.startOffset);
        end = Math.max(end, element.startOffset + element.image.length);
      } else {
        const inner = scan(element);
        start = Math.min(start, inner.start);
        end = Math.max(end, inner.end);
      }
    }
  }
  return { start, end };
}

function* allNodes(n: CstNode): Generator<CstNode> {
  yield n;
  for (const held of Object.values(n.children)) for (const element of childList(held)) if (!isToken(element)) yield* allNodes(element);
}

/** Rules whose first child group is their `Name` token. */
const NAME_FIRST = new Set(["field", "parameter", "enumMember", "annotationArgument"]);

/** How many nodes `check` compared by their token indices (parses without errors). */
let indexed = 0;

/** Checks every node of the CST of `text`; returns how many (Vitest's `expect` only on a mismatch). */
function check(text: string): number {
  let count = 0;
  const { tokens } = lexFile(source(text));
  const cst = parseCst(tokens);
  const clean = wowParser.errors.length === 0;
  for (const n of allNodes(cst)) {
    const listed = new Set(childGroups(n).flat());
    for (const key of Object.keys(n.children)) {
      if (n.children[key] !== undefined && !listed.has(key)) expect.fail(`key ${key} of ${n.name} is in no group, in ${JSON.stringify(text)}`);
    }
    const expected = scan(n);
    const actual = { start: spanStart(n), end: spanEnd(n) };
    if (actual.start !== expected.start || actual.end !== expected.end) expect(actual, `${n.name} in ${JSON.stringify(text)}`).toEqual(expected);
    if (NAME_FIRST.has(n.name) && spanStartFrom(n, "Name") !== expected.start) expect(spanStartFrom(n, "Name"), `${n.name} from Name`).toBe(expected.start);
    if (clean) {
      const fromIndices = { start: indexedSpanStart(n, tokens), end: indexedSpanEnd(n, tokens) };
      if (fromIndices.start !== expected.start || fromIndices.end !== expected.end) expect(fromIndices, `${n.name} by token indices in ${JSON.stringify(text)}`).toEqual(expected);
      indexed++;
    }
    count++;
  }
  return count;
}

describe("node spans", () => {
  it("list a group for every rule of the grammar", () => {
    for (const rule of Object.keys(wowParser.getGAstProductions())) {
      const groups = childGroups({ name: rule, children: {}, firstToken: 0, lastToken: -1 });
      expect(groups.length, rule).toBeGreaterThan(0);
      expect(groups.flat().length, rule).toBeGreaterThan(0);
    }
  });

  it("equal a full scan of the children, on the examples and 1,000 mutations of them", () => {
    const originals = [example("order").text, example("inventory").text];
    let nodes = 0;
    for (const text of originals) nodes += check(text);
    const random = mulberry32(4242);
    for (let i = 0; i < 1000; i++) nodes += check(mutateSource(originals[i % 2]!, random));
    expect(nodes).toBeGreaterThan(50_000);
  });

  it("equal their token indices after a parse without errors (the examples and a synthetic project)", () => {
    indexed = 0;
    for (const file of [example("order"), example("inventory"), ...generate(40)]) check(file.text);
    expect(indexed).toBeGreaterThan(5_000);
  });
});
