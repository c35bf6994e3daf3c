// The CST that wowc's parser builds (grammar/parser.ts). It holds what Chevrotain's CST holds, laid
// out differently by the parser's overrides of Chevrotain's CST builder:
//  - a node's children are one flat list, in the order the parser read them (which is source
//    order), each after the key it was read under (a token type's or a sub-rule's name):
//    `[key, element, key, element, …]`. Chevrotain keeps an object of arrays, one per key; filling
//    it is a keyed store of a new property per child, which V8 runs through its slowest (megamorphic,
//    shape-changing) path: a third of the time of building a CST went there. A push is cheap, and
//    a node holds few children, so a read scans them;
//  - each node records the indices of the first and last token its rule read (no `location`).
// Read children through the helpers below.
import type { IToken } from "chevrotain";

export interface CstNode {
  readonly name: string;
  /** Children in source order, each after its key: `[key, element, key, element, …]` (see above). */
  readonly children: (string | CstElement)[];
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

export function isToken(element: CstElement): element is IToken {
  return (element as IToken).tokenType !== undefined;
}

/** Adds `element` under `key` (the parser's CST builder). */
export function addChild(node: CstNode, key: string, element: CstElement): void {
  node.children.push(key, element);
}

/** The `index`th child `node` holds under `key`. */
export function childAt(node: CstNode, key: string, index = 0): CstElement | undefined {
  const children = node.children;
  for (let i = 0; i < children.length; i += 2) {
    if (children[i] === key && index-- === 0) return children[i + 1] as CstElement;
  }
  return undefined;
}

/** Whether `node` holds a child under `key`. */
export function hasChild(node: CstNode, key: string): boolean {
  return childAt(node, key) !== undefined;
}

/** The sub-rule children of `node`, in source order; only those under `key` when it is given (a new array). */
export function childNodes(node: CstNode, key?: string): CstNode[] {
  const out: CstNode[] = [];
  const children = node.children;
  for (let i = 0; i < children.length; i += 2) {
    const element = children[i + 1] as CstElement;
    if ((key === undefined || children[i] === key) && !isToken(element)) out.push(element);
  }
  return out;
}
