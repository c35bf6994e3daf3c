// Every WOW7xxx code, reported by the tool command line that causes it, printed with its hint.
import { describe, expect, it } from "vitest";
import { messages } from "../../compiler/diagnostics/messages.js";
import { toolCases } from "../tools/diagnostic-cases.js";
import { wowc } from "../tools/run-wowc.js";

describe("WOW7xxx: tool diagnostics", () => {
  it("has a case for every WOW7xxx code", () => {
    expect(toolCases.map((c) => c.code).sort()).toEqual(Object.keys(messages).filter((c) => c.startsWith("WOW7")).sort());
  });

  it.each(toolCases.map((c) => [c.code, c] as const))("%s", async (code, c) => {
    const { argv, cwd } = c.setup();
    const result = await wowc(argv, cwd);
    expect(result.code).toBe(c.exitCode);
    expect(result.stdout).toContain(`error ${code}: `);
    expect(result.stdout).not.toMatch(/\{[A-Za-z]+\}/);
  });
});
