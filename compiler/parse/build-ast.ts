// CST → AST: walks the CST of grammar/parser.ts and builds the `WowFile` of compiler/ast.ts. It is
// defensive: on a CST that error recovery left partial it skips whatever is missing and never
// throws. It also reports the syntax rules the grammar leaves open on purpose, for better messages
// and recovery: `context` first and once, members in the right kind of block, and separators.
import type { CstNode, IToken } from "chevrotain";
import type {
  AggregateMember, Annotation, AnnotationArgument, AnnotationValue, ContextClause, Declaration, EnumMember,
  Field, HandlerDeclaration, JobDeclaration, Location, MessageDeclaration, Name, Parameter, QualifiedName,
  SagaMember, SourceFile, StateBlock, TypeRef,
} from "../ast.js";
import { createDiagnostic, type Diagnostic } from "../diagnostics/diagnostic.js";
import { node, nodes, offsets, token, tokenEnd, tokens } from "./cst-access.js";
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

/** Sorts nodes by their start offset, computing each once. */
function inSourceOrder(items: CstNode[]): CstNode[] {
  return items
    .map((item) => ({ item, start: offsets(item)?.start ?? 0 }))
    .sort((a, b) => a.start - b.start)
    .map(({ item }) => item);
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
    return { file: this.file, start: t.startOffset, end: tokenEnd(t) };
  }

  private nodeLoc(n: CstNode, fallback: IToken): Location {
    const span = offsets(n);
    return span === undefined ? this.tokenLoc(fallback) : this.loc(span.start, span.end);
  }

  private name(t: IToken): Name {
    return { text: t.image, loc: this.tokenLoc(t) };
  }

  /** The doc comment before `n` (or before its keyword, after annotations). */
  private docOf(n: CstNode, keyword: IToken | undefined): string | undefined {
    const span = offsets(n);
    const atStart = span === undefined ? undefined : this.docs.get(span.start);
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
    return { name: this.name(nameToken), ...(doc === undefined ? {} : { doc }), loc: this.nodeLoc(n, keyword) };
  }

  private declaration(n: CstNode): Declaration | undefined {
    const annotations = this.annotations(n);
    const type = node(n, "typeDeclaration");
    if (type !== undefined) {
      const header = this.header(n, type, "Type");
      return header && { kind: "Type", ...header, annotations, fields: this.fieldBlock(node(type, "fieldBlock")) };
    }
    const enumNode = node(n, "enumDeclaration");
    if (enumNode !== undefined) {
      const header = this.header(n, enumNode, "Enum");
      return header && { kind: "Enum", ...header, annotations, members: this.enumMembers(enumNode) };
    }
    const service = node(n, "serviceDeclaration");
    if (service !== undefined) {
      const header = this.header(n, service, "Service");
      return header && { kind: "Service", ...header, annotations };
    }
    const aggregate = node(n, "aggregateDeclaration");
    if (aggregate !== undefined) {
      const header = this.header(n, aggregate, "Aggregate");
      return header && { kind: "Aggregate", ...header, annotations, members: this.members(aggregate, "aggregate") as AggregateMember[] };
    }
    const saga = node(n, "sagaDeclaration");
    if (saga !== undefined) {
      const header = this.header(n, saga, "Saga");
      return header && { kind: "Saga", ...header, annotations, members: this.members(saga, "saga") as SagaMember[] };
    }
    this.member(n, "file", annotations);
    return undefined;
  }

  /** Name, doc and location of a declaration whose keyword token is `keywordKey`. */
  private header(outer: CstNode, inner: CstNode, keywordKey: string): { name: Name; doc?: string; loc: Location } | undefined {
    const keyword = token(inner, keywordKey);
    const nameToken = token(inner, "Name");
    if (keyword === undefined || nameToken === undefined) return undefined;
    const doc = this.docOf(outer, keyword);
    return { name: this.name(nameToken), ...(doc === undefined ? {} : { doc }), loc: this.nodeLoc(outer, keyword) };
  }

  // ── aggregate and saga members ────────────────────────────────────────────────────────────────

  private members(n: CstNode, container: Container): Member[] {
    const out: Member[] = [];
    for (const memberNode of nodes(n, "member")) {
      const member = this.member(memberNode, container, this.annotations(memberNode));
      if (member !== undefined) out.push(member);
    }
    return out;
  }

  /** A member (of an aggregate, a saga, or misplaced at the top level of the file). */
  private member(n: CstNode, container: Container, annotations: Annotation[]): Member | undefined {
    for (const [rule, keywordKey] of MEMBER_RULES) {
      const inner = node(n, rule);
      if (inner === undefined) continue;
      const wrong = misplacement(rule, container);
      if (wrong !== undefined) {
        const keyword = token(inner, keywordKey);
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
    const doc = this.docOf(outer, keyword);
    return { kind: "State", fields: this.fieldBlock(node(n, "fieldBlock")), ...(doc === undefined ? {} : { doc }), loc: this.nodeLoc(outer, keyword) };
  }

  private message(outer: CstNode, n: CstNode, kind: "Command" | "Event", annotations: Annotation[]): MessageDeclaration | undefined {
    const header = this.header(outer, n, kind);
    return header && { kind, ...header, annotations, fields: this.fieldBlock(node(n, "fieldBlock")) };
  }

  private handler(outer: CstNode, n: CstNode, annotations: Annotation[]): HandlerDeclaration | undefined {
    const keyword = token(n, "On");
    const targetNode = node(n, "qualifiedName");
    const target = targetNode && this.qualifiedName(targetNode);
    if (keyword === undefined || target === undefined) return undefined;
    const doc = this.docOf(outer, keyword);
    return {
      kind: "Handler",
      target,
      params: this.parameters(node(n, "parameterList")),
      annotations,
      ...(doc === undefined ? {} : { doc }),
      loc: this.nodeLoc(outer, keyword),
    };
  }

  private job(outer: CstNode, n: CstNode, annotations: Annotation[]): JobDeclaration | undefined {
    const header = this.header(outer, n, "Job");
    return header && { kind: "Job", ...header, annotations, params: this.parameters(node(n, "parameterList")) };
  }

  // ── fields, enum members, parameters ──────────────────────────────────────────────────────────

  private fieldBlock(n: CstNode | undefined): Field[] {
    if (n === undefined) return [];
    const fieldNodes = nodes(n, "field");
    this.checkSeparators(fieldNodes, tokens(n, "Comma"), "fields");
    const fields: Field[] = [];
    for (const fieldNode of fieldNodes) {
      const nameToken = token(fieldNode, "Name");
      const typeNode = node(fieldNode, "typeRef");
      const type = typeNode && this.typeRef(typeNode);
      if (nameToken === undefined || type === undefined) continue;
      const doc = this.docs.get(nameToken.startOffset);
      fields.push({ kind: "Field", name: this.name(nameToken), type, ...(doc === undefined ? {} : { doc }), loc: this.loc(nameToken.startOffset, type.loc.end) });
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
    this.checkSeparators(memberNodes, tokens(n, "Comma"), "enum members");
    const members: EnumMember[] = [];
    for (const memberNode of memberNodes) {
      const nameToken = token(memberNode, "Name");
      if (nameToken === undefined) continue;
      const doc = this.docs.get(nameToken.startOffset);
      members.push({ name: this.name(nameToken), ...(doc === undefined ? {} : { doc }), loc: this.tokenLoc(nameToken) });
    }
    return members;
  }

  private parameters(n: CstNode | undefined): Parameter[] {
    if (n === undefined) return [];
    const parameterNodes = nodes(n, "parameter");
    this.checkSeparators(parameterNodes, tokens(n, "Comma"), "parameters");
    const parameters: Parameter[] = [];
    for (const parameterNode of parameterNodes) {
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
    for (const annotationNode of nodes(n, "annotation")) {
      const at = token(annotationNode, "At");
      const nameToken = token(annotationNode, "Name");
      if (at === undefined || nameToken === undefined) continue;
      const argumentNodes = nodes(annotationNode, "annotationArgument");
      this.checkSeparators(argumentNodes, tokens(annotationNode, "Comma"), "annotation arguments");
      const args: AnnotationArgument[] = [];
      for (const argumentNode of argumentNodes) {
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
      for (const valueNode of valueNodes) {
        const item = this.annotationValue(valueNode);
        if (item !== undefined) items.push(item);
      }
      return { kind: "List", items, loc: this.nodeLoc(list, open) };
    }
    return undefined;
  }

  // ── separators ────────────────────────────────────────────────────────────────────────────────

  /** Items of a list need a `,` or a line break between them (`{ a: int b: int }` is refused). */
  private checkSeparators(items: readonly CstNode[], commas: readonly IToken[], what: string): void {
    if (items.length < 2) return;
    const text = this.file.text;
    let comma = 0;
    let previousEnd = offsets(items[0]!)?.end;
    for (let i = 1; i < items.length; i++) {
      const span = offsets(items[i]!);
      if (span === undefined) continue;
      if (previousEnd !== undefined) {
        while (comma < commas.length && commas[comma]!.startOffset < previousEnd) comma++;
        const separated = comma < commas.length && commas[comma]!.startOffset < span.start;
        if (!separated && !/[\n\r\u2028\u2029]/.test(text.slice(previousEnd, span.start))) {
          this.diagnostics.push(createDiagnostic("WOW1011", { items: what }, this.loc(span.start, span.end)));
        }
      }
      previousEnd = span.end;
    }
  }
}
