// CST → AST: walks the CST of grammar/parser.ts and builds the `WowFile` of compiler/ast.ts. It is
// defensive: on a CST that error recovery left partial it skips whatever is missing and never
// throws. It also reports the syntax rules the grammar leaves open on purpose, for better messages
// and recovery: `context` first and once, members in the right kind of block, and separators.
// It runs on every file of every build, so it reads the CST in place (each list in one pass over
// its node's children, no span objects; after a parse without errors, spans from the token indices
// the parser recorded) and builds each AST node in one object literal (names, fields and annotation
// arguments too, each its own location: source-name.ts, spanned-nodes.ts), lists at their exact
// length: the AST is kept for the whole build.
import type { IToken } from "chevrotain";
import type {
  AggregateMember, Annotation, AnnotationArgument, AnnotationValue, ContextClause, Declaration, EnumMember,
  Field, HandlerDeclaration, JobDeclaration, Location, MessageDeclaration, Name, Parameter, QualifiedName,
  SagaMember, SourceFile, StateBlock, TypeRef,
} from "../ast.js";
import { createDiagnostic, type Diagnostic } from "../diagnostics/diagnostic.js";
import { indexedSpanEnd, indexedSpanStart, isReal, node, spanEnd, spanStart, token, tokenEnd } from "./cst-access.js";
import { EMPTY, exact } from "./exact.js";
import { sourceName, type SourceName } from "./source-name.js";
import { createArgument, createField } from "./spanned-nodes.js";
import { decodeString } from "./strings.js";
import { describeMissingContextName, describeToken, tokenIndexAt } from "./syntax-errors.js";
import { Context } from "../../grammar/tokens.js";
import { childNodes, hasChild, isToken, type CstElement, type CstNode } from "../../grammar/cst.js";

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
   * directly; `undefined` after errors, when spans come from each node's real children. `tokens`: all
   * the file's tokens, where the builder looks for those that error recovery skipped.
   */
  constructor(
    private readonly file: SourceFile,
    private readonly docs: ReadonlyMap<number, string>,
    private readonly parsedTokens: readonly IToken[] | undefined,
    private readonly tokens: readonly IToken[],
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
    return sourceName(t.image, this.file, t.startOffset);
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
      // Context clauses and declarations, in source order.
      for (const item of childNodes(fileNode)) {
        if (item.name === "contextClause") {
          const keyword = token(item, "Context");
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
    const keyword = token(n, "Context");
    if (keyword !== undefined && token(n, "Name") === undefined) {
      this.diagnostics.push(describeMissingContextName({ file: this.file, tokens: this.tokens }, keyword));
    }
    const head = this.head(n, n, "Context");
    return head && { name: head.name, doc: head.doc, loc: head.loc };
  }

  /**
   * Name, doc comment and location of a declaration or member whose keyword token is `keywordKey`:
   * `outer` holds its annotations (the span starts there), `inner` its keyword and name. Nodes are built
   * with `doc` always present (undefined when there is none): one shape per kind of node.
   */
  private head(outer: CstNode, inner: CstNode, keywordKey: string): { name: Name; doc: string | undefined; loc: Location } | undefined {
    const keyword = token(inner, keywordKey);
    const nameToken = token(inner, "Name");
    if (keyword === undefined || nameToken === undefined) return undefined;
    const start = this.start(outer);
    return { name: this.name(nameToken), doc: this.docOf(outer, keyword, start), loc: this.nodeLoc(outer, keyword, start) };
  }

  private declaration(n: CstNode): Declaration | undefined {
    const annotations = this.annotations(n);
    const inner = body(n);
    switch (inner?.name) {
      case "typeDeclaration": {
        const head = this.head(n, inner, "Type");
        return head && { kind: "Type", name: head.name, doc: head.doc, loc: head.loc, annotations, fields: this.fieldBlock(node(inner, "fieldBlock")) };
      }
      case "enumDeclaration": {
        const head = this.head(n, inner, "Enum");
        return head && { kind: "Enum", name: head.name, doc: head.doc, loc: head.loc, annotations, members: this.enumMembers(inner) };
      }
      case "serviceDeclaration": {
        const head = this.head(n, inner, "Service");
        return head && { kind: "Service", name: head.name, doc: head.doc, loc: head.loc, annotations };
      }
      case "aggregateDeclaration": {
        const head = this.head(n, inner, "Aggregate");
        return head && { kind: "Aggregate", name: head.name, doc: head.doc, loc: head.loc, annotations, members: this.members(inner, "aggregate") as readonly AggregateMember[] };
      }
      case "sagaDeclaration": {
        const head = this.head(n, inner, "Saga");
        return head && { kind: "Saga", name: head.name, doc: head.doc, loc: head.loc, annotations, members: this.members(inner, "saga") as readonly SagaMember[] };
      }
    }
    // A member outside any aggregate or saga (reported), or nothing that parsed.
    this.member(n, "file", annotations);
    return undefined;
  }

  // ── aggregate and saga members ────────────────────────────────────────────────────────────────

  private members(n: CstNode, container: Container): readonly Member[] {
    const out: Member[] = [];
    const children = n.children;
    for (let i = 0; i < children.length; i += 2) {
      if (children[i] !== "member") continue;
      const memberNode = children[i + 1] as CstNode;
      const member = this.member(memberNode, container, this.annotations(memberNode));
      if (member !== undefined) out.push(member);
    }
    return exact(out);
  }

  /** A member (of an aggregate, a saga, or misplaced at the top level of the file). */
  private member(n: CstNode, container: Container, annotations: readonly Annotation[]): Member | undefined {
    const inner = body(n);
    if (inner === undefined || !Object.hasOwn(MEMBER_KEYWORDS, inner.name)) return undefined;
    const rule = inner.name as (typeof MEMBER_RULES)[number][0];
    const wrong = misplacement(rule, container);
    if (wrong !== undefined) {
      const keyword = token(inner, MEMBER_KEYWORDS[rule]);
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
    const keyword = token(n, "State");
    if (keyword === undefined) return undefined;
    for (const annotation of annotations) {
      this.diagnostics.push(createDiagnostic("WOW1010", {
        what: `An annotation (@${annotation.name.text})`,
        where: "on a state block",
        advice: "Annotations go before commands, events, handlers and jobs; remove this one.",
      }, annotation.loc));
    }
    const fields = this.fieldBlock(node(n, "fieldBlock"));
    const start = this.start(outer);
    return { kind: "State", fields, doc: this.docOf(outer, keyword, start), loc: this.nodeLoc(outer, keyword, start) };
  }

  private message(outer: CstNode, n: CstNode, kind: "Command" | "Event", annotations: readonly Annotation[]): MessageDeclaration | undefined {
    const head = this.head(outer, n, kind);
    return head && { kind, name: head.name, doc: head.doc, loc: head.loc, annotations, fields: this.fieldBlock(node(n, "fieldBlock")) };
  }

  private handler(outer: CstNode, n: CstNode, annotations: readonly Annotation[]): HandlerDeclaration | undefined {
    const keyword = token(n, "On");
    const targetNode = node(n, "qualifiedName");
    const target = targetNode && this.qualifiedName(targetNode);
    if (keyword === undefined || target === undefined) return undefined;
    const start = this.start(outer);
    const doc = this.docOf(outer, keyword, start);
    return { kind: "Handler", target, params: this.parameters(node(n, "parameterList")), annotations, doc, loc: this.nodeLoc(outer, keyword, start) };
  }

  private job(outer: CstNode, n: CstNode, annotations: readonly Annotation[]): JobDeclaration | undefined {
    const head = this.head(outer, n, "Job");
    return head && { kind: "Job", name: head.name, doc: head.doc, loc: head.loc, annotations, params: this.parameters(node(n, "parameterList")) };
  }

  // ── fields, enum members, parameters ──────────────────────────────────────────────────────────

  private fieldBlock(n: CstNode | undefined): readonly Field[] {
    if (n === undefined) return EMPTY;
    const fields: Field[] = [];
    this.checkSeparators(n, "field", "fields");
    const children = n.children;
    for (let i = 0; i < children.length; i += 2) {
      if (children[i] !== "field") continue;
      const fieldNode = children[i + 1] as CstNode;
      const nameToken = token(fieldNode, "Name");
      const typeNode = node(fieldNode, "typeRef");
      const type = typeNode && this.typeRef(typeNode);
      if (nameToken === undefined || type === undefined) continue;
      fields.push(createField(this.name(nameToken), type, this.docs.get(nameToken.startOffset)));
    }
    return exact(fields);
  }

  private typeRef(n: CstNode): TypeRef | undefined {
    const nameNode = node(n, "qualifiedName");
    const name = nameNode && this.qualifiedName(nameNode);
    if (name === undefined) return undefined;
    const close = token(n, "RBracket");
    const question = token(n, "Question");
    const array = token(n, "LBracket") !== undefined;
    const end = Math.max(name.loc.end, close === undefined ? 0 : tokenEnd(close), question === undefined ? 0 : tokenEnd(question));
    // Without `[]` or `?` the type spans its name: one location for both.
    const loc = end === name.loc.end ? name.loc : this.loc(name.loc.start, end);
    return { kind: "TypeRef", name, array, optional: question !== undefined, loc };
  }

  private enumMembers(n: CstNode): readonly EnumMember[] {
    this.checkSeparators(n, "enumMember", "enum members");
    const members: EnumMember[] = [];
    const children = n.children;
    for (let i = 0; i < children.length; i += 2) {
      if (children[i] !== "enumMember") continue;
      const nameToken = token(children[i + 1] as CstNode, "Name");
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
    this.checkSeparators(n, "parameter", "parameters");
    const children = n.children;
    for (let i = 0; i < children.length; i += 2) {
      if (children[i] !== "parameter") continue;
      const parameterNode = children[i + 1] as CstNode;
      const nameToken = token(parameterNode, "Name");
      const typeNode = node(parameterNode, "qualifiedName");
      const type = typeNode && this.qualifiedName(typeNode);
      if (nameToken === undefined || type === undefined) continue;
      parameters.push({ name: this.name(nameToken), type, loc: this.loc(nameToken.startOffset, type.loc.end) });
    }
    return exact(parameters);
  }

  private qualifiedName(n: CstNode): QualifiedName | undefined {
    const first = token(n, "Name");
    if (first === undefined) return undefined;
    const second = token(n, "Name", 1);
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
    const annotationNodes = n.children;
    for (let a = 0; a < annotationNodes.length; a += 2) {
      if (annotationNodes[a] !== "annotation") continue;
      const annotationNode = annotationNodes[a + 1] as CstNode;
      const at = token(annotationNode, "At");
      const nameToken = token(annotationNode, "Name");
      if (at === undefined || nameToken === undefined) continue;
      this.checkSeparators(annotationNode, "annotationArgument", "annotation arguments");
      const args: AnnotationArgument[] = [];
      const argumentNodes = annotationNode.children;
      for (let i = 0; i < argumentNodes.length; i += 2) {
        if (argumentNodes[i] !== "annotationArgument") continue;
        const argumentNode = argumentNodes[i + 1] as CstNode;
        const argumentName = token(argumentNode, "Name");
        const valueNode = node(argumentNode, "annotationValue");
        const value = valueNode && this.annotationValue(valueNode);
        if (argumentName === undefined || value === undefined) continue;
        args.push(createArgument(this.name(argumentName), value));
      }
      const parenthesized = hasChild(annotationNode, "LParen");
      out.push({ name: this.name(nameToken), args: exact(args), parenthesized, loc: this.nodeLoc(annotationNode, at) });
    }
    return exact(out);
  }

  private annotationValue(n: CstNode): AnnotationValue | undefined {
    const string = token(n, "StringLiteral");
    if (string !== undefined) {
      return { kind: "String", value: decodeString(this.file, string.image, string.startOffset, this.diagnostics), loc: this.tokenLoc(string) };
    }
    const number = token(n, "NumberLiteral");
    if (number !== undefined) return { kind: "Number", value: Number(number.image), text: number.image, loc: this.tokenLoc(number) };
    const yes = token(n, "True");
    if (yes !== undefined) return { kind: "Boolean", value: true, loc: this.tokenLoc(yes) };
    const no = token(n, "False");
    if (no !== undefined) return { kind: "Boolean", value: false, loc: this.tokenLoc(no) };
    const reference = node(n, "qualifiedName");
    if (reference !== undefined) {
      const name = this.qualifiedName(reference);
      return name && { kind: "Reference", name, loc: name.loc };
    }
    const list = node(n, "listValue");
    if (list !== undefined) {
      const open = token(list, "LBracket");
      if (open === undefined) return undefined;
      this.checkSeparators(list, "annotationValue", "list values");
      const items: AnnotationValue[] = [];
      const valueNodes = list.children;
      for (let i = 0; i < valueNodes.length; i += 2) {
        if (valueNodes[i] !== "annotationValue") continue;
        const item = this.annotationValue(valueNodes[i + 1] as CstNode);
        if (item !== undefined) items.push(item);
      }
      return { kind: "List", items: exact(items), loc: this.nodeLoc(list, open) };
    }
    return undefined;
  }

  // ── separators ────────────────────────────────────────────────────────────────────────────────

  /**
   * Items of a list need a `,` or a line break between them (`{ a: int b: int }` is refused). The
   * items are `n`'s children under `itemKey`; a separating comma is a real `Comma` child between two
   * items (children are in source order; recovery-inserted commas do not count). Items without a
   * real token are passed over, and so are two items between which error recovery skipped tokens
   * (a comma among them, maybe): the parser reported that error.
   */
  private checkSeparators(n: CstNode, itemKey: string, what: string): void {
    const text = this.file.text;
    const children = n.children;
    // `previousEnd` is NaN while no earlier item has a real token.
    let previousEnd = NaN;
    let comma = false;
    for (let i = 0; i < children.length; i += 2) {
      const key = children[i];
      const element = children[i + 1] as CstElement;
      if (key === "Comma") {
        if (!Number.isNaN(previousEnd) && isToken(element) && isReal(element)) comma = true;
        continue;
      }
      if (key !== itemKey || isToken(element)) continue;
      const start = this.start(element);
      if (start === Infinity) continue;
      const end = this.end(element);
      if (!Number.isNaN(previousEnd) && !comma && !hasLineBreak(text, previousEnd, start) && !this.skippedBetween(previousEnd, start)) {
        this.diagnostics.push(createDiagnostic("WOW1011", { items: what }, this.loc(start, end)));
      }
      previousEnd = end;
      comma = false;
    }
  }

  /** Whether a token lies in `[from, to)`: between two items of a list, one that recovery skipped. */
  private skippedBetween(from: number, to: number): boolean {
    if (this.parsedTokens !== undefined) return false; // a parse without errors skipped nothing
    const next = this.tokens[tokenIndexAt(this.tokens, from)];
    return next !== undefined && next.startOffset < to;
  }
}

/** A declaration's or member's one sub-rule child besides its annotations: its body (`undefined` when none parsed). */
function body(n: CstNode): CstNode | undefined {
  const children = n.children;
  for (let i = 0; i < children.length; i += 2) {
    if (children[i] === "annotation") continue;
    const element = children[i + 1] as CstElement;
    if (!isToken(element)) return element;
  }
  return undefined;
}

/** Whether `text[from, to)` holds a line break (`\n`, `\r`, U+2028, U+2029). */
function hasLineBreak(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13 || c === 0x2028 || c === 0x2029) return true;
  }
  return false;
}
