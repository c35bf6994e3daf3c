// Loads grammar/wow.tmLanguage.json into vscode-textmate with the Oniguruma WASM, as an editor does.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import oniguruma from "vscode-oniguruma";
import textmate from "vscode-textmate";

export const grammarPath = fileURLToPath(new URL("../../grammar/wow.tmLanguage.json", import.meta.url));

export interface ScopedToken {
  readonly text: string;
  /** Offset in the whole text. */
  readonly start: number;
  readonly scopes: readonly string[];
}

let grammar: Promise<textmate.IGrammar> | undefined;

function load(): Promise<textmate.IGrammar> {
  const require = createRequire(import.meta.url);
  const wasm = readFileSync(require.resolve("vscode-oniguruma/release/onig.wasm"));
  const onigLib = oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength)).then(() => ({
    createOnigScanner: (patterns: string[]) => new oniguruma.OnigScanner(patterns),
    createOnigString: (s: string) => new oniguruma.OnigString(s),
  }));
  const registry = new textmate.Registry({
    onigLib,
    loadGrammar: async (scopeName) =>
      scopeName === "source.wow" ? textmate.parseRawGrammar(readFileSync(grammarPath, "utf8"), grammarPath) : null,
  });
  return registry.loadGrammar("source.wow").then((g) => {
    if (g === null) throw new Error("source.wow did not load");
    return g;
  });
}

/** Tokenizes `text` line by line (state carried across lines, as in an editor). */
export async function tokenize(text: string): Promise<ScopedToken[]> {
  const g = await (grammar ??= load());
  const out: ScopedToken[] = [];
  let state = textmate.INITIAL;
  let offset = 0;
  for (const line of text.split("\n")) {
    const result = g.tokenizeLine(line, state);
    for (const token of result.tokens) {
      out.push({ text: line.slice(token.startIndex, token.endIndex), start: offset + token.startIndex, scopes: token.scopes });
    }
    state = result.ruleStack;
    offset += line.length + 1;
  }
  return out;
}

/** The scopes at `offset` (of the token covering it). */
export function scopesAt(tokens: readonly ScopedToken[], offset: number): readonly string[] {
  const token = tokens.find((t) => t.start <= offset && offset < t.start + Math.max(1, t.text.length));
  return token?.scopes ?? [];
}
