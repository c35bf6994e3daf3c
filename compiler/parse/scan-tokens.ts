// The tokens of a file the lexer has nothing to report on, scanned by hand: the same token objects
// the shared lexer makes (`{ image, startOffset, tokenTypeIdx, tokenType }`), in a fraction of its
// time. At anything the lexer would report (a character no token starts with, a string or a comment
// left open, a string in other quotes) it gives up, and the file goes to the lexer, which words it.
// A test holds the two equal on every file of the repository and on variants of them.
import type { IToken, TokenType } from "chevrotain";
import {
  At, BlockComment, Colon, Comma, DocComment, Dot, Equals, Identifier, keywordTokens, LBracket, LCurly, LineComment,
  LParen, NumberLiteral, Question, RBracket, RCurly, RParen, StringLiteral,
} from "../../grammar/tokens.js";

export interface ScannedTokens {
  readonly tokens: IToken[];
  readonly comments: IToken[];
}

/** Each keyword's token type, by its word. */
const KEYWORDS: ReadonlyMap<string, TokenType> = new Map(keywordTokens.map((type) => [type.name.toLowerCase(), type]));

/** The token type of each one-character token, by its character code. */
const PUNCTUATION: (TokenType | undefined)[] = [];
for (const [char, type] of [["{", LCurly], ["}", RCurly], ["(", LParen], [")", RParen], ["[", LBracket], ["]", RBracket], [",", Comma], [":", Colon], ["=", Equals], [".", Dot], ["?", Question], ["@", At]] as const) {
  PUNCTUATION[char.charCodeAt(0)] = type;
}

// The lexer's own patterns (grammar/tokens.ts), anchored where the scan stands.
const STRING = new RegExp(StringLiteral.PATTERN as RegExp, "y");
const NUMBER = new RegExp(NumberLiteral.PATTERN as RegExp, "y");
const DOC_COMMENT = new RegExp(DocComment.PATTERN as RegExp, "y");
const BLOCK_COMMENT = new RegExp(BlockComment.PATTERN as RegExp, "y");

function isWhiteSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || c === 0xfeff || c === 0xa0 || c === 0x2028 || c === 0x2029;
}

/** `[A-Za-z0-9_]`. */
function isWordChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
}

function isLineBreak(c: number): boolean {
  return c === 10 || c === 13 || c === 0x2028 || c === 0x2029;
}

function token(image: string, startOffset: number, type: TokenType): IToken {
  return { image, startOffset, tokenTypeIdx: type.tokenTypeIdx!, tokenType: type } as IToken;
}

/** Matches `pattern` (sticky) at `at`: the image, or `undefined`. */
function matchAt(pattern: RegExp, text: string, at: number): string | undefined {
  pattern.lastIndex = at;
  return pattern.exec(text)?.[0];
}

/** The tokens and comments of `text`, or `undefined` when the lexer would report something in it. */
export function scanTokens(text: string): ScannedTokens | undefined {
  const tokens: IToken[] = [];
  const comments: IToken[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (isWhiteSpace(c)) {
      i++;
      continue;
    }
    const punctuation = PUNCTUATION[c];
    if (punctuation !== undefined) {
      tokens.push(token(text[i]!, i, punctuation));
      i++;
      continue;
    }
    if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95) {
      // `[A-Za-z_][A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)*`; a keyword only as a whole word.
      let end = i + 1;
      for (;;) {
        while (end < n && isWordChar(text.charCodeAt(end))) end++;
        if (end + 1 < n && text.charCodeAt(end) === 45 && isWordChar(text.charCodeAt(end + 1))) end += 2;
        else break;
      }
      const image = text.slice(i, end);
      tokens.push(token(image, i, KEYWORDS.get(image) ?? Identifier));
      i = end;
      continue;
    }
    let image: string | undefined;
    if (c === 34) {
      image = matchAt(STRING, text, i);
      if (image === undefined) return undefined; // unterminated (WOW1003)
      tokens.push(token(image, i, StringLiteral));
    } else if (c === 45 || (c >= 48 && c <= 57)) {
      image = matchAt(NUMBER, text, i);
      if (image === undefined) return undefined; // a `-` alone
      tokens.push(token(image, i, NumberLiteral));
    } else if (c === 47 && text.charCodeAt(i + 1) === 47) {
      let end = i + 2;
      while (end < n && !isLineBreak(text.charCodeAt(end))) end++;
      image = text.slice(i, end);
      comments.push(token(image, i, LineComment));
    } else if (c === 47 && text.charCodeAt(i + 1) === 42) {
      image = matchAt(DOC_COMMENT, text, i);
      if (image !== undefined) comments.push(token(image, i, DocComment));
      else {
        image = matchAt(BLOCK_COMMENT, text, i);
        if (image === undefined) return undefined; // unterminated (WOW1004)
        comments.push(token(image, i, BlockComment));
      }
    } else {
      return undefined; // no token starts here (WOW1001), or a misquoted string
    }
    i += image.length;
  }
  return { tokens, comments };
}
