import { describe, expect, it } from "vitest";
import { wowLexer } from "../../grammar/tokens.js";

describe("token positions", () => {
  it("carry their start offset, and no end offset, lines or columns (a token ends at start + image length)", () => {
    const { tokens } = wowLexer().tokenize('context c\n\n  type "x\\"y" 12.5');
    expect(tokens.map((t) => [t.image, t.startOffset])).toEqual([
      ["context", 0],
      ["c", 8],
      ["type", 13],
      ['"x\\"y"', 18],
      ["12.5", 25],
    ]);
    expect(tokens[0]!.endOffset).toBeUndefined();
    expect(tokens[0]!.startLine).toBeUndefined();
  });
});

describe("grammar validations", () => {
  it("run under the tests (the CLI skips them at start-up)", async () => {
    const { validateGrammar } = await import("../../grammar/chevrotain.js");
    expect(validateGrammar).toBe(true);
  });
});
