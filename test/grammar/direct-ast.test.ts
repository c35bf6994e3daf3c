// The direct reading of well-formed files (compiler/parse/direct-ast.ts) against the parser and the
// CST builder: for every `.wow` file of the repository, the synthetic bench project and thousands of
// variants of them, `parseTokens` gives exactly what the parser's way gives (the same AST, node for
// node and key for key, the same sharing of objects, the same diagnostics), and every file without
// a syntax error is read directly.
import { describe, expect, it } from "vitest";
import type { SourceFile } from "../../compiler/ast.js";
import { directAst } from "../../compiler/parse/direct-ast.js";
import { indexDocs } from "../../compiler/parse/comments.js";
import { lexFile, parseTokens, parseWithParser } from "../../compiler/parse/parse-file.js";
import { generate } from "../bench/synthetic-project.js";
import { picture, repositoryWowFiles, variants } from "../support/wow-corpus.js";

/** Both ways agree on `file`; returns whether it was read directly. */
function agree(file: SourceFile): boolean {
  const lexed = lexFile(file);
  const viaParser = parseWithParser(file, lexed);
  const result = parseTokens(file, lexed);
  const direct = lexed.diagnostics.length === 0 && directAst(file, lexed.tokens, indexDocs(lexed.comments, lexed.tokens)) !== undefined;
  expect(picture(result, file), file.path).toEqual(picture(viaParser, file));
  if (viaParser.diagnostics.length === 0) expect(direct, `${file.path} has no error but was not read directly`).toBe(true);
  else expect(direct, `${file.path} has errors but was read directly`).toBe(false);
  return direct;
}

describe("reading well-formed files directly", () => {
  const files = repositoryWowFiles();

  it("gives the parser's AST for every .wow file of the repository and reads each well-formed one directly", () => {
    expect(files.length).toBeGreaterThan(150);
    const direct = files.filter((file) => agree(file)).length;
    expect(direct).toBeGreaterThan(files.length / 2);
  });

  it("gives the parser's AST for every file of the synthetic bench project", () => {
    const synthetic = generate(60).map((file) => ({ path: file.path, text: file.text }));
    expect(synthetic.every((file) => agree(file))).toBe(true);
  });

  it("agrees with the parser on 3,000 broken and unbroken variants of them", () => {
    const direct = variants(files, 3000, 20261202).filter((file) => agree(file)).length;
    // Both kinds occur often enough for the comparison to mean something.
    expect(direct).toBeGreaterThan(300);
    expect(3000 - direct).toBeGreaterThan(1000);
  });

  it("agrees on the constructs the grammar decides by lookahead", () => {
    const cases = [
      "context type\nservice S",
      "context type\ntype T {}",
      "context c\nenum Switch {\n on\n off\n}",
      "context c\nenum E { a b }",
      "context c\ntype T { a: int b: int }",
      "context c\ntype T { a: int, b: int, }",
      "context c\ntype T { a: int /* x */ b: int }",
      "context c\ntype T { a: int // x\n b: int }",
      "context c\n@A(x = [1 2]) service S",
      "context c\n@A(x = [1, [true, false], a.b, \"s\\u{1F600}\"]) service S",
      "context c\n@A(x = \"\\q\") service S",
      "context c\n@A() @B service S",
      "context c\naggregate A { @X state { a: int } }",
      "context c\naggregate A { job j() }",
      "context c\nsaga S { command C }",
      "context c\ncommand C",
      "context c\ncontext d",
      "type T {}\ncontext c",
      "",
      "context",
      "context c\nagregate A { command C }",
      "context c\naggregate A { on a.B(x: y.Z, w: V) command C { a: int[]?, b: x.Y? } }",
    ];
    for (const [i, text] of cases.entries()) agree({ path: `case-${i}.wow`, text });
  });
});
