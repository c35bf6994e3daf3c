// Parsing a `.wow` file: lex (shared lexer) → parse (shared parser, with recovery) → build the AST.
// `lexFile` and `parseTokens` are exposed separately so that benchmarks can time them apart.
import type { IRecognitionException, IToken, TokenType } from "chevrotain";
import type { CstNode } from "../../grammar/cst.js";
import type { SourceFile, WowFile } from "../ast.js";
import { isRecoveredByInsertion, MAX_SYNTAX_ERRORS, parseCst, TooManySyntaxErrors, wowParser } from "../../grammar/parser.js";
import { createDiagnostic, type Diagnostic } from "../diagnostics/diagnostic.js";
import { AstBuilder } from "./build-ast.js";
import { directAst } from "./direct-ast.js";
import { indexDocs, toComments } from "./comments.js";
import { lexFile, type LexedFile } from "./lex-file.js";
import {
  describeStrayWord, describeSyntaxError, isTopLevelStart, tokenIndexAt, type Container, type SyntaxErrorContext,
} from "./syntax-errors.js";
import { Aggregate, At, Colon, Comma, Dot, Equals, Identifier, keywordTokens, LBracket, LCurly, LParen, Name, RBracket, RCurly, RParen, Saga } from "../../grammar/tokens.js";
import { EOF, tokenMatcher } from "../../grammar/chevrotain.js";

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
function parseAll(tokens: IToken[]): { files: CstNode[]; errors: IRecognitionException[]; abandonedAt?: IToken } {
  const files: CstNode[] = [];
  const errors: IRecognitionException[] = [];
  let from = 0;
  let input = tokens;
  for (;;) {
    let file: CstNode;
    try {
      file = parseCst(input);
    } catch (error) {
      if (!(error instanceof TooManySyntaxErrors)) throw error;
      errors.push(...wowParser().errors);
      return { files, errors, abandonedAt: error.token }; // what this part parsed is dropped with it
    }
    files.push(file);
    const stopped = wowParser().errors.find((error) => error.name === "NotAllInputParsedException");
    errors.push(...wowParser().errors);
    if (stopped === undefined) break;
    if (errors.length >= MAX_SYNTAX_ERRORS) return { files, errors, abandonedAt: stopped.token };
    let next = tokenIndexAt(tokens, stopped.token.startOffset) + 1;
    while (next < tokens.length && !isTopLevelStart(tokens, next)) next++;
    if (next >= tokens.length || next <= from) break;
    from = next;
    input = tokens.slice(from);
  }
  return { files, errors };
}

/**
 * Parse errors at most this many tokens after a reported one are taken as its echoes (recovery
 * re-syncing through the same mistake) and not reported, unless a new declaration starts between them.
 */
const ECHO_DISTANCE = 3;

function startsDeclarationBetween(tokens: readonly IToken[], after: number, upTo: number): boolean {
  for (let i = after + 1; i <= upTo; i++) if (isTopLevelStart(tokens, i)) return true;
  return false;
}

/**
 * The last token index at which an error is an echo of `error` (at token `index`). Recovery by
 * inserting the missing token goes on in step with the source (`a int` read as `a: int`), so the next
 * error, however near, is the user's.
 */
function lastEchoIndex(error: IRecognitionException, index: number): number {
  return isRecoveredByInsertion(error) ? index : index + ECHO_DISTANCE;
}

function withoutEchoes(errors: IRecognitionException[], tokens: readonly IToken[]): IRecognitionException[] {
  if (errors.length < 2) return errors;
  const indexOf = (error: IRecognitionException): number =>
    Number.isFinite(error.token.startOffset) ? tokenIndexAt(tokens, error.token.startOffset) : tokens.length;
  const sorted = errors.map((error) => ({ error, index: indexOf(error) })).sort((a, b) => a.index - b.index);
  const kept: IRecognitionException[] = [];
  let last = -Infinity;
  let lastEcho = -Infinity;
  for (const { error, index } of sorted) {
    if (index <= lastEcho && !startsDeclarationBetween(tokens, last, index)) continue;
    kept.push(error);
    last = index;
    lastEcho = lastEchoIndex(error, index);
  }
  return kept;
}

/** Tokens after which a word is a name (of what a keyword declares, a reference, a value), never a stray word. */
const NAMING: ReadonlySet<TokenType> = new Set([...keywordTokens, At, Colon, Comma, Dot, Equals]);

interface StrayWord {
  readonly word: IToken;
  readonly container: Container;
}

/**
 * Words that are no keyword, followed by a block (`agregate A { … }`, `comand C {}`), where a
 * declaration or a member of an aggregate or a saga may start. The parser would resume inside the
 * block and report each of its members as out of place, and its `}` as stray; instead each such word
 * and its block, up to the matching `}`, are left out of the parse and the word is reported once.
 */
function withoutStrayBlocks(tokens: IToken[]): { tokens: IToken[]; strays: StrayWord[] } {
  if (!hasStrayCandidate(tokens)) return { tokens, strays: [] }; // a file without the mistake: no copy
  const strays: StrayWord[] = [];
  const kept: IToken[] = [];
  const blocks: (Container | undefined)[] = []; // what each open `{` holds: members of a container, or other items
  let nesting = 0; // open `(` and `[`
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const type = token.tokenType;
    const container = blocks.length === 0 ? "file" : blocks[blocks.length - 1];
    if (container !== undefined && nesting === 0 && isStrayWord(tokens, i)) {
      strays.push({ word: token, container });
      dropTrailingAnnotations(kept); // `@Blocking agregate A {…}`: they belonged to what is skipped
      i = closingBrace(tokens, i);
      continue;
    }
    kept.push(token);
    if (type === LCurly) blocks.push(blockOf(tokens, i));
    else if (type === RCurly) blocks.pop();
    else if (type === LParen || type === LBracket) nesting++;
    else if ((type === RParen || type === RBracket) && nesting > 0) nesting--;
  }
  return strays.length === 0 ? { tokens, strays } : { tokens: kept, strays };
}

/** Whether some `{` follows a word that may be stray (where it stands is checked by withoutStrayBlocks). */
function hasStrayCandidate(tokens: readonly IToken[]): boolean {
  for (let i = 1; i < tokens.length; i++) {
    if (tokens[i]!.tokenType === LCurly && (isStrayWord(tokens, i - 1) || (i > 1 && isStrayWord(tokens, i - 2)))) return true;
  }
  return false;
}

/** Removes the annotations (`@Name`, `@Name(…)`) that end `kept`. */
function dropTrailingAnnotations(kept: IToken[]): void {
  for (;;) {
    let end = kept.length;
    if (kept[end - 1]?.tokenType === RParen) {
      let depth = 0;
      let i = end - 1;
      for (; i >= 0; i--) {
        const type = kept[i]!.tokenType;
        if (type === RParen) depth++;
        else if (type === LParen && --depth === 0) break;
      }
      end = i;
    }
    const name = kept[end - 1];
    if (end < 2 || name === undefined || !tokenMatcher(name, Name) || kept[end - 2]!.tokenType !== At) return;
    kept.length = end - 2;
  }
}

/** `Identifier [Name] {` where no keyword, '@', ':', ',', '.' or '=' makes the word a name. */
function isStrayWord(tokens: readonly IToken[], index: number): boolean {
  if (tokens[index]!.tokenType !== Identifier) return false;
  const previous = tokens[index - 1];
  if (previous !== undefined && NAMING.has(previous.tokenType)) return false;
  const next = tokens[index + 1];
  if (next?.tokenType === LCurly) return true;
  return next !== undefined && tokenMatcher(next, Name) && tokens[index + 2]?.tokenType === LCurly;
}

/** The index of the `}` that closes the first `{` from `index` on (the last token when none does). */
function closingBrace(tokens: readonly IToken[], index: number): number {
  let depth = 0;
  for (let i = index; i < tokens.length; i++) {
    const type = tokens[i]!.tokenType;
    if (type === LCurly) depth++;
    else if (type === RCurly && --depth === 0) return i;
  }
  return tokens.length - 1;
}

/** The container whose members the `{` at `index` opens (`aggregate Name {`), if any. */
function blockOf(tokens: readonly IToken[], index: number): Container | undefined {
  const keyword = tokens[index - 2]?.tokenType;
  return keyword === Aggregate ? "aggregate" : keyword === Saga ? "saga" : undefined;
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

/**
 * Parses lexed tokens into the AST. The diagnostics include the lexer's (`lexed.diagnostics`). A file
 * without any is read straight into the AST (direct-ast.ts); any other goes through the parser.
 */
export function parseTokens(file: SourceFile, lexed: LexedFile): ParsedFile {
  const docs = indexDocs(lexed.comments, lexed.tokens);
  if (lexed.diagnostics.length === 0 && !hasStrayCandidate(lexed.tokens)) {
    const direct = directAst(file, lexed.tokens, docs);
    if (direct !== undefined) {
      const ast: WowFile = { kind: "File", file, context: direct.context, declarations: direct.declarations, comments: toComments(file, lexed.comments) };
      return { ast, diagnostics: [] };
    }
  }
  return parseWithParser(file, lexed, docs);
}

/**
 * `parseTokens` through the parser and the CST builder, whatever the file holds: the way that words
 * syntax errors. `docs`: the file's doc comments by the offset of what they document.
 */
export function parseWithParser(file: SourceFile, lexed: LexedFile, docs = indexDocs(lexed.comments, lexed.tokens)): ParsedFile {
  const { tokens, strays } = withoutStrayBlocks(lexed.tokens);
  const { files, errors, abandonedAt } = parseAll(tokens);
  // Without errors, one CST covers every token and its nodes' token indices give their spans.
  const exact = errors.length === 0 && files.length === 1 ? tokens : undefined;
  const builder = new AstBuilder(file, docs, exact, lexed.tokens);
  const { context, declarations } = builder.buildFile(files, lexed.tokens[0]);
  const ast: WowFile = {
    kind: "File",
    file,
    ...(context === undefined ? {} : { context }),
    declarations,
    comments: toComments(file, lexed.comments),
  };
  if (lexed.diagnostics.length === 0 && errors.length === 0 && builder.reported.length === 0 && strays.length === 0) {
    return { ast, diagnostics: [] };
  }
  const errorContext: SyntaxErrorContext = { file, tokens };
  const diagnostics = [
    ...lexed.diagnostics,
    ...builder.reported,
    ...strays.map(({ word, container }) => describeStrayWord(errorContext, word, container)),
    ...withoutEchoes(errors, tokens).map((error) => describeSyntaxError(errorContext, error)),
  ];
  if (abandonedAt === undefined) return { ast, diagnostics: inSourceOrder(diagnostics) };
  // The rest of the file was not read: what lies past the point is not reported, and this is last.
  const start = abandonedAt.tokenType === EOF ? file.text.length : abandonedAt.startOffset;
  const read = inSourceOrder(diagnostics.filter((d) => d.loc === undefined || d.loc.start <= start));
  return { ast, diagnostics: [...read, createDiagnostic("WOW1014", { count: MAX_SYNTAX_ERRORS }, { file, start, end: start })] };
}

/** Lexes and parses one file. Never throws on any input. */
export function parseFile(file: SourceFile): ParsedFile {
  return parseTokens(file, lexFile(file));
}
