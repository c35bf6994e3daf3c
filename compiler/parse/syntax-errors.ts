// Parser errors → diagnostics in the user's words. The parser records facts (kind, rule, expected
// token types; see grammar/syntax-error-facts.ts); here they are read with the tokens around the
// error in view: which block is left open, which declaration a name belongs to.
import type { IRecognitionException, IToken, TokenType } from "chevrotain";
import { EOF, tokenMatcher } from "../../grammar/chevrotain.js";
import type { Location, SourceFile } from "../ast.js";
import { createDiagnostic, type Diagnostic } from "../diagnostics/diagnostic.js";
import { decodeSyntaxErrorFacts, type SyntaxErrorFacts } from "../../grammar/syntax-error-facts.js";
import {
  Aggregate, At, Colon, Comma, Command, Context, Dot, Enum, Equals, Event, Job, LCurly, LParen, Name, NumberLiteral, On,
  RCurly, RParen, Saga, Service, State, StringLiteral, Type, UnterminatedString,
} from "../../grammar/tokens.js";

/** Tokens that begin a top-level declaration; a block still open when one comes is missing its `}`. */
const TOP_LEVEL = new Set<TokenType>([Context, Type, Enum, Service, Aggregate, Saga]);

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

export function describeSyntaxError(context: SyntaxErrorContext, error: IRecognitionException): Diagnostic {
  const token = error.token;
  const loc = errorLocation(context, token);
  const found = describeToken(token);
  const facts = decodeSyntaxErrorFacts(error.message);
  if (facts === undefined) return createDiagnostic("WOW1002", { found, expected: "something else" }, loc);
  const rule = facts.rule;
  const stack = error.context?.ruleStack ?? [];
  const parentRule = stack[stack.length - 2] ?? "";

  switch (facts.kind) {
    case "notAllInput":
      return createDiagnostic("WOW1002", { found, expected: DECLARATION_STARTS }, loc);
    case "noViableAlt":
    case "earlyExit":
      if (rule === "member") return createDiagnostic("WOW1012", { found, what: MEMBER_STARTS }, loc);
      if (rule === "declaration") return createDiagnostic("WOW1012", { found, what: `${MEMBER_STARTS}, or ${DECLARATION_STARTS}` }, loc);
      if (rule === "annotationValue") {
        return createDiagnostic("WOW1002", { found, expected: "a value: a string, a number, `true`, `false`, a name or a list `[…]`" }, loc);
      }
      return createDiagnostic("WOW1002", { found, expected: facts.expected.join(", ") || "something else" }, loc);
    case "mismatch":
      break;
  }

  const expected = facts.expected[0];
  const tokens = context.tokens;
  // At the top level the parser skips what cannot start a declaration, expecting the end of the file.
  if (expected === "EOF") return createDiagnostic("WOW1002", { found, expected: DECLARATION_STARTS }, loc);
  if (expected === "RCurly" || expected === "RParen" || expected === "RBracket") {
    const index = token.tokenType === EOF ? tokens.length : tokenIndexAt(tokens, token.startOffset);
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
      if (open !== undefined) return createDiagnostic("WOW1002", { found, expected: `')' to close ${open.description}` }, loc);
    }
    const body = BODY_OF_RULE[rule];
    if (body !== undefined) {
      const where = expected === "RCurly" ? openBlockBefore(tokens, index)?.description : undefined;
      const inside = where === undefined ? "" : ` in ${where}`;
      const expectedText = `${body} or ${closerOf(facts)}${inside}`;
      return rule === "fieldBlock" || rule === "enumDeclaration"
        ? createDiagnostic("WOW1007", { found, what: expectedText }, loc)
        : createDiagnostic("WOW1002", { found, expected: expectedText }, loc);
    }
    return createDiagnostic("WOW1002", { found, expected: closerOf(facts) }, loc);
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
  return createDiagnostic("WOW1002", { found, expected: after === undefined ? label : `${label} ${after}` }, loc);
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
