// The hand scanner (compiler/parse/scan-tokens.ts) against the shared lexer: on every `.wow` file of
// the repository, the synthetic bench project and 2,000 variants of them, it gives the lexer's very
// tokens and comments (same objects, key for key) exactly when the lexer has nothing to report, and
// gives up on every file the lexer reports on.
import { describe, expect, it } from "vitest";
import type { IToken } from "chevrotain";
import type { SourceFile } from "../../compiler/ast.js";
import { lexFile, lexWithLexer } from "../../compiler/parse/lex-file.js";
import { scanTokens } from "../../compiler/parse/scan-tokens.js";
import { MisquotedString, UnterminatedComment, UnterminatedString, wowLexer } from "../../grammar/tokens.js";
import { generate } from "../bench/synthetic-project.js";
import { picture, repositoryWowFiles, variants } from "../support/wow-corpus.js";

/** Whether the lexer has anything to report on `text`. */
function lexerReports(text: string): boolean {
  const result = wowLexer().tokenize(text);
  const reported = new Set([UnterminatedString, MisquotedString, UnterminatedComment]);
  return result.errors.length > 0 || [...result.tokens, ...((result.groups["comments"] as IToken[] | undefined) ?? [])].some((t) => reported.has(t.tokenType));
}

/** Both ways agree on `file`; returns whether the scanner read it. */
function agree(file: SourceFile): boolean {
  const scanned = scanTokens(file.text);
  expect(picture(lexFile(file), file), file.path).toEqual(picture(lexWithLexer(file), file));
  expect(scanned === undefined, `${file.path}: scanned ${scanned !== undefined}`).toBe(lexerReports(file.text));
  if (scanned !== undefined) {
    const lexed = wowLexer().tokenize(file.text);
    expect(picture(scanned.tokens, file)).toEqual(picture(lexed.tokens, file));
  }
  return scanned !== undefined;
}

describe("scanning tokens by hand", () => {
  const files = repositoryWowFiles();

  it("gives the lexer's tokens for every .wow file of the repository and the synthetic project", () => {
    const scanned = files.filter((file) => agree(file)).length;
    expect(scanned).toBeGreaterThan(files.length * 0.8);
    expect(generate(40).every((file) => agree({ path: file.path, text: file.text }))).toBe(true);
  });

  it("agrees with the lexer on 2,000 variants of them", () => {
    const scanned = variants(files, 2000, 1202).filter((file) => agree(file)).length;
    expect(scanned).toBeGreaterThan(500);
    expect(2000 - scanned).toBeGreaterThan(200);
  });

  it("agrees on the tokens whose patterns overlap", () => {
    const cases = [
      "context contexts context-x on one online type typed true-false _a a-1 a_b-c-d", "a-",
      "a--b", "1 -1 1.5 1e5 1.5E-3 -0.0 1abc", "1.", "1.e", "-", "-a",
      '"a" "a\\"b" "\\\\" "" "é😀"', '"a\\', '"open', "'single'", "“curly”",
      "/**/ /***/ /** doc */ /* block */ a", "/* open", "// line\r\n//\u2028x", "a/b", "/",
      "a\u00a0b\ufeffc\u2029d\fe\vf", "a\u200bb", "{}()[],:=.?@", "#", ";", "`",
    ];
    // Each case the scanner reads is compared token for token; the others are the lexer's to report.
    expect(cases.filter((text, i) => agree({ path: `case-${i}.wow`, text })).length).toBe(9);
  });
});
