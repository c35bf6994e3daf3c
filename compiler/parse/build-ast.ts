// CST → AST: walks the CST of grammar/parser.ts and builds the `WowFile` of compiler/ast.ts. It is
// defensive: on a CST that error recovery left partial it skips whatever is missing and never
// throws. It also reports the syntax rules the grammar leaves open on purpose, for better messages
// and recovery: `context` first and once, members in the right kind of block, and separators.
// It runs on every file of every build, so it reads the CST in place (no arrays of children, no span
// objects) and builds each AST node in one object literal (two where `doc` may be absent, which keeps
// the keys in their documented order without spreads).
import type { CstNode, IToken } from "chevrotain";
import type {
  AggregateMember, Annotation, AnnotationArgument, AnnotationValue, ContextClause, Declaration, EnumMember,
  Field, HandlerDeclaration, JobDeclaration, Location, MessageDeclaration, Name, Parameter, QualifiedName,
  SagaMember, SourceFile, StateBlock, TypeRef,
} from "../ast.js";
import { createDiagnostic, type Diagnostic } from "../diagnostics/diagnostic.js";
import { isReal, node, nodes, spanEnd, spanStart, spanStartFrom, token, tokenEnd, tokens } from "./cst-access.js";
import { decodeString } from "./strings.js";
import { describeToken } from "./syntax-errors.js";
import { Context } from "../../grammar/tokens.js";

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

  constructor(
    private readonly file: SourceFile,
    private readonly docs: ReadonlyMap<number, string>,
  ) {}

  get reported(): Diagnostic[] {
    return this.diagnostics;
  }

  private loc(start: number, end: number): Location {
    return { file: this.file, start, end };
  }

  private tokenLoc(t: IToken): Location {
    return { file: this.file, start: t.startOffset, end: t.startOffset + t.image.length };
  }

  /** The span of `n` (which starts at `start`), or of `fallback` when `n` holds no real token. */
  private nodeLoc(n: CstNode, fallback: IToken, start = spanStart(n)): Location {
    return start === Infinity ? this.tokenLoc(fallback) : this.loc(start, spanEnd(n));
  }

  private name(t: IToken): Name {
    return { text: t.image, loc: this.tokenLoc(t) };
  }

  /** The doc comment before `n` (which starts at `start`), or before its keyword, after annotations. */
  private docOf(n: CstNode, keyword: IToken | undefined, start = spanStart(n)): string | undefined {
    const atStart = start === Infinity ? undefined : this.docs.get(start);
    if (atStart !== undefined) return atStart;
    return keyword === undefined ? undefined : this.docs.get(keyword.startOffset);
  }

  // ── file ──────────────────────────────────────────────────────────────────────────────────────

  /** Builds the declarations of one or more `file` CST nodes (several after top-level resyncs). */
  buildFile(files: readonly CstNode[], firstToken: IToken | undefined): { context?: ContextClause; declarations: Declaration[] } {
    if (firstToken === undefined) {
      this.diagnostics.push(createDiagnostic("WOW1005", { found: "an empty file" }, this.loc(0, 0)));
    } else if (firstToken.tokenType !== Context) {
      this.diagnostics.push(createDiagnostic("WOW1005", { found: describeToken(firstToken) }, this.tokenLoc(firstToken)));
    }
    let context: ContextClause | undefined;
    const declarations: Declaration[] = [];
    for (const fileNode of files) {
      const clauses = nodes(fileNode, "contextClause");
      const items = clauses.length === 0 ? nodes(fileNode, "declaration") : inSourceOrder([...clauses, ...nodes(fileNode, "declaration")]);
      for (const item of items) {
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
    return context === undefined ? { declarations } : { context, declarations };
  }

  private contextClause(n: CstNode): ContextClause | undefined {
    const keyword = token(n, "Context");
    const nameToken = token(n, "Name");
    if (keyword === undefined || nameToken === undefined) return undefined;
    const doc = this.docOf(n, keyword);
    const name = this.name(nameToken);
    const loc = this.nodeLoc(n, keyword);
    return doc === undefined ? { name, loc } : { name, doc, loc };
  }

  private declaration(n: CstNode): Declaration | undefined {
    const children = n.children;
    const annotations = this.annotations(n);
    const inner = children["typeDeclaration"] ?? children["enumDeclaration"] ?? children["serviceDeclaration"] ??
      children["aggregateDeclaration"] ?? children["sagaDeclaration"];
    const innerNode = inner?.[0];
    if (innerNode === undefined || !("children" in innerNode)) {
      this.member(n, "file", annotations);
      return undefined;
    }
    switch (innerNode.name) {
      case "typeDeclaration": {
        const keyword = token(innerNode, "Type");
        const nameToken = token(innerNode, "Name");
        if (keyword === undefined || nameToken === undefined) return undefined;
        const name = this.name(nameToken);
        const start = spanStart(n);
        const doc = this.docOf(n, keyword, start);
        const loc = this.nodeLoc(n, keyword, start);
        const fields = this.fieldBlock(node(innerNode, "fieldBlock"));
        return doc === undefined
          ? { kind: "Type", name, loc, annotations, fields }
          : { kind: "Type", name, doc, loc, annotations, fields };
      }
      case "enumDeclaration": {
        const keyword = token(innerNode, "Enum");
        const nameToken = token(innerNode, "Name");
        if (keyword === undefined || nameToken === undefined) return undefined;
        const name = this.name(nameToken);
        const start = spanStart(n);
        const doc = this.docOf(n, keyword, start);
        const loc = this.nodeLoc(n, keyword, start);
        const members = this.enumMembers(innerNode);
        return doc === undefined
          ? { kind: "Enum", name, loc, annotations, members }
          : { kind: "Enum", name, doc, loc, annotations, members };
      }
      case "serviceDeclaration": {
        const keyword = token(innerNode, "Service");
        const nameToken = token(innerNode, "Name");
        if (keyword === undefined || nameToken === undefined) return undefined;
        const name = this.name(nameToken);
        const start = spanStart(n);
        const doc = this.docOf(n, keyword, start);
        const loc = this.nodeLoc(n, keyword, start);
        return doc === undefined ? { kind: "Service", name, loc, annotations } : { kind: "Service", name, doc, loc, annotations };
      }
      case "aggregateDeclaration":
      case "sagaDeclaration": {
        const aggregate = innerNode.name === "aggregateDeclaration";
        const keyword = token(innerNode, aggregate ? "Aggregate" : "Saga");
        const nameToken = token(innerNode, "Name");
        if (keyword === undefined || nameToken === undefined) return undefined;
        const name = this.name(nameToken);
        const start = spanStart(n);
        const doc = this.docOf(n, keyword, start);
        const loc = this.nodeLoc(n, keyword, start);
        if (aggregate) {
          const members = this.members(innerNode, "aggregate") as AggregateMember[];
          return doc === undefined
            ? { kind: "Aggregate", name, loc, annotations, members }
            : { kind: "Aggregate", name, doc, loc, annotations, members };
        }
        const members = this.members(innerNode, "saga") as SagaMember[];
        return doc === undefined
          ? { kind: "Saga", name, loc, annotations, members }
          : { kind: "Saga", name, doc, loc, annotations, members };
      }
    }
    return undefined;
  }

  // ── aggregate and saga members ────────────────────────────────────────────────────────────────

  private members(n: CstNode, container: Container): Member[] {
    const out: Member[] = [];
    const memberNodes = nodes(n, "member");
    for (let i = 0; i < memberNodes.length; i++) {
      const memberNode = memberNodes[i]!;
      const member = this.member(memberNode, container, this.annotations(memberNode));
      if (member !== undefined) out.push(member);
    }
    return out;
  }

  /** A member (of an aggregate, a saga, or misplaced at the top level of the file). */
  private member(n: CstNode, container: Container, annotations: Annotation[]): Member | undefined {
    const children = n.children;
    const inner = (children["commandDeclaration"] ?? children["eventDeclaration"] ?? children["handlerDeclaration"] ??
      children["stateBlock"] ?? children["jobDeclaration"])?.[0];
    if (inner === undefined || !("children" in inner)) return undefined;
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

  private stateBlock(outer: CstNode, n: CstNode, annotations: Annotation[]): StateBlock | undefined {
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
    const start = spanStart(outer);
    const doc = this.docOf(outer, keyword, start);
    const loc = this.nodeLoc(outer, keyword, start);
    return doc === undefined ? { kind: "State", fields, loc } : { kind: "State", fields, doc, loc };
  }

  private message(outer: CstNode, n: CstNode, kind: "Command" | "Event", annotations: Annotation[]): MessageDeclaration | undefined {
    const keyword = token(n, kind);
    const nameToken = token(n, "Name");
    if (keyword === undefined || nameToken === undefined) return undefined;
    const name = this.name(nameToken);
    const start = spanStart(outer);
    const doc = this.docOf(outer, keyword, start);
    const loc = this.nodeLoc(outer, keyword, start);
    const fields = this.fieldBlock(node(n, "fieldBlock"));
    return doc === undefined ? { kind, name, loc, annotations, fields } : { kind, name, doc, loc, annotations, fields };
  }

  private handler(outer: CstNode, n: CstNode, annotations: Annotation[]): HandlerDeclaration | undefined {
    const keyword = token(n, "On");
    const targetNode = node(n, "qualifiedName");
    const target = targetNode && this.qualifiedName(targetNode);
    if (keyword === undefined || target === undefined) return undefined;
    const start = spanStart(outer);
    const doc = this.docOf(outer, keyword, start);
    const params = this.parameters(node(n, "parameterList"));
    const loc = this.nodeLoc(outer, keyword, start);
    return doc === undefined
      ? { kind: "Handler", target, params, annotations, loc }
      : { kind: "Handler", target, params, annotations, doc, loc };
  }

  private job(outer: CstNode, n: CstNode, annotations: Annotation[]): JobDeclaration | undefined {
    const keyword = token(n, "Job");
    const nameToken = token(n, "Name");
    if (keyword === undefined || nameToken === undefined) return undefined;
    const name = this.name(nameToken);
    const start = spanStart(outer);
    const doc = this.docOf(outer, keyword, start);
    const loc = this.nodeLoc(outer, keyword, start);
    const params = this.parameters(node(n, "parameterList"));
    return doc === undefined ? { kind: "Job", name, loc, annotations, params } : { kind: "Job", name, doc, loc, annotations, params };
  }

  // ── fields, enum members, parameters ──────────────────────────────────────────────────────────

  private fieldBlock(n: CstNode | undefined): Field[] {
    const fields: Field[] = [];
    if (n === undefined) return fields;
    const fieldNodes = nodes(n, "field");
    this.checkSeparators(fieldNodes, tokens(n, "Comma"), "fields", "Name");
    for (let i = 0; i < fieldNodes.length; i++) {
      const fieldNode = fieldNodes[i]!;
      const nameToken = token(fieldNode, "Name");
      const typeNode = node(fieldNode, "typeRef");
      const type = typeNode && this.typeRef(typeNode);
      if (nameToken === undefined || type === undefined) continue;
      const doc = this.docs.get(nameToken.startOffset);
      const name = this.name(nameToken);
      const loc = this.loc(nameToken.startOffset, type.loc.end);
      fields.push(doc === undefined ? { kind: "Field", name, type, loc } : { kind: "Field", name, type, doc, loc });
    }
    return fields;
  }

  private typeRef(n: CstNode): TypeRef | undefined {
    const nameNode = node(n, "qualifiedName");
    const name = nameNode && this.qualifiedName(nameNode);
    if (name === undefined) return undefined;
    const close = token(n, "RBracket");
    const question = token(n, "Question");
    const array = token(n, "LBracket") !== undefined;
    const end = Math.max(name.loc.end, close === undefined ? 0 : tokenEnd(close), question === undefined ? 0 : tokenEnd(question));
    return { kind: "TypeRef", name, array, optional: question !== undefined, loc: this.loc(name.loc.start, end) };
  }

  private enumMembers(n: CstNode): EnumMember[] {
    const memberNodes = nodes(n, "enumMember");
    this.checkSeparators(memberNodes, tokens(n, "Comma"), "enum members", "Name");
    const members: EnumMember[] = [];
    for (let i = 0; i < memberNodes.length; i++) {
      const nameToken = token(memberNodes[i]!, "Name");
      if (nameToken === undefined) continue;
      const doc = this.docs.get(nameToken.startOffset);
      const name = this.name(nameToken);
      const loc = this.tokenLoc(nameToken);
      members.push(doc === undefined ? { name, loc } : { name, doc, loc });
    }
    return members;
  }

  private parameters(n: CstNode | undefined): Parameter[] {
    const parameters: Parameter[] = [];
    if (n === undefined) return parameters;
    const parameterNodes = nodes(n, "parameter");
    this.checkSeparators(parameterNodes, tokens(n, "Comma"), "parameters", "Name");
    for (let i = 0; i < parameterNodes.length; i++) {
      const parameterNode = parameterNodes[i]!;
      const nameToken = token(parameterNode, "Name");
      const typeNode = node(parameterNode, "qualifiedName");
      const type = typeNode && this.qualifiedName(typeNode);
      if (nameToken === undefined || type === undefined) continue;
      parameters.push({ name: this.name(nameToken), type, loc: this.loc(nameToken.startOffset, type.loc.end) });
    }
    return parameters;
  }

  private qualifiedName(n: CstNode): QualifiedName | undefined {
    const first = token(n, "Name");
    if (first === undefined) return undefined;
    const second = token(n, "Name", 1);
    if (second === undefined) {
      const name = this.name(first);
      return { name, text: first.image, loc: name.loc };
    }
    return {
      context: this.name(first),
      name: this.name(second),
      text: `${first.image}.${second.image}`,
      loc: this.loc(first.startOffset, tokenEnd(second)),
    };
  }

  // ── annotations ───────────────────────────────────────────────────────────────────────────────

  private annotations(n: CstNode): Annotation[] {
    const out: Annotation[] = [];
    const annotationNodes = nodes(n, "annotation");
    for (let a = 0; a < annotationNodes.length; a++) {
      const annotationNode = annotationNodes[a]!;
      const at = token(annotationNode, "At");
      const nameToken = token(annotationNode, "Name");
      if (at === undefined || nameToken === undefined) continue;
      const argumentNodes = nodes(annotationNode, "annotationArgument");
      this.checkSeparators(argumentNodes, tokens(annotationNode, "Comma"), "annotation arguments", "Name");
      const args: AnnotationArgument[] = [];
      for (let i = 0; i < argumentNodes.length; i++) {
        const argumentNode = argumentNodes[i]!;
        const argumentName = token(argumentNode, "Name");
        const valueNode = node(argumentNode, "annotationValue");
        const value = valueNode && this.annotationValue(valueNode);
        if (argumentName === undefined || value === undefined) continue;
        args.push({ name: this.name(argumentName), value, loc: this.loc(argumentName.startOffset, value.loc.end) });
      }
      const parenthesized = annotationNode.children["LParen"] !== undefined;
      out.push({ name: this.name(nameToken), args, parenthesized, loc: this.nodeLoc(annotationNode, at) });
    }
    return out;
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
      const valueNodes = nodes(list, "annotationValue");
      this.checkSeparators(valueNodes, tokens(list, "Comma"), "list values");
      const items: AnnotationValue[] = [];
      for (let i = 0; i < valueNodes.length; i++) {
        const item = this.annotationValue(valueNodes[i]!);
        if (item !== undefined) items.push(item);
      }
      return { kind: "List", items, loc: this.nodeLoc(list, open) };
    }
    return undefined;
  }

  // ── separators ────────────────────────────────────────────────────────────────────────────────

  /**
   * Items of a list need a `,` or a line break between them (`{ a: int b: int }` is refused).
   * `commas` as the parser stored them; recovery-inserted ones do not count. `firstKey`: the one
   * token key of the items' first child group, when they have one (see `spanStartFrom`).
   */
  private checkSeparators(items: readonly CstNode[], commas: readonly IToken[], what: string, firstKey?: string): void {
    if (items.length < 2) return;
    const text = this.file.text;
    let comma = 0;
    const startOf = (item: CstNode): number => (firstKey === undefined ? spanStart(item) : spanStartFrom(item, firstKey));
    // `previousEnd` is NaN while no earlier item has a real token.
    let previousEnd = startOf(items[0]!) === Infinity ? NaN : spanEnd(items[0]!);
    for (let i = 1; i < items.length; i++) {
      const start = startOf(items[i]!);
      if (start === Infinity) continue;
      const end = spanEnd(items[i]!);
      if (!Number.isNaN(previousEnd)) {
        while (comma < commas.length && !(isReal(commas[comma]!) && commas[comma]!.startOffset >= previousEnd)) comma++;
        const separated = comma < commas.length && commas[comma]!.startOffset < start;
        if (!separated && !hasLineBreak(text, previousEnd, start)) {
          this.diagnostics.push(createDiagnostic("WOW1011", { items: what }, this.loc(start, end)));
        }
      }
      previousEnd = end;
    }
  }
}

/** Sorts nodes by their start offset (0 for a node without a real token), computing each once. */
function inSourceOrder(items: CstNode[]): CstNode[] {
  return items
    .map((item) => {
      const start = spanStart(item);
      return { item, start: start === Infinity ? 0 : start };
    })
    .sort((a, b) => a.start - b.start)
    .map(({ item }) => item);
}

/** Whether `text[from, to)` holds a line break (`\n`, `\r`, U+2028, U+2029). */
function hasLineBreak(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13 || c === 0x2028 || c === 0x2029) return true;
  }
  return false;
}
