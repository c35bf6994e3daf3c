// Parsing a `.wow` file: lex (shared lexer) → parse (shared parser, with recovery) → build the AST.
// `lexFile` and `parseTokens` are exposed separately so that benchmarks can time them apart.
import type { IRecognitionException, IToken } from "chevrotain";
import type { CstNode } from "../../grammar/cst.js";
import type { SourceFile, WowFile } from "../ast.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { parseCst, wowParser } from "../../grammar/parser.js";
import { AstBuilder } from "./build-ast.js";
import { indexDocs, toComments } from "./comments.js";
import { lexFile, type LexedFile } from "./lex-file.js";
import { describeSyntaxError, isTopLevelStart, tokenIndexAt, type SyntaxErrorContext } from "./syntax-errors.js";

export { lexFile, type LexedFile } from "./lex-file.js";

export interface ParsedFile {
  readonly ast: WowFile;
  /** Syntax diagnostics in source order: the lexer's and the parser's, at most one per offset. */
  readonly diagnostics: Diagnostic[];
}

/**
 * Parses the whole token list. When the parser stops at a token that cannot continue the file (a
 * stray `}` at the top level), it reports it and resumes at the next top-level declaration, so one
 * run reports the errors of every declaration.
 */
function parseAll(tokens: IToken[]): { files: CstNode[]; errors: IRecognitionException[] } {
  const files: CstNode[] = [];
  const errors: IRecognitionException[] = [];
  let from = 0;
  let input = tokens;
  for (;;) {
    files.push(parseCst(input));
    const stopped = wowParser.errors.find((error) => error.name === "NotAllInputParsedException");
    errors.push(...wowParser.errors);
    if (stopped === undefined) break;
    let next = tokenIndexAt(tokens, stopped.token.startOffset) + 1;
    while (next < tokens.length && !isTopLevelStart(tokens, next)) next++;
    if (next >= tokens.length || next <= from) break;
    from = next;
    input = tokens.slice(from);
  }
  return { files, errors };
}

/**
 * Parse errors closer than this many tokens after a reported one are taken as its echoes (recovery
 * resyncing through the same mistake) and not reported, unless a new declaration starts between them.
 */
const ECHO_DISTANCE = 3;

function startsDeclarationBetween(tokens: readonly IToken[], after: number, upTo: number): boolean {
  for (let i = after + 1; i <= upTo; i++) if (isTopLevelStart(tokens, i)) return true;
  return false;
}

function withoutEchoes(errors: IRecognitionException[], tokens: readonly IToken[]): IRecognitionException[] {
  if (errors.length < 2) return errors;
  const indexOf = (error: IRecognitionException): number =>
    Number.isFinite(error.token.startOffset) ? tokenIndexAt(tokens, error.token.startOffset) : tokens.length;
  const sorted = errors.map((error) => ({ error, index: indexOf(error) })).sort((a, b) => a.index - b.index);
  const kept: IRecognitionException[] = [];
  let last = -Infinity;
  for (const { error, index } of sorted) {
    if (index - last <= ECHO_DISTANCE && !startsDeclarationBetween(tokens, last, index)) continue;
    kept.push(error);
    last = index;
  }
  return kept;
}

/** Keeps the first diagnostic at each start offset, in source order (stable for equal offsets). */
function inSourceOrder(diagnostics: Diagnostic[]): Diagnostic[] {
  if (diagnostics.length < 2) return diagnostics;
  const sorted = diagnostics
    .map((diagnostic, index) => ({ diagnostic, index }))
    .sort((a, b) => (a.diagnostic.loc?.start ?? 0) - (b.diagnostic.loc?.start ?? 0) || a.index - b.index);
  const out: Diagnostic[] = [];
  let lastStart = -1;
  for (const { diagnostic } of sorted) {
    const start = diagnostic.loc?.start ?? -1;
    if (start === lastStart && start >= 0) continue;
    lastStart = start;
    out.push(diagnostic);
  }
  return out;
}

/** Parses lexed tokens into the AST. The diagnostics include the lexer's (`lexed.diagnostics`). */
export function parseTokens(file: SourceFile, lexed: LexedFile): ParsedFile {
  const { files, errors } = parseAll(lexed.tokens);
  // Without errors, one CST covers every token and its nodes' token indices give their spans.
  const exact = errors.length === 0 && files.length === 1 ? lexed.tokens : undefined;
  const builder = new AstBuilder(file, indexDocs(lexed.comments, lexed.tokens), exact);
  const { context, declarations } = builder.buildFile(files, lexed.tokens[0]);
  const ast: WowFile = {
    kind: "File",
    file,
    ...(context === undefined ? {} : { context }),
    declarations,
    comments: toComments(file, lexed.comments),
  };
  if (lexed.diagnostics.length === 0 && errors.length === 0 && builder.reported.length === 0) {
    return { ast, diagnostics: [] };
  }
  const errorContext: SyntaxErrorContext = { file, tokens: lexed.tokens };
  const diagnostics = [...lexed.diagnostics, ...builder.reported, ...withoutEchoes(errors, lexed.tokens).map((error) => describeSyntaxError(errorContext, error))];
  return { ast, diagnostics: inSourceOrder(diagnostics) };
}

/** Lexes and parses one file. Never throws on any input. */
export function parseFile(file: SourceFile): ParsedFile {
  return parseTokens(file, lexFile(file));
}
