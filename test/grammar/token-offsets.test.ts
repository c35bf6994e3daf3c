import { describe, expect, it } from "vitest";
import { wowLexer } from "../../grammar/tokens.js";

describe("token positions", () => {
  it("carry start and end offsets (for node locations), and no lines or columns", () => {
    const { tokens } = wowLexer.tokenize('context c\n\n  type "x\\"y" 12.5');
    expect(tokens.map((t) => [t.image, t.startOffset, t.endOffset])).toEqual([
      ["context", 0, 6],
      ["c", 8, 8],
      ["type", 13, 16],
      ['"x\\"y"', 18, 23],
      ["12.5", 25, 28],
    ]);
    expect(tokens[0]!.startLine).toBeUndefined();
  });
});

describe("grammar validations", () => {
  it("run under the tests (the CLI skips them at start-up)", async () => {
    const { validateGrammar } = await import("../../grammar/chevrotain.js");
    expect(validateGrammar).toBe(true);
  });
});
