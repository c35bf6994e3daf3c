// grammar/DIAGNOSTICS.md lists every code of the table with an example, and is in sync with it.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { messages } from "../../compiler/diagnostics/messages.js";
import { renderDiagnosticsDoc } from "./diagnostics-doc.js";

const path = fileURLToPath(new URL("../../grammar/DIAGNOSTICS.md", import.meta.url));

describe("grammar/DIAGNOSTICS.md", () => {
  it("is in sync with the diagnostics table (refresh with UPDATE_GOLDEN=1)", () => {
    const text = renderDiagnosticsDoc();
    if (process.env.UPDATE_GOLDEN === "1") writeFileSync(path, text);
    expect(readFileSync(path, "utf8")).toBe(text);
  });

  it("has a section and an example for every code", () => {
    const text = renderDiagnosticsDoc();
    for (const code of Object.keys(messages)) {
      expect(text).toContain(`### ${code} (`);
    }
    expect(text).not.toContain("(No example yet.)");
  });
});
