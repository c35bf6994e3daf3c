// Chevrotain as wowc loads it: from the package's single-file ESM bundle (`lib/chevrotain.mjs`,
// lodash included) when it is there. The package's main entry imports lodash-es as hundreds of
// separate modules, which costs ≈ 0.6 s of CPU at every cold `wowc check`; the bundle loads in
// ≈ 20 ms. Same version, same API. Every runtime use of Chevrotain in wowc (and its tests) goes
// through this module, so that classes and the `EOF` token are the same objects everywhere.
// Types still come from "chevrotain" (`import type`).
import type * as Chevrotain from "chevrotain";

async function load(): Promise<typeof Chevrotain> {
  try {
    const entry = import.meta.resolve("chevrotain"); // …/chevrotain/lib/src/api.js
    return (await import(new URL("../chevrotain.mjs", entry).href)) as typeof Chevrotain;
  } catch {
    return await import("chevrotain");
  }
}

const chevrotain = await load();

export const { createToken, CstParser, EOF, Lexer, tokenMatcher } = chevrotain;

/**
 * Whether to run Chevrotain's grammar and lexer validations when the lexer and parser are built:
 * under the tests (Vitest) or with WOWC_VALIDATE_GRAMMAR=1. The grammar is fixed when wowc is
 * built, so `wowc` itself skips them (≈ 30–40 ms of CPU at every start).
 */
export const validateGrammar = process.env["VITEST"] !== undefined || process.env["WOWC_VALIDATE_GRAMMAR"] === "1";
