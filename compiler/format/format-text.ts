// Formatting one `.wow` file: refuse on syntax errors (the diagnostics say why), lay the CST out
// canonically with every comment in place, then prove nothing was lost — the same tokens (commas
// aside), the same comments in the same order, each doc comment documenting the same token — before
// anything is written.
import type { IToken } from "chevrotain";
import type { SourceFile } from "../ast.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { parseCst } from "../../grammar/parser.js";
import { Comma } from "../../grammar/tokens.js";
import { indexDocs } from "../parse/comments.js";
import { lexFile, parseTokens } from "../parse/parse-file.js";
import { Emitter } from "./emitter.js";
import { CstPrinter } from "./print-cst.js";

const BOM = "\uFEFF";

export type FormatResult =
  | { readonly ok: true; readonly text: string; readonly changed: boolean }
  | { readonly ok: false; readonly diagnostics: Diagnostic[] };

export interface FormatOptions {
  /** The column long annotations are wrapped at (default 100). */
  readonly printWidth?: number;
}

/** Formats `file`; with syntax errors, returns them and no text. */
export function formatFile(file: SourceFile, options: FormatOptions = {}): FormatResult {
  const lexed = lexFile(file);
  const { diagnostics } = parseTokens(file, lexed);
  if (diagnostics.some((d) => d.severity === "error")) return { ok: false, diagnostics };
  const cst = parseCst(lexed.tokens);
  const out = new Emitter(file.text, lexed.comments);
  new CstPrinter(out, file.text, options.printWidth).file(cst);
  // A byte order mark at the start stays, as Prettier keeps it: editors that write one expect to find it.
  const text = (file.text.startsWith(BOM) ? BOM : "") + out.finish();
  assertSameContent(file, lexed.tokens, lexed.comments, text);
  return { ok: true, text, changed: text !== file.text };
}

/** Formats source text (tests, editors); throws on syntax errors. */
export function formatText(text: string, path = "input.wow", options: FormatOptions = {}): string {
  const result = formatFile({ path, text }, options);
  if (!result.ok) throw new Error(`${path} has syntax errors: ${result.diagnostics.map((d) => `${d.code} ${d.message}`).join("; ")}`);
  return result.text;
}

const significant = (tokens: readonly IToken[]): IToken[] => tokens.filter((t) => t.tokenType !== Comma);
const images = (tokens: readonly IToken[]): string[] => tokens.map((t) => t.image);
const words = (text: string): string => text.split(/\s+/).filter(Boolean).join(" ");
const commentWords = (comments: readonly IToken[]): string[] => comments.map((c) => words(c.image));

/**
 * The doc comment (its words) each significant token carries, as the manifest reads it: only a word
 * (a name or keyword) or `@` can be documented; a doc comment before a comma or a bracket documents nothing.
 */
function docAttachment(tokens: readonly IToken[], comments: readonly IToken[]): string[] {
  const docs = indexDocs(comments, tokens);
  return significant(tokens).map((t) => (/^[\p{L}_@]/u.test(t.image) ? words(docs.get(t.startOffset) ?? "") : ""));
}

/** Throws unless `formatted` holds the tokens, comments and doc attachment of `file` (lexed as `tokens` and `comments`). */
export function assertSameContent(file: SourceFile, tokens: readonly IToken[], comments: readonly IToken[], formatted: string): void {
  const again = lexFile({ path: file.path, text: formatted });
  const same = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);
  const unchanged =
    again.diagnostics.length === 0 &&
    same(images(significant(tokens)), images(significant(again.tokens))) &&
    same(commentWords(comments), commentWords(again.comments)) &&
    same(docAttachment(tokens, comments), docAttachment(again.tokens, again.comments));
  if (!unchanged) throw new Error(`the formatter would change the content of ${file.path}; the file was left as it is`);
}
