// The AST of a well-formed file, read straight from its tokens: no CST, no recovery. Most files of a
// build have no syntax error, and for them this gives the very AST the parser and the builder give
// (same nodes, same key order), at a fraction of their cost. At the first token that the grammar
// does not expect, or at anything the builder would report (a missing context name, a member out of
// place, items without a separator, a bad escape), it gives up, and the file goes the full way,
// which words the errors. A test holds the two ways equal on every file of the repository and on
// thousands of broken variants of them.
import type { IToken, TokenType } from "chevrotain";
import type {
  AggregateMember, Annotation, AnnotationArgument, AnnotationValue, ContextClause, Declaration, EnumMember, Field,
  Location, Parameter, QualifiedName, SagaMember, SourceFile, TypeRef,
} from "../ast.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { EMPTY, exact } from "./exact.js";
import { sourceName, type SourceName } from "./source-name.js";
import { createArgument, createField } from "./spanned-nodes.js";
import { decodeString } from "./strings.js";
import { DECLARATION_KEYWORDS } from "../../grammar/parser.js";
import {
  Aggregate, At, Colon, Comma, Command, Context, Dot, Enum, Equals, Event, False, Job, LBracket, LCurly, LParen,
  Name, NumberLiteral, On, Question, RBracket, RCurly, RParen, Saga, Service, State, StringLiteral, True, Type,
} from "../../grammar/tokens.js";
import { tokenMatcher } from "../../grammar/chevrotain.js";

/** Thrown (one shared value, no stack) where the file leaves the well-formed path. */
const OFF_PATH: unique symbol = Symbol("not well-formed");

type Container = "aggregate" | "saga";

export interface DirectFile {
  readonly context: ContextClause;
  readonly declarations: readonly Declaration[];
}

/**
 * The file's AST, or `undefined` when the full parse would report anything. `tokens` and `comments`
 * are the lexer's (and the lexer reported nothing); `docs` maps a token's offset to its doc comment.
 */
export function directAst(file: SourceFile, tokens: readonly IToken[], docs: ReadonlyMap<number, string>): DirectFile | undefined {
  try {
    return new DirectReader(file, tokens, docs).file();
  } catch (error) {
    if (error === OFF_PATH) return undefined;
    throw error;
  }
}

/** Where a node ends: what the separator check measures from. */
const locEnd = (node: { readonly loc: Location }): number => node.loc.end;

class DirectReader {
  private i = 0;
  private readonly n: number;
  private readonly text: string;

  constructor(
    private readonly source: SourceFile,
    private readonly tokens: readonly IToken[],
    private readonly docs: ReadonlyMap<number, string>,
  ) {
    this.n = tokens.length;
    this.text = source.text;
  }

  // ── tokens ────────────────────────────────────────────────────────────────────────────────────

  /** The token `k` ahead of the next one (0: the next), or `undefined` past the end. */
  private peek(k = 0): IToken | undefined {
    return this.tokens[this.i + k];
  }

  private isNext(type: TokenType): boolean {
    return this.tokens[this.i]?.tokenType === type;
  }

  /** The next token, which must be of `type`. */
  private expect(type: TokenType): IToken {
    const token = this.tokens[this.i];
    if (token === undefined || token.tokenType !== type) throw OFF_PATH;
    this.i++;
    return token;
  }

  /** The next token, which must be a name (an identifier or a keyword). */
  private expectName(): IToken {
    const token = this.tokens[this.i];
    if (token === undefined || !tokenMatcher(token, Name)) throw OFF_PATH;
    this.i++;
    return token;
  }

  /** Where the last token read ends. */
  private lastEnd(): number {
    const last = this.tokens[this.i - 1]!;
    return last.startOffset + last.image.length;
  }

  private name(token: IToken): SourceName {
    return sourceName(token.image, this.source, token.startOffset);
  }

  private loc(start: number, end: number): Location {
    return { file: this.source, start, end };
  }

  private tokenLoc(token: IToken): Location {
    return { file: this.source, start: token.startOffset, end: token.startOffset + token.image.length };
  }

  /** The doc comment before a node that starts at `start`, or before its keyword (after annotations). */
  private docOf(start: number, keyword: IToken): string | undefined {
    return this.docs.get(start) ?? this.docs.get(keyword.startOffset);
  }

  /** Leaves the path unless a line break lies in `text[from, to)`. */
  private lineBreakBetween(from: number, to: number): void {
    const text = this.text;
    for (let k = from; k < to; k++) {
      const c = text.charCodeAt(k);
      if (c === 10 || c === 13 || c === 0x2028 || c === 0x2029) return;
    }
    throw OFF_PATH; // the builder reports WOW1011
  }

  /** Reads a `,` if one is next. */
  private comma(): boolean {
    if (!this.isNext(Comma)) return false;
    this.i++;
    return true;
  }

  // ── file and declarations ─────────────────────────────────────────────────────────────────────

  file(): DirectFile {
    if (!this.isNext(Context)) throw OFF_PATH; // WOW1005, or an empty file
    let context: ContextClause | undefined;
    const declarations: Declaration[] = [];
    while (this.i < this.n) {
      if (this.isNext(Context)) {
        if (context !== undefined) throw OFF_PATH; // WOW1009
        context = this.contextClause();
      } else {
        declarations.push(this.declaration());
      }
    }
    return { context: context!, declarations: exact(declarations) };
  }

  private contextClause(): ContextClause {
    const keyword = this.expect(Context);
    const next = this.peek();
    // The parser's gate: a declaration keyword followed by a name (not another such keyword) begins
    // a declaration, and the context's name is missing (reported).
    if (next === undefined || !tokenMatcher(next, Name)) throw OFF_PATH;
    if (DECLARATION_KEYWORDS.has(next.tokenType)) {
      const after = this.peek(1);
      if (after !== undefined && tokenMatcher(after, Name) && !DECLARATION_KEYWORDS.has(after.tokenType)) throw OFF_PATH;
    }
    const nameToken = this.expectName();
    const start = keyword.startOffset;
    return { name: this.name(nameToken), doc: this.docOf(start, keyword), loc: this.loc(start, this.lastEnd()) };
  }

  private declaration(): Declaration {
    const start = this.peek()!.startOffset;
    const annotations = this.annotations();
    const keyword = this.peek();
    switch (keyword?.tokenType) {
      case Type: {
        this.i++;
        const name = this.name(this.expectName());
        const fields = this.isNext(LCurly) ? this.fieldBlock() : EMPTY;
        return { kind: "Type", name, doc: this.docOf(start, keyword), loc: this.loc(start, this.lastEnd()), annotations, fields };
      }
      case Enum: {
        this.i++;
        const name = this.name(this.expectName());
        const members = this.enumMembers();
        return { kind: "Enum", name, doc: this.docOf(start, keyword), loc: this.loc(start, this.lastEnd()), annotations, members };
      }
      case Service: {
        this.i++;
        const name = this.name(this.expectName());
        return { kind: "Service", name, doc: this.docOf(start, keyword), loc: this.loc(start, this.lastEnd()), annotations };
      }
      case Aggregate: {
        this.i++;
        const name = this.name(this.expectName());
        const members = this.members("aggregate") as readonly AggregateMember[];
        return { kind: "Aggregate", name, doc: this.docOf(start, keyword), loc: this.loc(start, this.lastEnd()), annotations, members };
      }
      case Saga: {
        this.i++;
        const name = this.name(this.expectName());
        const members = this.members("saga") as readonly SagaMember[];
        return { kind: "Saga", name, doc: this.docOf(start, keyword), loc: this.loc(start, this.lastEnd()), annotations, members };
      }
    }
    throw OFF_PATH; // a member outside an aggregate or a saga (WOW1010), or no declaration
  }

  private members(container: Container): readonly (AggregateMember | SagaMember)[] {
    this.expect(LCurly);
    const out: (AggregateMember | SagaMember)[] = [];
    while (!this.isNext(RCurly)) out.push(this.member(container));
    this.i++;
    return exact(out);
  }

  /** A member allowed in `container`; any other is reported by the builder (WOW1010). */
  private member(container: Container): AggregateMember | SagaMember {
    const start = this.peek()?.startOffset ?? NaN;
    const annotations = this.annotations();
    const keyword = this.peek();
    if (keyword === undefined) throw OFF_PATH;
    const inAggregate = container === "aggregate";
    switch (keyword.tokenType) {
      case State: {
        if (!inAggregate || annotations.length > 0) throw OFF_PATH;
        this.i++;
        const fields = this.fieldBlock();
        return { kind: "State", fields, doc: this.docOf(start, keyword), loc: this.loc(start, this.lastEnd()) };
      }
      case Command:
      case Event: {
        if (!inAggregate) throw OFF_PATH;
        this.i++;
        const name = this.name(this.expectName());
        const fields = this.isNext(LCurly) ? this.fieldBlock() : EMPTY;
        const kind = keyword.tokenType === Command ? "Command" : "Event";
        return { kind, name, doc: this.docOf(start, keyword), loc: this.loc(start, this.lastEnd()), annotations, fields };
      }
      case On: {
        this.i++;
        const target = this.qualifiedName();
        const params = this.isNext(LParen) ? this.parameters() : EMPTY;
        const doc = this.docOf(start, keyword);
        return { kind: "Handler", target, params, annotations, doc, loc: this.loc(start, this.lastEnd()) };
      }
      case Job: {
        if (inAggregate) throw OFF_PATH;
        this.i++;
        const name = this.name(this.expectName());
        const params = this.isNext(LParen) ? this.parameters() : EMPTY;
        return { kind: "Job", name, doc: this.docOf(start, keyword), loc: this.loc(start, this.lastEnd()), annotations, params };
      }
    }
    throw OFF_PATH;
  }

  // ── fields, enum members, parameters, names ───────────────────────────────────────────────────

  private fieldBlock(): readonly Field[] {
    return this.items(LCurly, RCurly, this.field, locEnd);
  }

  /** `name: Type`. */
  private readonly field = (): Field => {
    const nameToken = this.expectName();
    this.expect(Colon);
    return createField(this.name(nameToken), this.typeRef(), this.docs.get(nameToken.startOffset));
  };

  private typeRef(): TypeRef {
    const name = this.qualifiedName();
    let array = false;
    if (this.isNext(LBracket)) {
      this.i++;
      this.expect(RBracket);
      array = true;
    }
    const optional = this.isNext(Question);
    if (optional) this.i++;
    const end = this.lastEnd();
    // Without `[]` or `?` the type spans its name: one location for both.
    const loc = end === name.loc.end ? name.loc : this.loc(name.loc.start, end);
    return { kind: "TypeRef", name, array, optional, loc };
  }

  private enumMembers(): readonly EnumMember[] {
    return this.items(LCurly, RCurly, this.enumMember, locEnd);
  }

  private readonly enumMember = (): EnumMember => {
    const nameToken = this.expectName();
    const doc = this.docs.get(nameToken.startOffset);
    const name = this.name(nameToken);
    return { name, doc, loc: name.loc };
  };

  private parameters(): readonly Parameter[] {
    return this.items(LParen, RParen, this.parameter, locEnd);
  }

  /** `name: Type`, the type a plain or qualified name. */
  private readonly parameter = (): Parameter => {
    const nameToken = this.expectName();
    this.expect(Colon);
    const type = this.qualifiedName();
    return { name: this.name(nameToken), type, loc: this.loc(nameToken.startOffset, type.loc.end) };
  };

  /** `Name` or `context-name.Name`; a bare reference is its own QualifiedName. */
  private qualifiedName(): QualifiedName {
    const first = this.expectName();
    if (!this.isNext(Dot)) return this.name(first);
    this.i++;
    const second = this.expectName();
    return {
      context: this.name(first),
      name: this.name(second),
      text: `${first.image}.${second.image}`,
      loc: this.loc(first.startOffset, second.startOffset + second.image.length),
    };
  }

  // ── annotations ───────────────────────────────────────────────────────────────────────────────

  private annotations(): readonly Annotation[] {
    if (!this.isNext(At)) return EMPTY;
    const out: Annotation[] = [];
    while (this.isNext(At)) {
      const at = this.tokens[this.i++]!;
      const name = this.name(this.expectName());
      let args: readonly AnnotationArgument[] = EMPTY;
      const parenthesized = this.isNext(LParen);
      if (parenthesized) args = this.annotationArguments();
      out.push({ name, args, parenthesized, loc: this.loc(at.startOffset, this.lastEnd()) });
    }
    return exact(out);
  }

  private annotationArguments(): readonly AnnotationArgument[] {
    return this.items(LParen, RParen, this.annotationArgument, locEnd);
  }

  /** `name = value`. */
  private readonly annotationArgument = (): AnnotationArgument => {
    const nameToken = this.expectName();
    this.expect(Equals);
    return createArgument(this.name(nameToken), this.value());
  };

  private readonly listItem = (): AnnotationValue => this.value();

  private value(): AnnotationValue {
    const token = this.peek();
    if (token === undefined) throw OFF_PATH;
    switch (token.tokenType) {
      case StringLiteral: {
        this.i++;
        const escapes: Diagnostic[] = [];
        const value = decodeString(this.source, token.image, token.startOffset, escapes);
        if (escapes.length > 0) throw OFF_PATH; // WOW1008
        return { kind: "String", value, loc: this.tokenLoc(token) };
      }
      case NumberLiteral:
        this.i++;
        return { kind: "Number", value: Number(token.image), text: token.image, loc: this.tokenLoc(token) };
      case True:
        this.i++;
        return { kind: "Boolean", value: true, loc: this.tokenLoc(token) };
      case False:
        this.i++;
        return { kind: "Boolean", value: false, loc: this.tokenLoc(token) };
      case LBracket:
        return this.list();
    }
    if (!tokenMatcher(token, Name)) throw OFF_PATH;
    const name = this.qualifiedName();
    return { kind: "Reference", name, loc: name.loc };
  }

  private list(): AnnotationValue {
    const start = this.peek()!.startOffset;
    const items = this.items(LBracket, RBracket, this.listItem, locEnd);
    return { kind: "List", items, loc: this.loc(start, this.lastEnd()) };
  }

  /**
   * Items between `open` and `close`, each read by `read`: a `,` or a line break is required between
   * two (the builder reports WOW1011), and an optional `,` follows each.
   */
  private items<T>(open: TokenType, close: TokenType, read: () => T, endOf: (item: T) => number): readonly T[] {
    this.expect(open);
    const items: T[] = [];
    let previousEnd = NaN; // NaN before the first item
    let comma = false;
    while (!this.isNext(close)) {
      const next = this.peek();
      if (next === undefined) throw OFF_PATH;
      if (!Number.isNaN(previousEnd) && !comma) this.lineBreakBetween(previousEnd, next.startOffset);
      const item = read();
      items.push(item);
      previousEnd = endOf(item);
      comma = this.comma();
    }
    this.i++;
    return exact(items);
  }
}
