// Node spans (compiler/parse/cst-access.ts) come from a node's first and last children that hold a
// real token, not from Chevrotain node locations: that relies on children being in source order, and
// the spans must be those of a full scan (first and last real token among all children, in any
// order), on valid and broken inputs. After a parse without errors, the token indices the parser
// records on each node give the same.
import { describe, expect, it } from "vitest";
import { childNodes, isToken, type CstElement, type CstNode } from "../../grammar/cst.js";
import { parseCst, wowParser } from "../../grammar/parser.js";
import { indexedSpanEnd, indexedSpanStart, isReal, spanEnd, spanStart } from "../../compiler/parse/cst-access.js";
import { lexFile } from "../../compiler/parse/parse-file.js";
import { mutateSource } from "../support/mutate-source.js";
import { mulberry32 } from "../support/random.js";
import { example, source } from "./helpers.js";
import { generate } from "../bench/synthetic-project.js";

/** Every child of `n`, in the order the parser stored them. */
function allChildren(n: CstNode): CstElement[] {
  return n.children.filter((_, i) => i % 2 === 1) as CstElement[];
}

/** The reference: every child of every key, in any order. */
function scan(n: CstNode): { start: number; end: number } {
  let start = Infinity;
  let end = -Infinity;
  for (const element of allChildren(n)) {
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
  return { start, end };
}

function* allNodes(n: CstNode): Generator<CstNode> {
  yield n;
  for (const child of childNodes(n)) yield* allNodes(child);
}

/** Whether the real tokens under `n` (in the order its children list them, depth first) are in source order. */
function inSourceOrder(n: CstNode, after = { offset: -1 }): boolean {
  for (const element of allChildren(n)) {
    if (!isToken(element)) {
      if (!inSourceOrder(element, after)) return false;
    } else if (isReal(element)) {
      if (element.startOffset <= after.offset) return false;
      after.offset = element.startOffset;
    }
  }
  return true;
}

/** How many nodes `check` compared by their token indices (parses without errors). */
let indexed = 0;

/** Checks every node of the CST of `text`; returns how many (Vitest's `expect` only on a mismatch). */
function check(text: string): number {
  let count = 0;
  const { tokens } = lexFile(source(text));
  const cst = parseCst(tokens);
  const clean = wowParser().errors.length === 0;
  if (!inSourceOrder(cst)) expect.fail(`children out of source order in ${JSON.stringify(text)}`);
  for (const n of allNodes(cst)) {
    const expected = scan(n);
    const actual = { start: spanStart(n), end: spanEnd(n) };
    if (actual.start !== expected.start || actual.end !== expected.end) expect(actual, `${n.name} in ${JSON.stringify(text)}`).toEqual(expected);
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
