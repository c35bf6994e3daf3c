// The tokens of `.wow` and the one lexer instance. Keywords are contextual: each keyword token is
// also a `Name` (a token category), so the parser accepts it wherever a name may stand.
// Positions: offsets only (start and end); lines and columns are unused.
// New lines are insignificant: whitespace is skipped and separators (`,`) are optional.
import type { Lexer as LexerInstance, TokenType } from "chevrotain";
import { createToken, Lexer, validateGrammar } from "./chevrotain.js";

/** Category of every token that can stand for a name: identifiers and all keywords. */
export const Name = createToken({ name: "Name", pattern: Lexer.NA, label: "a name" });

/** `eshop-order`, `OrderCreated`, `_x`: letters, digits and `_`, with single `-` inside. */
export const Identifier = createToken({
  name: "Identifier",
  pattern: /[A-Za-z_][A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)*/,
  categories: [Name],
  label: "a name",
});

function keyword(word: string, categories: TokenType[] = [Name]): TokenType {
  return createToken({
    name: word[0]!.toUpperCase() + word.slice(1),
    pattern: new RegExp(word),
    longer_alt: Identifier,
    categories,
    label: `'${word}'`,
  });
}

export const Context = keyword("context");
export const Type = keyword("type");
export const Enum = keyword("enum");
export const Service = keyword("service");
export const Aggregate = keyword("aggregate");
export const State = keyword("state");
export const Command = keyword("command");
export const Event = keyword("event");
export const On = keyword("on");
export const Saga = keyword("saga");
export const Job = keyword("job");
export const True = keyword("true");
export const False = keyword("false");

export const WhiteSpace = createToken({
  name: "WhiteSpace",
  pattern: /[ \t\r\n\f\v\uFEFF\u00A0\u2028\u2029]+/,
  group: Lexer.SKIPPED,
});

/** The lexer group that holds comments (kept, not skipped: docs and `WowFile.comments`). */
export const COMMENTS_GROUP = "comments";

export const DocComment = createToken({
  name: "DocComment",
  pattern: /\/\*\*(?:[^*]|\*+[^*/])*\*+\//,
  group: COMMENTS_GROUP,
  line_breaks: true,
});
export const BlockComment = createToken({
  name: "BlockComment",
  pattern: /\/\*(?:[^*]|\*+[^*/])*\*+\//,
  group: COMMENTS_GROUP,
  line_breaks: true,
});
/** `/*` without its `*\/`: runs to the end of the file; the lexer reports it (WOW1004). */
export const UnterminatedComment = createToken({
  name: "UnterminatedComment",
  pattern: /\/\*[^]*/,
  group: COMMENTS_GROUP,
  line_breaks: true,
});
export const LineComment = createToken({
  name: "LineComment",
  pattern: /\/\/[^\n\r\u2028\u2029]*/,
  group: COMMENTS_GROUP,
});

export const StringLiteral = createToken({
  name: "StringLiteral",
  pattern: /"(?:[^"\\\n\r]|\\[^\n\r])*"/,
  label: "a string",
});
/** A string cut by the end of its line; parsed as a string, reported by the lexer (WOW1003). */
export const UnterminatedString = createToken({
  name: "UnterminatedString",
  pattern: /"(?:[^"\\\n\r]|\\[^\n\r])*\\?/,
  categories: [StringLiteral],
  label: "a string",
});
/**
 * A string between single or typographic quotes (`'x'`, `“x”`, `‘x’`): parsed as a string, reported by
 * the lexer (WOW1002) with the same string in double quotes.
 */
export const MisquotedString = createToken({
  name: "MisquotedString",
  pattern: /'[^'\n\r]*'|‘[^’\n\r]*’|[“„][^“”\n\r]*[”“]/,
  categories: [StringLiteral],
  label: "a string",
});
export const NumberLiteral = createToken({
  name: "NumberLiteral",
  pattern: /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/,
  label: "a number",
});

export const LCurly = createToken({ name: "LCurly", pattern: /\{/, label: "'{'" });
export const RCurly = createToken({ name: "RCurly", pattern: /\}/, label: "'}'" });
export const LParen = createToken({ name: "LParen", pattern: /\(/, label: "'('" });
export const RParen = createToken({ name: "RParen", pattern: /\)/, label: "')'" });
export const LBracket = createToken({ name: "LBracket", pattern: /\[/, label: "'['" });
export const RBracket = createToken({ name: "RBracket", pattern: /\]/, label: "']'" });
export const Comma = createToken({ name: "Comma", pattern: /,/, label: "','" });
export const Colon = createToken({ name: "Colon", pattern: /:/, label: "':'" });
export const Equals = createToken({ name: "Equals", pattern: /=/, label: "'='" });
export const Dot = createToken({ name: "Dot", pattern: /\./, label: "'.'" });
export const Question = createToken({ name: "Question", pattern: /\?/, label: "'?'" });
export const At = createToken({ name: "At", pattern: /@/, label: "'@'" });

/** The keywords, in the order the lexer tries them (all before `Identifier`). */
export const keywordTokens: readonly TokenType[] = [
  Context, Type, Enum, Service, Aggregate, State, Command, Event, On, Saga, Job, True, False,
];

/** Every token type, in lexing order (first match wins; keywords defer to longer identifiers). */
export const allTokens: readonly TokenType[] = [
  WhiteSpace,
  DocComment,
  BlockComment,
  UnterminatedComment,
  LineComment,
  StringLiteral,
  UnterminatedString,
  MisquotedString,
  NumberLiteral,
  ...keywordTokens,
  Identifier,
  Name,
  LCurly, RCurly, LParen, RParen, LBracket, RBracket, Comma, Colon, Equals, Dot, Question, At,
];

/**
 * The one lexer. Diagnostics use offsets only: lines and columns are computed at the edge, when
 * printing. "onlyOffset" tracking: a token is `{ image, startOffset, tokenTypeIdx, tokenType }`, no
 * lines, columns or `endOffset` (Chevrotain reads it only for node locations, which the parser does
 * not track; wowc takes a token's end as `startOffset + image.length`). ("full" tracking counts line
 * breaks in every token and makes tokens twice as big: ~25 MB more to allocate and collect on a
 * 1.3 MB project.)
 */
let lexer: LexerInstance | undefined;

/**
 * The one lexer, built on first use: a file without lexical errors is scanned by hand
 * (compiler/parse/scan-tokens.ts), so a build of such files never builds it.
 */
export function wowLexer(): LexerInstance {
  return (lexer ??= new Lexer(allTokens as TokenType[], {
    positionTracking: "onlyOffset",
    ensureOptimizations: validateGrammar,
    skipValidations: !validateGrammar,
  }));
}
