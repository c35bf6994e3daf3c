// grammar/TOOLS.md lists every rule of `wowc diff`, in sync with compiler/diff/rules.ts.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { renderRulesTable, RULES_BEGIN, RULES_END } from "./rules-doc.js";

const path = fileURLToPath(new URL("../../grammar/TOOLS.md", import.meta.url));

describe("grammar/TOOLS.md", () => {
  it("has the rules table of wowc diff (refresh with UPDATE_GOLDEN=1)", () => {
    const text = readFileSync(path, "utf8");
    const start = text.indexOf(RULES_BEGIN);
    const end = text.indexOf(RULES_END);
    expect(start).toBeGreaterThanOrEqual(0);
    const current = text.slice(start, end + RULES_END.length);
    if (process.env.UPDATE_GOLDEN === "1") writeFileSync(path, text.replace(current, renderRulesTable()));
    expect(readFileSync(path, "utf8").slice(start, start + renderRulesTable().length)).toBe(renderRulesTable());
  });
});
