// grammar/wow.tmLanguage.json: in sync with the lexer's keywords, and tokenizing the examples the
// way the lexer reads them (every comment, string, number, keyword and annotation gets its scope).
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { IToken } from "chevrotain";
import { describe, expect, it } from "vitest";
import { lexFile } from "../../compiler/parse/lex-file.js";
import {
  At, BlockComment, Colon, DocComment, Equals, False, keywordTokens, LineComment, Name, NumberLiteral, StringLiteral, True,
} from "../../grammar/tokens.js";
import { grammarPath, scopesAt, tokenize } from "./textmate.js";

const grammar = JSON.parse(readFileSync(grammarPath, "utf8")) as { scopeName: string; repository: Record<string, { patterns: Array<{ match?: string }> }> };
const lexerKeywords = keywordTokens.map((t) => (t.PATTERN as RegExp).source).sort();

/** The words of the `(?:a|b|c)` alternations in the grammar's keyword and constant rules. */
function grammarKeywords(): string[] {
  const words = new Set<string>();
  for (const rule of ["keywords", "constants"]) {
    for (const pattern of grammar.repository[rule]!.patterns) {
      const alternation = /\(\?:([a-z|]+)\)/.exec(pattern.match ?? "")?.[1] ?? /\(\?<!\[\\w-\]\)([a-z]+)\(\?!/.exec(pattern.match ?? "")?.[1];
      for (const word of alternation?.split("|") ?? []) words.add(word);
    }
  }
  return [...words].sort();
}

const examplesDir = fileURLToPath(new URL("../../examples/eshop/", import.meta.url));
const examples = readdirSync(examplesDir).filter((f) => f.endsWith(".wow")).sort().map((f) => [f, readFileSync(examplesDir + f, "utf8")] as const);

const has = (scopes: readonly string[], prefix: string) => scopes.some((s) => s.startsWith(prefix));

/** The scope a lexer token must get, or undefined when any is fine. */
function expectedScope(token: IToken, next: IToken | undefined, previous: IToken | undefined): string | undefined {
  const type = token.tokenType;
  if (type === DocComment) return "comment.block.documentation";
  if (type === BlockComment) return "comment.block";
  if (type === LineComment) return "comment.line";
  if (type === StringLiteral || type.CATEGORIES?.includes(StringLiteral)) return "string.quoted";
  if (type === NumberLiteral) return "constant.numeric";
  if (previous?.tokenType === At) return "storage.type.annotation";
  const usedAsName = next?.tokenType === Colon || next?.tokenType === Equals;
  if (type === True || type === False) return usedAsName ? undefined : "constant.language";
  if (keywordTokens.includes(type)) {
    if (usedAsName) return "variable";
    // A keyword followed by a name (or `state {`) declares something.
    return next !== undefined && (next.tokenType.CATEGORIES?.includes(Name) === true || next.image === "{") ? "keyword" : undefined;
  }
  return undefined;
}

describe("grammar/wow.tmLanguage.json", () => {
  it("is scoped source.wow", () => expect(grammar.scopeName).toBe("source.wow"));

  it("knows exactly the lexer's keywords", () => {
    expect(grammarKeywords()).toEqual(lexerKeywords);
  });

  it.each(examples)("tokenizes %s as the lexer reads it", async (_name, text) => {
    const scoped = await tokenize(text);
    const lexed = lexFile({ path: "x.wow", text });
    const all = [...lexed.tokens, ...lexed.comments].sort((a, b) => a.startOffset - b.startOffset);
    const significant = lexed.tokens;
    let checked = 0;
    const mismatches: string[] = [];
    for (const token of all) {
      const i = significant.indexOf(token);
      const want = expectedScope(token, i >= 0 ? significant[i + 1] : undefined, i > 0 ? significant[i - 1] : undefined);
      if (want === undefined) continue;
      checked++;
      const scopes = scopesAt(scoped, token.startOffset);
      if (!has(scopes, want)) mismatches.push(`${token.image.slice(0, 30)} @${token.startOffset}: want ${want}, got ${scopes.join(" ")}`);
    }
    expect(mismatches).toEqual([]);
    expect(checked).toBeGreaterThan(20);
  });

  it("colours declarations, built-in types, qualified names and keywords used as names", async () => {
    const text = [
      "context eshop-order",
      "type Item { type: string, state: int?, on: long }",
      "saga S {",
      '  @OnSchedule(name = "x\\"y", cron = "0 0 6 * * *", misfire = COALESCE, sharded = true, commands = [other-ctx.Cmd])',
      "  job tick(clock: Clock)",
      "}",
    ].join("\n");
    const t = await tokenize(text);
    const at = (needle: string, nth = 0) => {
      let index = -1;
      for (let k = 0; k <= nth; k++) index = text.indexOf(needle, index + 1);
      return scopesAt(t, index);
    };
    expect(at("context")).toContain("keyword.other.context.wow");
    expect(at("eshop-order")).toContain("entity.name.namespace.wow");
    expect(at("Item")).toContain("entity.name.type.wow");
    expect(at("type", 1)).toContain("variable.other.property.wow");
    expect(at("state")).toContain("variable.other.property.wow");
    expect(at("string")).toContain("support.type.primitive.wow");
    expect(at("@OnSchedule")).toContain("punctuation.definition.annotation.wow");
    expect(at("OnSchedule")).toContain("storage.type.annotation.wow");
    expect(at('\\"')).toContain("constant.character.escape.wow");
    expect(at("COALESCE")).toContain("constant.other.enum.wow");
    expect(at("true")).toContain("constant.language.boolean.wow");
    expect(at("other-ctx")).toContain("entity.name.namespace.wow");
    expect(at("Cmd")).toContain("entity.name.type.wow");
    expect(at("tick")).toContain("entity.name.function.wow");
  });
});
