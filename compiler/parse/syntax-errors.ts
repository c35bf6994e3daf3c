// Parser errors → diagnostics in the user's words. The parser records facts (kind, rule, expected
// token types; see grammar/syntax-error-facts.ts); here they are read with the tokens around the
// error in view: which block is left open, which declaration a name belongs to.
import type { IRecognitionException, IToken, TokenType } from "chevrotain";
import { EOF, tokenMatcher } from "../../grammar/chevrotain.js";
import type { Location, SourceFile } from "../ast.js";
import { createDiagnostic, type Diagnostic } from "../diagnostics/diagnostic.js";
import { decodeSyntaxErrorFacts, type SyntaxErrorFacts } from "../../grammar/syntax-error-facts.js";
import {
  Aggregate, At, Colon, Comma, Command, Context, Dot, Enum, Equals, Event, Identifier, Job, LBracket, LCurly, LParen, Name,
  NumberLiteral, On, Question, RBracket, RCurly, RParen, Saga, Service, State, StringLiteral, Type, UnterminatedString,
} from "../../grammar/tokens.js";
import { didYouMean, nearest } from "../diagnostics/suggest.js";
import { DECLARATION_KEYWORDS } from "../../grammar/parser.js";

/** Tokens that begin a top-level declaration; a block still open when one comes is missing its `}`. */
const TOP_LEVEL = DECLARATION_KEYWORDS;

export function isTopLevelStart(tokens: readonly IToken[], index: number): boolean {
  const token = tokens[index];
  if (token === undefined) return false;
  if (token.tokenType === At) return true;
  if (!TOP_LEVEL.has(token.tokenType)) return false;
  // `type: string` is a field named `type`, not a declaration.
  const next = tokens[index + 1];
  return next === undefined || (next.tokenType !== Colon && next.tokenType !== Equals);
}

/** Keywords that begin a member of an aggregate or a saga (when not used as a name: `on: int`). */
const MEMBER_KEYWORDS = new Set<TokenType>([State, Command, Event, On, Job]);

export function isMemberStart(tokens: readonly IToken[], index: number): boolean {
  const token = tokens[index];
  if (token === undefined || !MEMBER_KEYWORDS.has(token.tokenType)) return false;
  const next = tokens[index + 1];
  return next === undefined || (next.tokenType !== Colon && next.tokenType !== Equals && next.tokenType !== Comma);
}

/** How a token reads in a message: `'}'`, `'state'`, `string "…"`, `end of file`. */
export function describeToken(token: IToken): string {
  if (token.tokenType === EOF) return "end of file";
  if (token.tokenType === StringLiteral || token.tokenType === UnterminatedString) {
    const image = token.image.length > 24 ? `${token.image.slice(0, 23)}…` : token.image;
    return `string ${image}`;
  }
  if (token.tokenType === NumberLiteral) return `number ${token.image}`;
  const image = token.image.length > 40 ? `${token.image.slice(0, 39)}…` : token.image;
  return `'${image}'`;
}

/** The index of the first token at or after `offset` (`tokens.length` when none). */
export function tokenIndexAt(tokens: readonly IToken[], offset: number): number {
  let low = 0;
  let high = tokens.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (tokens[mid]!.startOffset < offset) low = mid + 1;
    else high = mid;
  }
  return low;
}

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) line++;
  }
  return line;
}

interface OpenBlock {
  readonly description: string;
  readonly brace: IToken;
}

/** The innermost `{` (or `(`) before token `index` that is not closed before it, and what it opens. */
function openBlockBefore(tokens: readonly IToken[], index: number, open = LCurly, close = RCurly): OpenBlock | undefined {
  let depth = 0;
  for (let i = index - 1; i >= 0; i--) {
    const type = tokens[i]!.tokenType;
    if (type === close) depth++;
    else if (type === open) {
      if (depth > 0) {
        depth--;
        continue;
      }
      return { description: open === LCurly ? describeBlock(tokens, i) : describeParentheses(tokens, i), brace: tokens[i]! };
    }
  }
  return undefined;
}

function describeParentheses(tokens: readonly IToken[], paren: number): string {
  const before = tokens[paren - 1];
  const keyword = tokens[paren - 2];
  if (before === undefined || keyword === undefined) return "the parentheses";
  if (keyword.tokenType === At) return `the arguments of @${before.image}`;
  if (keyword.tokenType === Job) return `the parameters of job '${before.image}'`;
  for (let i = paren - 1; i >= Math.max(0, paren - 4); i--) {
    if (tokens[i]!.tokenType === On) return `the parameters of handler 'on ${tokens.slice(i + 1, paren).map((t) => t.image).join("")}'`;
  }
  return "the parentheses";
}

function describeBlock(tokens: readonly IToken[], brace: number): string {
  const before = tokens[brace - 1];
  const keyword = tokens[brace - 2];
  if (before?.tokenType === State) return "the state block";
  if (before !== undefined && keyword !== undefined && tokenMatcher(before, Name)) {
    const name = before.image;
    switch (keyword.tokenType) {
      case Aggregate: return `aggregate '${name}'`;
      case Saga: return `saga '${name}'`;
      case Enum: return `enum '${name}'`;
      case Type: return `type '${name}'`;
      case Command: return `the fields of command '${name}'`;
      case Event: return `the fields of event '${name}'`;
    }
  }
  return "the block";
}

const NAME_OF_RULE: Readonly<Record<string, string>> = {
  contextClause: "a context name after `context` (e.g. `context eshop-order`)",
  typeDeclaration: "a type name after `type`",
  enumDeclaration: "an enum name after `enum`",
  enumMember: "an enum member name",
  serviceDeclaration: "a service name after `service`",
  aggregateDeclaration: "an aggregate name after `aggregate`",
  sagaDeclaration: "a saga name after `saga`",
  commandDeclaration: "a command name after `command`",
  eventDeclaration: "an event name after `event`",
  jobDeclaration: "a job function name after `job`",
  field: "a field name",
  parameter: "a parameter name",
  annotation: "an annotation name after '@'",
  annotationArgument: "an argument name",
};

/** What a name in a `qualifiedName` stands for, from the rule that asked for it. */
const REFERENCE_OF_RULE: Readonly<Record<string, string>> = {
  typeRef: "a type after ':'",
  handlerDeclaration: "the command or event this handler handles, after `on`",
  parameter: "a service type after ':'",
  annotationValue: "a name",
};

const BODY_OF_RULE: Readonly<Record<string, string>> = {
  aggregateDeclaration: "`state { … }`, `command`, `event`, a handler `on …`",
  sagaDeclaration: "a handler `on …`, a job `job …`",
  fieldBlock: "a field `name: type`",
  enumDeclaration: "an enum member",
  parameterList: "a parameter `name: Service`",
  annotation: "an argument `name = value`",
  listValue: "a value",
};

const MEMBER_STARTS = "a command, an event, a state block, a handler (`on …`) or a job";
const DECLARATION_STARTS = "a declaration: `type`, `enum`, `service`, `aggregate` or `saga`";

function closerOf(facts: SyntaxErrorFacts): string {
  switch (facts.expected[0]) {
    case "RCurly": return "'}'";
    case "RParen": return "')'";
    case "RBracket": return "']'";
    default: return "the end";
  }
}

export interface SyntaxErrorContext {
  readonly file: SourceFile;
  /** All significant tokens of the file. */
  readonly tokens: readonly IToken[];
}

/** The span to report for `token`: its own, or the end of the last token at the end of the file. */
export function errorLocation(context: SyntaxErrorContext, token: IToken | undefined): Location {
  const { file, tokens } = context;
  if (token === undefined || token.tokenType === EOF || !Number.isFinite(token.startOffset)) {
    const last = tokens[tokens.length - 1];
    const end = last === undefined ? 0 : last.startOffset + last.image.length;
    return { file, start: end, end };
  }
  return { file, start: token.startOffset, end: token.startOffset + token.image.length };
}

/** WOW1002, with `advice` as its hint (none when empty). */
export function unexpected(found: string, expected: string, loc: Location, advice = ""): Diagnostic {
  return createDiagnostic("WOW1002", { found, expected, advice }, loc);
}

/** Where declarations or members stand: the top level of a file, or the body of an aggregate or a saga. */
export type Container = "file" | "aggregate" | "saga";

/** The keywords that begin a declaration or a member, by container. */
const KEYWORDS_IN: Readonly<Record<Container, readonly string[]>> = {
  file: ["type", "enum", "service", "aggregate", "saga"],
  aggregate: ["state", "command", "event", "on"],
  saga: ["on", "job"],
};

const STARTS_IN: Readonly<Record<Container, string>> = {
  file: DECLARATION_STARTS,
  aggregate: "`state { … }`, `command`, `event` or a handler `on …`",
  saga: "a handler `on …` or a job `job …`",
};

/** `Did you mean 'aggregate'?` when `token` is a word spelled like a keyword allowed in `container`. */
function keywordSuggestion(token: IToken, container: Container): string {
  if (token.tokenType !== Identifier) return "";
  return didYouMean(nearest(token.image, KEYWORDS_IN[container])).trimEnd();
}

/**
 * A word that is no keyword, followed by a block, where a declaration or member of `container` may
 * start (`agregate A { … }`): the parse left it and its block out (see parse-file.ts).
 */
export function describeStrayWord(context: SyntaxErrorContext, word: IToken, container: Container): Diagnostic {
  const suggestion = keywordSuggestion(word, container);
  const skipped = `'${word.image}' is not a keyword; it was skipped with its block.`;
  return unexpected(describeToken(word), STARTS_IN[container], errorLocation(context, word), suggestion === "" ? skipped : `${suggestion} ${skipped}`);
}

/** `context` without a name (at the end of the file, or before a declaration): WOW1007 after it. */
export function describeMissingContextName(context: SyntaxErrorContext, keyword: IToken): Diagnostic {
  const next = context.tokens[tokenIndexAt(context.tokens, keyword.startOffset) + 1];
  const found = next === undefined ? "end of file" : describeToken(next);
  return createDiagnostic("WOW1007", { found, what: NAME_OF_RULE["contextClause"]! }, errorLocation(context, next));
}

/** `[` after `T?` or `T[]`: a type that is not `T`, `T[]`, `T?` or `T[]?`. */
function misplacedTypeSuffix(tokens: readonly IToken[], index: number): boolean {
  const previous = tokens[index - 1]?.tokenType;
  return tokens[index]?.tokenType === LBracket && (previous === Question || previous === RBracket);
}

const TYPE_FORMS =
  "A field's type is `T`, `T[]` (an array), `T?` (optional) or `T[]?` (an optional array): arrays do not nest and their items are not optional. Write `T[]` or `T[]?`, or declare a `type` that holds the inner array.";

const SERVICE_PARAMETERS =
  "A handler's parameter is one service, `name: Service`, which the host always provides: it takes no `[]` and no `?`. Declare one parameter per service.";

/** `context eshop.order`: a `.` right after the context's name. */
function dotInContextName(tokens: readonly IToken[], index: number): boolean {
  return tokens[index]?.tokenType === Dot && tokens[index - 2]?.tokenType === Context;
}

const CONTEXT_NAMES = "A context name is one name, lower-case words joined by '-' (`context eshop-order`), without '.'.";

const CONTAINER_OF_RULE: Readonly<Record<string, Container>> = { aggregateDeclaration: "aggregate", sagaDeclaration: "saga" };

/** A token that cannot start a declaration, at the top level. */
function unexpectedAtTopLevel(context: SyntaxErrorContext, token: IToken, loc: Location): Diagnostic {
  const found = describeToken(token);
  const index = token.tokenType === EOF ? context.tokens.length : tokenIndexAt(context.tokens, token.startOffset);
  if (dotInContextName(context.tokens, index)) return unexpected(found, "a new line after the context's name", loc, CONTEXT_NAMES);
  return unexpected(found, DECLARATION_STARTS, loc, keywordSuggestion(token, "file"));
}

export function describeSyntaxError(context: SyntaxErrorContext, error: IRecognitionException): Diagnostic {
  const token = error.token;
  const loc = errorLocation(context, token);
  const found = describeToken(token);
  const facts = decodeSyntaxErrorFacts(error.message);
  if (facts === undefined) return unexpected(found, "something else", loc);
  const rule = facts.rule;
  const stack = error.context?.ruleStack ?? [];
  const parentRule = stack[stack.length - 2] ?? "";

  switch (facts.kind) {
    case "notAllInput":
      return unexpectedAtTopLevel(context, token, loc);
    case "noViableAlt":
    case "earlyExit":
      if (rule === "member") return createDiagnostic("WOW1012", { found, what: MEMBER_STARTS }, loc);
      if (rule === "declaration") return createDiagnostic("WOW1012", { found, what: `${MEMBER_STARTS}, or ${DECLARATION_STARTS}` }, loc);
      if (rule === "annotationValue") {
        return unexpected(found, "a value: a string, a number, `true`, `false`, a name or a list `[…]`", loc);
      }
      return unexpected(found, facts.expected.join(", ") || "something else", loc);
    case "mismatch":
      break;
  }

  const expected = facts.expected[0];
  const tokens = context.tokens;
  // At the top level the parser skips what cannot start a declaration, expecting the end of the file.
  if (expected === "EOF") return unexpectedAtTopLevel(context, token, loc);
  if (expected === "RCurly" || expected === "RParen" || expected === "RBracket") {
    const index = token.tokenType === EOF ? tokens.length : tokenIndexAt(tokens, token.startOffset);
    if (misplacedTypeSuffix(tokens, index)) return unexpected(found, "the end of the field's type", loc, TYPE_FORMS);
    const closing = token.tokenType === EOF || isTopLevelStart(tokens, index) || isMemberStart(tokens, index);
    if (expected === "RCurly" && closing) {
      const open = openBlockBefore(tokens, index);
      if (open !== undefined) {
        const line = lineOf(context.file.text, open.brace.startOffset);
        return createDiagnostic("WOW1006", { found, block: open.description, line }, loc);
      }
    }
    if (expected === "RParen" && closing) {
      const open = openBlockBefore(tokens, index, LParen, RParen);
      if (open !== undefined) return unexpected(found, `')' to close ${open.description}`, loc);
    }
    const body = BODY_OF_RULE[rule];
    if (body !== undefined) {
      const where = expected === "RCurly" ? openBlockBefore(tokens, index)?.description : undefined;
      const inside = where === undefined ? "" : ` in ${where}`;
      const expectedText = `${body} or ${closerOf(facts)}${inside}`;
      if (rule === "fieldBlock" || rule === "enumDeclaration") return createDiagnostic("WOW1007", { found, what: expectedText }, loc);
      if (rule === "parameterList" && (token.tokenType === LBracket || token.tokenType === Question)) {
        return unexpected(found, expectedText, loc, SERVICE_PARAMETERS);
      }
      const container = CONTAINER_OF_RULE[rule];
      return unexpected(found, expectedText, loc, container === undefined ? "" : keywordSuggestion(token, container));
    }
    return unexpected(found, closerOf(facts), loc);
  }
  if (expected === "Name") {
    const index = token.tokenType === EOF ? tokens.length : tokenIndexAt(tokens, token.startOffset);
    const afterDot = tokens[index - 1]?.tokenType === Dot;
    const what = afterDot
      ? "a name after '.' (`context-name.Name`)"
      : rule === "qualifiedName" ? (REFERENCE_OF_RULE[parentRule] ?? "a name") : (NAME_OF_RULE[rule] ?? "a name");
    return createDiagnostic("WOW1007", { found, what }, loc);
  }
  const label = EXPECTED_LABELS[expected ?? ""] ?? "something else";
  const after = AFTER_RULE[rule];
  return unexpected(found, after === undefined ? label : `${label} ${after}`, loc);
}

const EXPECTED_LABELS: Readonly<Record<string, string>> = {
  LCurly: "'{'", RCurly: "'}'", LParen: "'('", RParen: "')'", LBracket: "'['", RBracket: "']'",
  Comma: "','", Colon: "':'", Equals: "'='", Dot: "'.'", Question: "'?'", At: "'@'",
  StringLiteral: "a string", NumberLiteral: "a number", State: "`state`",
};

const AFTER_RULE: Readonly<Record<string, string>> = {
  field: "between the field name and its type (`name: type`)",
  parameter: "between the parameter name and its type (`name: Service`)",
  annotationArgument: "between the argument name and its value (`name = value`)",
  enumDeclaration: "after the enum name (`enum Name { A, B }`)",
  aggregateDeclaration: "after the aggregate name (`aggregate Name { … }`)",
  sagaDeclaration: "after the saga name (`saga Name { … }`)",
  stateBlock: "after `state` (`state { name: type … }`)",
  fieldBlock: "to open the fields",
  typeRef: "after '[' (an array type is written `T[]`)",
};
