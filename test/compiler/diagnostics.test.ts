// Every diagnostic code: an inline source that triggers it, with the exact codes, lines and columns.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { messages, type DiagnosticCode } from "../../compiler/diagnostics/messages.js";
import { billing, cases } from "./diagnostic-cases.js";
import { buildCaseCodes } from "./build-cases.js";
import { hostCaseCodes } from "../host-check/cases.js";
import { toolCaseCodes } from "../tools/diagnostic-cases.js";
import { compile, diagnose } from "./helpers.js";

/** Codes not reachable from sources, by design. */
// WOW6006: the command line (test/cli/cli-audit.test.ts); WOW6007: wow.config.json in an editor (test/lsp/config.test.ts).
const notFromSources: ReadonlySet<DiagnosticCode> = new Set(["WOW9999", "WOW6006", "WOW6007"]);

describe("diagnostic codes", () => {
  for (const c of cases) {
    it(`${c.code}: ${c.title}`, () => {
      expect(diagnose(c.sources)).toEqual(c.expected);
      expect(diagnose(c.sources).some((d) => d.split(" ").includes(c.code))).toBe(true);
    });
  }

  it("has a test for every code of the table", () => {
    const tested = new Set<string>([...cases.map((c) => c.code), ...buildCaseCodes, ...hostCaseCodes, ...toolCaseCodes, ...codesInGrammarTests()]);
    const untested = (Object.keys(messages) as DiagnosticCode[]).filter((code) => !tested.has(code) && !notFromSources.has(code));
    expect(untested).toEqual([]);
  });

  it("fills every placeholder of every message it reports", () => {
    for (const c of cases) {
      for (const d of compile(c.sources).diagnostics) {
        // A route's own placeholders (WOW3024) are text, not unfilled arguments.
        expect(`${d.message} ${d.hint ?? ""}`.replace(/\{(tenantId|id)\}/g, ""), d.code).not.toMatch(/\{[A-Za-z]+\}/);
        if (!d.code.startsWith("WOW1")) expect(d.hint ?? "", `${d.code} has a hint`).not.toBe("");
      }
    }
  });

  it("words the hint of an unknown qualified reference with the simple name and the context looked in", () => {
    const { diagnostics } = compile({
      "billing.wow": billing,
      "shop.wow": `
        context shop
        service Mailer
        saga Mails {
          @OnEvent(commands = [billing.Isue])
          on billing.Issued(mailer: billing.Mailer)
        }
      `,
    });
    const hints = diagnostics.map((d) => `${d.code} ${d.hint ?? ""}`);
    expect(hints).toContain("WOW2002 Did you mean 'billing.Issue'? Commands are declared inside an aggregate of context 'billing' (`command Isue`); use `context-name.Isue` for a command of another context.");
    expect(hints).toContain("WOW2004 Declare the dependency with `service Mailer` in context 'billing'.");
  });

  it("the example e-shop is clean", () => {
    const dir = new URL("../../examples/eshop/", import.meta.url);
    const sources = Object.fromEntries(
      readdirSync(dir).filter((f) => f.endsWith(".wow")).map((f) => [f, readFileSync(new URL(f, dir), "utf8")]),
    );
    expect(diagnose(sources)).toEqual([]);
  });
});

/** Codes the grammar's own tests exercise (test/grammar/**). */
function codesInGrammarTests(): string[] {
  const root = new URL("../grammar/", import.meta.url).pathname;
  const codes: string[] = [];
  const walk = (dir: string): void => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".test.ts")) codes.push(...(readFileSync(path, "utf8").match(/WOW1\d{3}/g) ?? []));
    }
  };
  walk(root);
  return codes;
}
