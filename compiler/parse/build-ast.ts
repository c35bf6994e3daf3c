// CST → AST: walks the CST of grammar/parser.ts and builds the `WowFile` of compiler/ast.ts. It is
// defensive: on a CST that error recovery left partial it skips whatever is missing and never
// throws. It also reports the syntax rules the grammar leaves open on purpose, for better messages
// and recovery: `context` first and once, members in the right kind of block, and separators.
// It runs on every file of every build, so it reads the CST in place (no arrays of children, no span
// objects; after a parse without errors, spans from the token indices the parser recorded) and builds
// each AST node in one object literal, names as `SourceName`s (their own location), fields and
// annotation arguments as nodes that are their own location too (spanned-nodes.ts), lists at their
// exact length: the AST is kept for the whole build.
import type { IToken } from "chevrotain";
import type {
  AggregateMember, Annotation, AnnotationArgument, AnnotationValue, ContextClause, Declaration, EnumMember,
  Field, HandlerDeclaration, JobDeclaration, Location, MessageDeclaration, Name, Parameter, QualifiedName,
  SagaMember, SourceFile, StateBlock, TypeRef,
} from "../ast.js";
import { createDiagnostic, type Diagnostic } from "../diagnostics/diagnostic.js";
import { indexedSpanEnd, indexedSpanStart, isReal, node, spanEnd, spanStart, spanStartFrom, token, tokenEnd } from "./cst-access.js";
import { EMPTY, exact } from "./exact.js";
import { SourceName } from "./source-name.js";
import { ArgumentNode, FieldNode } from "./spanned-nodes.js";
import { decodeString } from "./strings.js";
import { describeToken } from "./syntax-errors.js";
import { Context } from "../../grammar/tokens.js";
import { childAt, childCount, childList, type CstChildren, type CstNode } from "../../grammar/cst.js";

type Member = AggregateMember | SagaMember;
type Container = "file" | "aggregate" | "saga";

/** Member rules and the key of the keyword token that starts each. */
const MEMBER_RULES = [
  ["stateBlock", "State"],
  ["commandDeclaration", "Command"],
  ["eventDeclaration", "Event"],
  ["handlerDeclaration", "On"],
  ["jobDeclaration", "Job"],
] as const;

const MEMBER_KEYWORDS: Readonly<Record<(typeof MEMBER_RULES)[number][0], string>> = Object.fromEntries(MEMBER_RULES) as never;

interface Misplacement {
  readonly what: string;
  readonly where: string;
  readonly advice: string;
}

const IN_AGGREGATE = "Declare commands and events inside the aggregate that owns them.";
const JOBS = "Jobs are declared in a saga: `@OnSchedule(name = \"…\", cron = \"…\") job name(param: Service)`.";

/** Which members may not stand where; `undefined` means allowed. */
function misplacement(rule: string, container: Container): Misplacement | undefined {
  switch (rule) {
    case "stateBlock":
      return container === "aggregate" ? undefined : { what: "A state block", where: container === "saga" ? "in a saga" : "outside an aggregate", advice: "The state of an aggregate is declared inside it: `aggregate Name { state { … } }`." };
    case "commandDeclaration":
    case "eventDeclaration": {
      if (container === "aggregate") return undefined;
      const what = rule === "commandDeclaration" ? "A command" : "An event";
      return container === "saga"
        ? { what, where: "in a saga", advice: `${IN_AGGREGATE} A saga names the commands it sends in \`commands = […]\`.` }
        : { what, where: "outside an aggregate", advice: IN_AGGREGATE };
    }
    case "handlerDeclaration":
      return container === "file" ? { what: "A handler", where: "outside an aggregate or a saga", advice: "Write `on COMMAND` inside the aggregate that owns the command, or `on EVENT` inside a saga." } : undefined;
    case "jobDeclaration":
      return container === "saga" ? undefined : { what: "A job", where: container === "aggregate" ? "in an aggregate" : "outside a saga", advice: JOBS };
  }
  return undefined;
}

export class AstBuilder {
  private readonly diagnostics: Diagnostic[] = [];

  /**
   * `parsedTokens`: the tokens of a parse without errors, whose nodes' token indices give their spans
   * directly; `undefined` after errors, when spans come from each node's real children.
   */
  constructor(
    private readonly file: SourceFile,
    private readonly docs: ReadonlyMap<number, string>,
    private readonly parsedTokens: readonly IToken[] | undefined,
  ) {}

  get reported(): Diagnostic[] {
    return this.diagnostics;
  }

  /** Where `n` starts (`Infinity` when it holds no real token); see cst-access.ts. */
  private start(n: CstNode): number {
    return this.parsedTokens === undefined ? spanStart(n) : indexedSpanStart(n, this.parsedTokens);
  }

  /** Where `n` ends (`-Infinity` when it holds no real token). */
  private end(n: CstNode): number {
    return this.parsedTokens === undefined ? spanEnd(n) : indexedSpanEnd(n, this.parsedTokens);
  }

  private loc(start: number, end: number): Location {
    return { file: this.file, start, end };
  }

  private tokenLoc(t: IToken): Location {
    return { file: this.file, start: t.startOffset, end: t.startOffset + t.image.length };
  }

  /** The span of `n` (which starts at `start`), or of `fallback` when `n` holds no real token. */
  private nodeLoc(n: CstNode, fallback: IToken, start = this.start(n)): Location {
    return start === Infinity ? this.tokenLoc(fallback) : this.loc(start, this.end(n));
  }

  private name(t: IToken): SourceName {
    return new SourceName(t.image, this.file, t.startOffset);
  }

  /** The doc comment before `n` (which starts at `start`), or before its keyword, after annotations. */
  private docOf(n: CstNode, keyword: IToken | undefined, start = this.start(n)): string | undefined {
    const atStart = start === Infinity ? undefined : this.docs.get(start);
    if (atStart !== undefined) return atStart;
    return keyword === undefined ? undefined : this.docs.get(keyword.startOffset);
  }

  // ── file ──────────────────────────────────────────────────────────────────────────────────────

  /** Builds the declarations of one or more `file` CST nodes (several after top-level resyncs). */
  buildFile(files: readonly CstNode[], firstToken: IToken | undefined): { context?: ContextClause; declarations: readonly Declaration[] } {
    if (firstToken === undefined) {
      this.diagnostics.push(createDiagnostic("WOW1005", { found: "an empty file" }, this.loc(0, 0)));
    } else if (firstToken.tokenType !== Context) {
      this.diagnostics.push(createDiagnostic("WOW1005", { found: describeToken(firstToken) }, this.tokenLoc(firstToken)));
    }
    let context: ContextClause | undefined;
    const declarations: Declaration[] = [];
    for (const fileNode of files) {
      const clauses = childList(fileNode.children["contextClause"]) as readonly CstNode[];
      const declarationNodes = childList(fileNode.children["declaration"]) as readonly CstNode[];
      const items = clauses.length === 0 ? declarationNodes : this.inSourceOrder([...clauses, ...declarationNodes]);
      for (const item of items) {
        if (item.name === "contextClause") {
          const keyword = token(item.children["Context"]);
          const clause = this.contextClause(item);
          if (context !== undefined && keyword !== undefined) this.diagnostics.push(createDiagnostic("WOW1009", {}, this.tokenLoc(keyword)));
          // A clause out of place (reported above as WOW1005) still names the file's context.
          if (context === undefined && clause !== undefined) context = clause;
        } else {
          const declaration = this.declaration(item);
          if (declaration !== undefined) declarations.push(declaration);
        }
      }
    }
    return context === undefined ? { declarations: exact(declarations) } : { context, declarations: exact(declarations) };
  }

  private contextClause(n: CstNode): ContextClause | undefined {
    const head = this.head(n, n, "Context");
    return head && { name: head.name, doc: head.doc, loc: head.loc };
  }

  /**
   * Name, doc comment and location of a declaration or member whose keyword token is `keywordKey`:
   * `outer` holds its annotations (the span starts there), `inner` its keyword and name. Nodes are built
   * with `doc` always present (undefined when there is none): one shape per kind of node.
   */
  private head(outer: CstNode, inner: CstNode, keywordKey: string): { name: Name; doc: string | undefined; loc: Location } | undefined {
    const keyword = token(inner.children[keywordKey]);
    const nameToken = token(inner.children["Name"]);
    if (keyword === undefined || nameToken === undefined) return undefined;
    const start = this.start(outer);
    return { name: this.name(nameToken), doc: this.docOf(outer, keyword, start), loc: this.nodeLoc(outer, keyword, start) };
  }

  private declaration(n: CstNode): Declaration | undefined {
    const children = n.children;
    const annotations = this.annotations(n);
    const inner = children["typeDeclaration"] ?? children["enumDeclaration"] ?? children["serviceDeclaration"] ??
      children["aggregateDeclaration"] ?? children["sagaDeclaration"];
    const innerNode = childAt(inner, 0);
    if (innerNode === undefined || !("children" in innerNode)) {
      this.member(n, "file", annotations);
      return undefined;
    }
    switch (innerNode.name) {
      case "typeDeclaration": {
        const head = this.head(n, innerNode, "Type");
        return head && { kind: "Type", name: head.name, doc: head.doc, loc: head.loc, annotations, fields: this.fieldBlock(node(innerNode.children["fieldBlock"])) };
      }
      case "enumDeclaration": {
        const head = this.head(n, innerNode, "Enum");
        return head && { kind: "Enum", name: head.name, doc: head.doc, loc: head.loc, annotations, members: this.enumMembers(innerNode) };
      }
      case "serviceDeclaration": {
        const head = this.head(n, innerNode, "Service");
        return head && { kind: "Service", name: head.name, doc: head.doc, loc: head.loc, annotations };
      }
      case "aggregateDeclaration": {
        const head = this.head(n, innerNode, "Aggregate");
        return head && { kind: "Aggregate", name: head.name, doc: head.doc, loc: head.loc, annotations, members: this.members(innerNode, "aggregate") as readonly AggregateMember[] };
      }
      case "sagaDeclaration": {
        const head = this.head(n, innerNode, "Saga");
        return head && { kind: "Saga", name: head.name, doc: head.doc, loc: head.loc, annotations, members: this.members(innerNode, "saga") as readonly SagaMember[] };
      }
    }
    return undefined;
  }

  // ── aggregate and saga members ────────────────────────────────────────────────────────────────

  private members(n: CstNode, container: Container): readonly Member[] {
    const out: Member[] = [];
    const memberNodes = n.children["member"];
    for (let i = 0, count = childCount(memberNodes); i < count; i++) {
      const memberNode = node(memberNodes, i)!;
      const member = this.member(memberNode, container, this.annotations(memberNode));
      if (member !== undefined) out.push(member);
    }
    return exact(out);
  }

  /** A member (of an aggregate, a saga, or misplaced at the top level of the file). */
  private member(n: CstNode, container: Container, annotations: readonly Annotation[]): Member | undefined {
    const children = n.children;
    const inner = childAt(children["commandDeclaration"] ?? children["eventDeclaration"] ?? children["handlerDeclaration"] ??
      children["stateBlock"] ?? children["jobDeclaration"], 0);
    if (inner === undefined || !("children" in inner)) return undefined;
    const rule = inner.name as (typeof MEMBER_RULES)[number][0];
    const wrong = misplacement(rule, container);
    if (wrong !== undefined) {
      const keyword = token(inner.children[MEMBER_KEYWORDS[rule]]);
      if (keyword !== undefined) this.diagnostics.push(createDiagnostic("WOW1010", wrong, this.tokenLoc(keyword)));
      return undefined;
    }
    switch (rule) {
      case "stateBlock": return this.stateBlock(n, inner, annotations);
      case "commandDeclaration": return this.message(n, inner, "Command", annotations);
      case "eventDeclaration": return this.message(n, inner, "Event", annotations);
      case "handlerDeclaration": return this.handler(n, inner, annotations);
      case "jobDeclaration": return this.job(n, inner, annotations);
    }
    return undefined;
  }

  private stateBlock(outer: CstNode, n: CstNode, annotations: readonly Annotation[]): StateBlock | undefined {
    const keyword = token(n.children["State"]);
    if (keyword === undefined) return undefined;
    for (const annotation of annotations) {
      this.diagnostics.push(createDiagnostic("WOW1010", {
        what: `An annotation (@${annotation.name.text})`,
        where: "on a state block",
        advice: "Annotations go before commands, events, handlers and jobs; remove this one.",
      }, annotation.loc));
    }
    const fields = this.fieldBlock(node(n.children["fieldBlock"]));
    const start = this.start(outer);
    return { kind: "State", fields, doc: this.docOf(outer, keyword, start), loc: this.nodeLoc(outer, keyword, start) };
  }

  private message(outer: CstNode, n: CstNode, kind: "Command" | "Event", annotations: readonly Annotation[]): MessageDeclaration | undefined {
    const head = this.head(outer, n, kind);
    return head && { kind, name: head.name, doc: head.doc, loc: head.loc, annotations, fields: this.fieldBlock(node(n.children["fieldBlock"])) };
  }

  private handler(outer: CstNode, n: CstNode, annotations: readonly Annotation[]): HandlerDeclaration | undefined {
    const keyword = token(n.children["On"]);
    const targetNode = node(n.children["qualifiedName"]);
    const target = targetNode && this.qualifiedName(targetNode);
    if (keyword === undefined || target === undefined) return undefined;
    const start = this.start(outer);
    const doc = this.docOf(outer, keyword, start);
    return { kind: "Handler", target, params: this.parameters(node(n.children["parameterList"])), annotations, doc, loc: this.nodeLoc(outer, keyword, start) };
  }

  private job(outer: CstNode, n: CstNode, annotations: readonly Annotation[]): JobDeclaration | undefined {
    const head = this.head(outer, n, "Job");
    return head && { kind: "Job", name: head.name, doc: head.doc, loc: head.loc, annotations, params: this.parameters(node(n.children["parameterList"])) };
  }

  // ── fields, enum members, parameters ──────────────────────────────────────────────────────────

  private fieldBlock(n: CstNode | undefined): readonly Field[] {
    if (n === undefined) return EMPTY;
    const fields: Field[] = [];
    const fieldNodes = n.children["field"];
    this.checkSeparators(fieldNodes, n.children["Comma"], "fields", "Name");
    for (let i = 0, count = childCount(fieldNodes); i < count; i++) {
      const fieldNode = node(fieldNodes, i)!;
      const nameToken = token(fieldNode.children["Name"]);
      const typeNode = node(fieldNode.children["typeRef"]);
      const type = typeNode && this.typeRef(typeNode);
      if (nameToken === undefined || type === undefined) continue;
      fields.push(new FieldNode(this.name(nameToken), type, this.docs.get(nameToken.startOffset)));
    }
    return exact(fields);
  }

  private typeRef(n: CstNode): TypeRef | undefined {
    const nameNode = node(n.children["qualifiedName"]);
    const name = nameNode && this.qualifiedName(nameNode);
    if (name === undefined) return undefined;
    const close = token(n.children["RBracket"]);
    const question = token(n.children["Question"]);
    const array = token(n.children["LBracket"]) !== undefined;
    const end = Math.max(name.loc.end, close === undefined ? 0 : tokenEnd(close), question === undefined ? 0 : tokenEnd(question));
    // Without `[]` or `?` the type spans its name: one location for both.
    const loc = end === name.loc.end ? name.loc : this.loc(name.loc.start, end);
    return { kind: "TypeRef", name, array, optional: question !== undefined, loc };
  }

  private enumMembers(n: CstNode): readonly EnumMember[] {
    const memberNodes = n.children["enumMember"];
    this.checkSeparators(memberNodes, n.children["Comma"], "enum members", "Name");
    const members: EnumMember[] = [];
    for (let i = 0, count = childCount(memberNodes); i < count; i++) {
      const nameToken = token(node(memberNodes, i)!.children["Name"]);
      if (nameToken === undefined) continue;
      const doc = this.docs.get(nameToken.startOffset);
      const name = this.name(nameToken);
      members.push({ name, doc, loc: name.loc });
    }
    return exact(members);
  }

  private parameters(n: CstNode | undefined): readonly Parameter[] {
    if (n === undefined) return EMPTY;
    const parameters: Parameter[] = [];
    const parameterNodes = n.children["parameter"];
    this.checkSeparators(parameterNodes, n.children["Comma"], "parameters", "Name");
    for (let i = 0, count = childCount(parameterNodes); i < count; i++) {
      const parameterNode = node(parameterNodes, i)!;
      const nameToken = token(parameterNode.children["Name"]);
      const typeNode = node(parameterNode.children["qualifiedName"]);
      const type = typeNode && this.qualifiedName(typeNode);
      if (nameToken === undefined || type === undefined) continue;
      parameters.push({ name: this.name(nameToken), type, loc: this.loc(nameToken.startOffset, type.loc.end) });
    }
    return exact(parameters);
  }

  private qualifiedName(n: CstNode): QualifiedName | undefined {
    const first = token(n.children["Name"]);
    if (first === undefined) return undefined;
    const second = token(n.children["Name"], 1);
    if (second === undefined) return this.name(first); // a bare reference is its own QualifiedName
    return {
      context: this.name(first),
      name: this.name(second),
      text: `${first.image}.${second.image}`,
      loc: this.loc(first.startOffset, tokenEnd(second)),
    };
  }

  // ── annotations ───────────────────────────────────────────────────────────────────────────────

  private annotations(n: CstNode): readonly Annotation[] {
    const out: Annotation[] = [];
    const annotationNodes = n.children["annotation"];
    for (let a = 0, annotationCount = childCount(annotationNodes); a < annotationCount; a++) {
      const annotationNode = node(annotationNodes, a)!;
      const at = token(annotationNode.children["At"]);
      const nameToken = token(annotationNode.children["Name"]);
      if (at === undefined || nameToken === undefined) continue;
      const argumentNodes = annotationNode.children["annotationArgument"];
      this.checkSeparators(argumentNodes, annotationNode.children["Comma"], "annotation arguments", "Name");
      const args: AnnotationArgument[] = [];
      for (let i = 0, count = childCount(argumentNodes); i < count; i++) {
        const argumentNode = node(argumentNodes, i)!;
        const argumentName = token(argumentNode.children["Name"]);
        const valueNode = node(argumentNode.children["annotationValue"]);
        const value = valueNode && this.annotationValue(valueNode);
        if (argumentName === undefined || value === undefined) continue;
        args.push(new ArgumentNode(this.name(argumentName), value));
      }
      const parenthesized = annotationNode.children["LParen"] !== undefined;
      out.push({ name: this.name(nameToken), args: exact(args), parenthesized, loc: this.nodeLoc(annotationNode, at) });
    }
    return exact(out);
  }

  private annotationValue(n: CstNode): AnnotationValue | undefined {
    const string = token(n.children["StringLiteral"]);
    if (string !== undefined) {
      return { kind: "String", value: decodeString(this.file, string.image, string.startOffset, this.diagnostics), loc: this.tokenLoc(string) };
    }
    const number = token(n.children["NumberLiteral"]);
    if (number !== undefined) return { kind: "Number", value: Number(number.image), text: number.image, loc: this.tokenLoc(number) };
    const yes = token(n.children["True"]);
    if (yes !== undefined) return { kind: "Boolean", value: true, loc: this.tokenLoc(yes) };
    const no = token(n.children["False"]);
    if (no !== undefined) return { kind: "Boolean", value: false, loc: this.tokenLoc(no) };
    const reference = node(n.children["qualifiedName"]);
    if (reference !== undefined) {
      const name = this.qualifiedName(reference);
      return name && { kind: "Reference", name, loc: name.loc };
    }
    const list = node(n.children["listValue"]);
    if (list !== undefined) {
      const open = token(list.children["LBracket"]);
      if (open === undefined) return undefined;
      const valueNodes = list.children["annotationValue"];
      this.checkSeparators(valueNodes, list.children["Comma"], "list values");
      const items: AnnotationValue[] = [];
      for (let i = 0, count = childCount(valueNodes); i < count; i++) {
        const item = this.annotationValue(node(valueNodes, i)!);
        if (item !== undefined) items.push(item);
      }
      return { kind: "List", items: exact(items), loc: this.nodeLoc(list, open) };
    }
    return undefined;
  }

  /** Sorts nodes by their start offset (0 for a node without a real token), computing each once. */
  private inSourceOrder(items: readonly CstNode[]): CstNode[] {
    return items
      .map((item) => {
        const start = this.start(item);
        return { item, start: start === Infinity ? 0 : start };
      })
      .sort((a, b) => a.start - b.start)
      .map(({ item }) => item);
  }

  // ── separators ────────────────────────────────────────────────────────────────────────────────

  /** `start(item)`, from its first token when that is `firstKey`'s (see `spanStartFrom`). */
  private itemStart(item: CstNode, firstKey: string | undefined): number {
    return firstKey === undefined || this.parsedTokens !== undefined ? this.start(item) : spanStartFrom(item, firstKey);
  }

  /**
   * Items of a list need a `,` or a line break between them (`{ a: int b: int }` is refused).
   * `commas` as the parser stored them; recovery-inserted ones do not count. `firstKey`: the one
   * token key of the items' first child group, when they have one (see `spanStartFrom`).
   */
  private checkSeparators(items: CstChildren | undefined, commas: CstChildren | undefined, what: string, firstKey?: string): void {
    const count = childCount(items);
    if (count < 2) return;
    const text = this.file.text;
    const commaCount = childCount(commas);
    let comma = 0;
    // `previousEnd` is NaN while no earlier item has a real token.
    const first = node(items, 0)!;
    let previousEnd = this.itemStart(first, firstKey) === Infinity ? NaN : this.end(first);
    for (let i = 1; i < count; i++) {
      const item = node(items, i)!;
      const start = this.itemStart(item, firstKey);
      if (start === Infinity) continue;
      const end = this.end(item);
      if (!Number.isNaN(previousEnd)) {
        while (comma < commaCount && !(isReal(commaAt(commas, comma)) && commaAt(commas, comma).startOffset >= previousEnd)) comma++;
        const separated = comma < commaCount && commaAt(commas, comma).startOffset < start;
        if (!separated && !hasLineBreak(text, previousEnd, start)) {
          this.diagnostics.push(createDiagnostic("WOW1011", { items: what }, this.loc(start, end)));
        }
      }
      previousEnd = end;
    }
  }

}

/** The `index`th comma a `Comma` key holds (a token key holds only tokens). */
function commaAt(commas: CstChildren | undefined, index: number): IToken {
  return childAt(commas, index) as IToken;
}

/** Whether `text[from, to)` holds a line break (`\n`, `\r`, U+2028, U+2029). */
function hasLineBreak(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13 || c === 0x2028 || c === 0x2029) return true;
  }
  return false;
}
