// Defensive reads of a (possibly recovered) CST: a child that error recovery left out, or a token
// it inserted (no real offsets), reads as `undefined`, so the builder simply skips what is missing.
// Nothing here allocates: children are read in place, spans are returned as two numbers.
import type { IToken } from "chevrotain";
import { childAt, childCount, isToken, type CstChildren, type CstNode } from "../../grammar/cst.js";

/** Whether `t` was read from the source (not inserted by error recovery, with real offsets). */
export function isReal(t: IToken): boolean {
  return t.isInsertedInRecovery !== true && Number.isFinite(t.startOffset);
}

// The readers below take what a node holds under one key (`n.children["Name"]`), read by the
// caller: a property read written at each call site learns the few shapes of one rule's children,
// where a read inside a shared helper sees the shapes of every rule (a megamorphic read, slower).

/** A real (not recovery-inserted) token child: `children` is what a token's key holds. */
export function token(children: CstChildren | undefined, index = 0): IToken | undefined {
  const element = childAt(children, index);
  return element !== undefined && isToken(element) && isReal(element) ? element : undefined;
}

/** A sub-rule child: `children` is what a rule's key holds. */
export function node(children: CstChildren | undefined, index = 0): CstNode | undefined {
  const element = childAt(children, index);
  return element === undefined || isToken(element) ? undefined : element;
}

/**
 * The child keys of each rule, in groups, in the order the parser fills them: every child of a group
 * is added before any child of a later group (the parser only moves forward), while the keys of one
 * group may interleave (`field` and `Comma` in `{ a: T, b: U }`). So a node's first real token is in
 * its first group that has one, and its last in its last such group, without visiting the rest.
 * Must list every key a rule can fill (test/grammar/spans.test.ts checks it against the grammar).
 */
const CHILD_GROUPS: Readonly<Record<string, readonly (readonly string[])[]>> = {
  file: [["contextClause", "declaration"]],
  contextClause: [["Context"], ["Name"]],
  declaration: [["annotation"], [
    "typeDeclaration", "enumDeclaration", "serviceDeclaration", "aggregateDeclaration", "sagaDeclaration",
    "stateBlock", "commandDeclaration", "eventDeclaration", "handlerDeclaration", "jobDeclaration",
  ]],
  typeDeclaration: [["Type"], ["Name"], ["fieldBlock"]],
  enumDeclaration: [["Enum"], ["Name"], ["LCurly"], ["enumMember", "Comma"], ["RCurly"]],
  enumMember: [["Name"]],
  serviceDeclaration: [["Service"], ["Name"]],
  aggregateDeclaration: [["Aggregate"], ["Name"], ["LCurly"], ["member"], ["RCurly"]],
  sagaDeclaration: [["Saga"], ["Name"], ["LCurly"], ["member"], ["RCurly"]],
  member: [["annotation"], ["stateBlock", "commandDeclaration", "eventDeclaration", "handlerDeclaration", "jobDeclaration"]],
  stateBlock: [["State"], ["fieldBlock"]],
  commandDeclaration: [["Command"], ["Name"], ["fieldBlock"]],
  eventDeclaration: [["Event"], ["Name"], ["fieldBlock"]],
  handlerDeclaration: [["On"], ["qualifiedName"], ["parameterList"]],
  jobDeclaration: [["Job"], ["Name"], ["parameterList"]],
  fieldBlock: [["LCurly"], ["field", "Comma"], ["RCurly"]],
  field: [["Name"], ["Colon"], ["typeRef"]],
  typeRef: [["qualifiedName"], ["LBracket"], ["RBracket"], ["Question"]],
  parameterList: [["LParen"], ["parameter", "Comma"], ["RParen"]],
  parameter: [["Name"], ["Colon"], ["qualifiedName"]],
  qualifiedName: [["Name", "Dot"]],
  annotation: [["At"], ["Name"], ["LParen"], ["annotationArgument", "Comma"], ["RParen"]],
  annotationArgument: [["Name"], ["Equals"], ["annotationValue"]],
  annotationValue: [["StringLiteral", "NumberLiteral", "True", "False", "qualifiedName", "listValue"]],
  listValue: [["LBracket"], ["annotationValue", "Comma"], ["RBracket"]],
};

/** The child groups of a rule (one group of all its keys for a rule not listed). */
export function childGroups(n: CstNode): readonly (readonly string[])[] {
  return CHILD_GROUPS[n.name] ?? [Object.keys(n.children)];
}

/** Start of the first real element a key holds (`Infinity` when none). */
function firstOf(children: CstChildren | undefined): number {
  const count = childCount(children);
  for (let i = 0; i < count; i++) {
    const element = childAt(children, i)!;
    const offset = isToken(element) ? (isReal(element) ? element.startOffset : Infinity) : spanStart(element);
    if (offset !== Infinity) return offset;
  }
  return Infinity;
}

/** End of the last real element a key holds (`-Infinity` when none). */
function lastOf(children: CstChildren | undefined): number {
  for (let i = childCount(children) - 1; i >= 0; i--) {
    const element = childAt(children, i)!;
    const offset = isToken(element) ? (isReal(element) ? tokenEnd(element) : -Infinity) : spanEnd(element);
    if (offset !== -Infinity) return offset;
  }
  return -Infinity;
}

/**
 * Where a node starts: its first real token (`Infinity` when it has none). With `spanEnd`, the
 * `[start, end)` offsets of the node.
 */
export function spanStart(n: CstNode): number {
  const groups = childGroups(n);
  const children = n.children;
  for (let g = 0; g < groups.length; g++) {
    const keys = groups[g]!;
    let start = Infinity;
    for (let k = 0; k < keys.length; k++) {
      const offset = firstOf(children[keys[k]!]);
      if (offset < start) start = offset;
    }
    if (start !== Infinity) return start;
  }
  return Infinity;
}

/**
 * `spanStart` of a node whose rule's first group is the one token key `key` (`Name` for a field, a
 * parameter, an enum member, an annotation argument): that token when it is real, without a lookup.
 */
export function spanStartFrom(n: CstNode, key: string): number {
  const first = childAt(n.children[key], 0);
  return first !== undefined && isToken(first) && isReal(first) ? first.startOffset : spanStart(n);
}

/** Where a node ends: the end of its last real token (`-Infinity` when it has none). */
export function spanEnd(n: CstNode): number {
  const groups = childGroups(n);
  const children = n.children;
  for (let g = groups.length - 1; g >= 0; g--) {
    const keys = groups[g]!;
    let end = -Infinity;
    for (let k = 0; k < keys.length; k++) {
      const offset = lastOf(children[keys[k]!]);
      if (offset > end) end = offset;
    }
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
