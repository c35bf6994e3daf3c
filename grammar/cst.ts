// The CST that wowc's parser builds (grammar/parser.ts). It is Chevrotain's CST with two changes,
// made by the parser's overrides of Chevrotain's CST builder:
//  - a key with one child holds that child itself; only a key with two or more holds an array.
//    Most keys hold one child (a rule's keyword, its name, its one sub-rule): a CST of 150k nodes
//    had 310k keys and 40k lists, and each one-element array is an object of its own (56 bytes)
//    for the garbage collector's young generation to sweep;
//  - each node records the indices of the first and last token its rule read (no `location`).
// Read children through the helpers below, which take what one key holds.
import type { IToken } from "chevrotain";

export interface CstNode {
  readonly name: string;
  readonly children: Record<string, CstChildren | undefined>;
  /**
   * Indices (into the parser's input) of the first and last token the node's rule read:
   * `firstToken > lastToken` when it read none. When the parse had no error, these are exactly the
   * tokens of the node's children; with errors, recovery may have skipped tokens in between or
   * inserted some, and only the children tell (compiler/parse/cst-access.ts).
   */
  firstToken: number;
  lastToken: number;
  /** Set by Chevrotain on a node that error recovery cut short. */
  recoveredNode?: boolean;
}

export type CstElement = IToken | CstNode;

/** What one key of `children` holds: its one element, or its elements in order. */
export type CstChildren = CstElement | CstElement[];

const NONE: readonly never[] = [];

export function isToken(element: CstElement): element is IToken {
  return (element as IToken).tokenType !== undefined;
}

/** How many elements a key holds. */
export function childCount(children: CstChildren | undefined): number {
  return children === undefined ? 0 : Array.isArray(children) ? children.length : 1;
}

/** The `index`th element a key holds. */
export function childAt(children: CstChildren | undefined, index: number): CstElement | undefined {
  if (children === undefined) return undefined;
  return Array.isArray(children) ? children[index] : index === 0 ? children : undefined;
}

/** The elements a key holds as a list (a new one-element array for a single child: not for hot paths). */
export function childList(children: CstChildren | undefined): readonly CstElement[] {
  return children === undefined ? NONE : Array.isArray(children) ? children : [children];
}

/** Adds `element` under `key` (the parser's CST builder). */
export function addChild(node: CstNode, key: string, element: CstElement): void {
  const children = node.children;
  const held = children[key];
  if (held === undefined) children[key] = element;
  else if (Array.isArray(held)) held.push(element);
  else children[key] = [held, element];
}
