// Defensive reads of a (possibly recovered) CST: a child that error recovery left out, or a token
// it inserted (no real offsets), reads as `undefined`, so the builder simply skips what is missing.
// Nothing here allocates: children are read in place, spans are returned as two numbers.
import type { IToken } from "chevrotain";
import { childAt, isToken, type CstElement, type CstNode } from "../../grammar/cst.js";

/** Whether `t` was read from the source (not inserted by error recovery, with real offsets). */
export function isReal(t: IToken): boolean {
  return t.isInsertedInRecovery !== true && Number.isFinite(t.startOffset);
}

/** The `index`th token `n` holds under `key`, when it is real (not inserted by error recovery). */
export function token(n: CstNode, key: string, index = 0): IToken | undefined {
  const element = childAt(n, key, index);
  return element !== undefined && isToken(element) && isReal(element) ? element : undefined;
}

/** The `index`th sub-rule node `n` holds under `key`. */
export function node(n: CstNode, key: string, index = 0): CstNode | undefined {
  const element = childAt(n, key, index);
  return element === undefined || isToken(element) ? undefined : element;
}

/** Start of `element`'s first real token (`Infinity` when none). */
function startOf(element: CstElement): number {
  return isToken(element) ? (isReal(element) ? element.startOffset : Infinity) : spanStart(element);
}

/** End of `element`'s last real token (`-Infinity` when none). */
function endOf(element: CstElement): number {
  return isToken(element) ? (isReal(element) ? tokenEnd(element) : -Infinity) : spanEnd(element);
}

/**
 * Where a node starts: its first real token (`Infinity` when it has none). With `spanEnd`, the
 * `[start, end)` offsets of the node. Children are in source order (cst.ts), so this is the first
 * child that holds a real token, and `spanEnd` the last.
 */
export function spanStart(n: CstNode): number {
  const children = n.children;
  for (let i = 1; i < children.length; i += 2) {
    const start = startOf(children[i] as CstElement);
    if (start !== Infinity) return start;
  }
  return Infinity;
}

/** Where a node ends: the end of its last real token (`-Infinity` when it has none). */
export function spanEnd(n: CstNode): number {
  const children = n.children;
  for (let i = children.length - 1; i > 0; i -= 2) {
    const end = endOf(children[i] as CstElement);
    if (end !== -Infinity) return end;
  }
  return -Infinity;
}

/**
 * `spanStart` of a node from the token indices the parser recorded on it, without visiting its
 * children: only for a parse without errors, and `tokens` the parser's input (see `CstNode`).
 */
export function indexedSpanStart(n: CstNode, tokens: readonly IToken[]): number {
  const { firstToken, lastToken } = n;
  return firstToken <= lastToken ? tokens[firstToken]!.startOffset : Infinity;
}

/** `spanEnd` of a node from its token indices, on the same terms as `indexedSpanStart`. */
export function indexedSpanEnd(n: CstNode, tokens: readonly IToken[]): number {
  const { firstToken, lastToken } = n;
  return firstToken <= lastToken ? tokenEnd(tokens[lastToken]!) : -Infinity;
}

export function tokenEnd(t: IToken): number {
  return t.startOffset + t.image.length;
}
