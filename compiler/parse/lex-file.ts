// Lexing one file with the shared lexer: tokens for the parser, comments on the side, and the lexical
// diagnostics (unexpected characters, unterminated strings and comments).
import type { IToken } from "chevrotain";
import type { SourceFile } from "../ast.js";
import { createDiagnostic, type Diagnostic } from "../diagnostics/diagnostic.js";
import { COMMENTS_GROUP, LBracket, MisquotedString, RBracket, UnterminatedComment, UnterminatedString, wowLexer } from "../../grammar/tokens.js";
import { scanTokens } from "./scan-tokens.js";
import { unexpected } from "./syntax-errors.js";

export interface LexedFile {
  /** Significant tokens, in order (whitespace and comments removed). */
  readonly tokens: IToken[];
  /** Comment tokens, in order (line, block and doc comments). */
  readonly comments: IToken[];
  readonly diagnostics: Diagnostic[];
}

const NO_COMMENTS: IToken[] = [];

/** Shows characters the way a user can recognise them: control and invisible ones as `\u{…}`. */
function visible(chars: string): string {
  let out = "";
  for (const char of chars) {
    const code = char.codePointAt(0)!;
    const invisible = code < 0x20 || (code >= 0x7f && code <= 0xa0) || code === 0xad || (code >= 0x200b && code <= 0x200f) || code === 0xfeff;
    out += invisible ? `\\u{${code.toString(16).toUpperCase()}}` : char;
  }
  return out.length > 40 ? `${out.slice(0, 40)}…` : out;
}

export function lexFile(file: SourceFile): LexedFile {
  const scanned = scanTokens(file.text);
  if (scanned !== undefined) {
    const { tokens, comments } = scanned;
    if (!tooDeep(tokens)) return { tokens, comments: comments.length === 0 ? NO_COMMENTS : comments, diagnostics: [] };
  }
  return lexWithLexer(file);
}

/** Whether lists nest deeper than MAX_LIST_DEPTH somewhere in `tokens`. */
function tooDeep(tokens: readonly IToken[]): boolean {
  let depth = 0;
  for (const token of tokens) {
    if (token.tokenType === LBracket) {
      if (++depth > MAX_LIST_DEPTH) return true;
    } else if (token.tokenType === RBracket && depth > 0) depth--;
  }
  return false;
}

/** `lexFile` through the shared lexer, whatever the file holds: the way that words lexical errors. */
export function lexWithLexer(file: SourceFile): LexedFile {
  const result = wowLexer().tokenize(file.text);
  const comments = (result.groups[COMMENTS_GROUP] as IToken[] | undefined) ?? NO_COMMENTS;
  const diagnostics: Diagnostic[] = [];
  for (const error of result.errors) {
    const start = error.offset;
    const end = Math.min(file.text.length, start + Math.max(1, error.length));
    diagnostics.push(createDiagnostic("WOW1001", { text: visible(file.text.slice(start, end)) }, { file, start, end }));
  }
  let depth = 0;
  let tooDeep: IToken | undefined;
  for (const token of result.tokens) {
    const type = token.tokenType;
    if (type === LBracket) {
      if (++depth > MAX_LIST_DEPTH) tooDeep ??= token;
    } else if (type === RBracket) {
      if (depth > 0) depth--;
    } else if (type === UnterminatedString) {
      const start = token.startOffset;
      diagnostics.push(createDiagnostic("WOW1003", {}, { file, start, end: start + token.image.length }));
    } else if (type === MisquotedString) {
      const start = token.startOffset;
      const inDoubleQuotes = JSON.stringify(token.image.slice(1, -1));
      const advice = `Write ${inDoubleQuotes}: strings are written between straight double quotes '"'.`;
      diagnostics.push(unexpected(`string ${token.image}`, "a string between double quotes", { file, start, end: start + token.image.length }, advice));
    }
  }
  let tokens = result.tokens;
  if (tooDeep !== undefined) {
    diagnostics.push(createDiagnostic("WOW1013", { depth: MAX_LIST_DEPTH }, { file, start: tooDeep.startOffset, end: tooDeep.startOffset + 1 }));
    tokens = withoutDeepLists(tokens);
  }
  const last = comments[comments.length - 1];
  if (last !== undefined && last.tokenType === UnterminatedComment) {
    const start = last.startOffset;
    diagnostics.push(createDiagnostic("WOW1004", {}, { file, start, end: start + 2 }));
  }
  if (diagnostics.length > 1 && result.errors.length > 0) diagnostics.sort((a, b) => a.loc!.start - b.loc!.start);
  return { tokens, comments, diagnostics };
}

/**
 * How deep lists may nest in an annotation's value (`[A, [B]]` is 2). Parsing a list is recursive,
 * and a few hundred levels would overflow the stack; no annotation needs more than one.
 */
const MAX_LIST_DEPTH = 64;

/** `tokens` without what lies deeper than MAX_LIST_DEPTH: each too deep `[` up to its `]` (or the end). */
function withoutDeepLists(tokens: readonly IToken[]): IToken[] {
  const kept: IToken[] = [];
  let depth = 0;
  for (const token of tokens) {
    if (token.tokenType === LBracket) depth++;
    if (depth <= MAX_LIST_DEPTH) kept.push(token);
    if (token.tokenType === RBracket && depth > 0) depth--;
  }
  return kept;
}
