// Defensive reads of a (possibly recovered) CST: a child that error recovery left out, or a token
// it inserted (no real offsets), reads as `undefined`, so the builder simply skips what is missing.
import type { CstElement, CstNode, IToken } from "chevrotain";

function isToken(element: CstElement): element is IToken {
  return (element as IToken).tokenType !== undefined;
}

/** A real (not recovery-inserted) token child. */
export function token(node: CstNode, key: string, index = 0): IToken | undefined {
  const element = node.children[key]?.[index];
  if (element === undefined || !isToken(element) || element.isInsertedInRecovery === true) return undefined;
  return Number.isFinite(element.startOffset) ? element : undefined;
}

/** All real token children under `key`. */
export function tokens(node: CstNode, key: string): IToken[] {
  const elements = node.children[key];
  if (elements === undefined) return [];
  const out: IToken[] = [];
  for (const element of elements) {
    if (isToken(element) && element.isInsertedInRecovery !== true && Number.isFinite(element.startOffset)) out.push(element);
  }
  return out;
}

/** A sub-rule child. */
export function node(parent: CstNode, key: string, index = 0): CstNode | undefined {
  const element = parent.children[key]?.[index];
  return element === undefined || isToken(element) ? undefined : element;
}

/** All sub-rule children under `key`. */
export function nodes(parent: CstNode, key: string): CstNode[] {
  const elements = parent.children[key];
  if (elements === undefined) return [];
  const out: CstNode[] = [];
  for (const element of elements) if (!isToken(element)) out.push(element);
  return out;
}

function realToken(element: IToken): boolean {
  return element.isInsertedInRecovery !== true && Number.isFinite(element.startOffset);
}

/** Offset of the first real token under `n` (`Infinity` when none). */
function firstStart(n: CstNode): number {
  let start = Infinity;
  for (const key in n.children) {
    for (const element of n.children[key]!) {
      const offset = isToken(element) ? (realToken(element) ? element.startOffset : Infinity) : firstStart(element);
      if (offset !== Infinity) {
        if (offset < start) start = offset;
        break;
      }
    }
  }
  return start;
}

/** End offset of the last real token under `n` (`-Infinity` when none). */
function lastEnd(n: CstNode): number {
  let end = -Infinity;
  for (const key in n.children) {
    const elements = n.children[key]!;
    for (let i = elements.length - 1; i >= 0; i--) {
      const element = elements[i]!;
      const offset = isToken(element) ? (realToken(element) ? tokenEnd(element) : -Infinity) : lastEnd(element);
      if (offset !== -Infinity) {
        if (offset > end) end = offset;
        break;
      }
    }
  }
  return end;
}

/**
 * The `[start, end)` offsets of a node: Chevrotain's node location when it is complete, else (after
 * error recovery) from the node's first and last real tokens; `undefined` when it has none.
 */
export function offsets(n: CstNode): { start: number; end: number } | undefined {
  const location = n.location;
  if (location !== undefined && Number.isFinite(location.startOffset) && Number.isFinite(location.endOffset) && n.recoveredNode !== true) {
    return { start: location.startOffset, end: location.endOffset! + 1 };
  }
  const start = firstStart(n);
  if (start === Infinity) return undefined;
  return { start, end: lastEnd(n) };
}

export function tokenEnd(t: IToken): number {
  return t.startOffset + t.image.length;
}
