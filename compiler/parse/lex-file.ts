// Lexing one file with the shared lexer: tokens for the parser, comments on the side, and the lexical
// diagnostics (unexpected characters, unterminated strings and comments).
import type { IToken } from "chevrotain";
import type { SourceFile } from "../ast.js";
import { createDiagnostic, type Diagnostic } from "../diagnostics/diagnostic.js";
import { COMMENTS_GROUP, UnterminatedComment, UnterminatedString, wowLexer } from "../../grammar/tokens.js";

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
  const result = wowLexer.tokenize(file.text);
  const comments = (result.groups[COMMENTS_GROUP] as IToken[] | undefined) ?? NO_COMMENTS;
  const diagnostics: Diagnostic[] = [];
  for (const error of result.errors) {
    const start = error.offset;
    const end = Math.min(file.text.length, start + Math.max(1, error.length));
    diagnostics.push(createDiagnostic("WOW1001", { text: visible(file.text.slice(start, end)) }, { file, start, end }));
  }
  for (const token of result.tokens) {
    if (token.tokenType === UnterminatedString) {
      const start = token.startOffset;
      diagnostics.push(createDiagnostic("WOW1003", {}, { file, start, end: start + token.image.length }));
    }
  }
  const last = comments[comments.length - 1];
  if (last !== undefined && last.tokenType === UnterminatedComment) {
    const start = last.startOffset;
    diagnostics.push(createDiagnostic("WOW1004", {}, { file, start, end: start + 2 }));
  }
  if (diagnostics.length > 1 && result.errors.length > 0) diagnostics.sort((a, b) => a.loc!.start - b.loc!.start);
  return { tokens: result.tokens, comments, diagnostics };
}
