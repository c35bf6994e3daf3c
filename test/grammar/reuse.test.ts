import { describe, expect, it, vi } from "vitest";
import { CstParser, Lexer } from "../../grammar/chevrotain.js";
import { parserRuns, wowParser } from "../../grammar/parser.js";
import { wowLexer } from "../../grammar/tokens.js";
import { parseFile, parseWithParser } from "../../compiler/parse/parse-file.js";
import { lexWithLexer } from "../../compiler/parse/lex-file.js";
import { example } from "./helpers.js";

describe("one parser, one lexer", () => {
  it("reuses the same instances across calls and constructs none", () => {
    const file = example("order");
    parseWithParser(file, lexWithLexer(file));
    const before = parserRuns();
    const performSelfAnalysis = vi.spyOn(CstParser.prototype as unknown as { performSelfAnalysis(): void }, "performSelfAnalysis");
    const tokenize = vi.spyOn(wowLexer(), "tokenize");
    for (let i = 0; i < 5; i++) {
      const { diagnostics } = parseWithParser(file, lexWithLexer(file));
      expect(diagnostics).toEqual([]);
    }
    expect(parserRuns() - before).toBe(5);
    expect(tokenize).toHaveBeenCalledTimes(5);
    expect(performSelfAnalysis).not.toHaveBeenCalled();
    expect(wowParser()).toBeInstanceOf(CstParser);
    expect(wowLexer()).toBeInstanceOf(Lexer);
    performSelfAnalysis.mockRestore();
    tokenize.mockRestore();
  });

  it("keeps no state between files: an error in one does not leak into the next", () => {
    const broken = parseFile({ path: "broken.wow", text: "context c\naggregate A {" });
    expect(broken.diagnostics.length).toBe(1);
    expect(parseFile(example("inventory")).diagnostics).toEqual([]);
  });
});
