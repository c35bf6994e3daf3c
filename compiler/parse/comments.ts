// Comments of a file: the `Comment` nodes of `WowFile.comments`, and doc comments indexed by the
// offset of the token they document (the next token after them), so nodes find their doc in O(1).
import type { IToken } from "chevrotain";
import type { Comment, SourceFile } from "../ast.js";
import { DocComment, LineComment } from "../../grammar/tokens.js";

export function toComments(file: SourceFile, tokens: readonly IToken[]): Comment[] {
  const comments: Comment[] = new Array(tokens.length);
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const type = token.tokenType;
    comments[i] = {
      kind: type === DocComment ? "Doc" : type === LineComment ? "Line" : "Block",
      text: token.image,
      loc: { file, start: token.startOffset, end: token.startOffset + token.image.length },
    };
  }
  return comments;
}

/**
 * The text of a doc comment: delimiters, blank first and last lines and each line's leading `*` (with
 * the whitespace before it) removed, then the indentation shared by the lines written with `*`, and
 * that shared by the lines written without. Indentation beyond the shared one is kept, as TypeScript
 * reads JSDoc: an indented example stays indented.
 */
export function docText(raw: string): string {
  const body = raw.slice(3, raw.length - 2);
  // One line: only its surrounding white space goes (what the steps below do to it).
  if (!/[\r\n]/.test(body)) return body.trim();
  const lines = body.split(/\r\n|\r|\n/).map((line) => line.trimEnd());
  const starred = lines.map((line, index) => index > 0 && STAR.test(line));
  const text = lines.map((line, index) => (index === 0 ? line.trimStart() : line.replace(STAR, "")));
  dedent(text, (index) => index > 0 && starred[index]!);
  dedent(text, (index) => index > 0 && !starred[index]!);
  while (text.length > 0 && text[0] === "") text.shift();
  while (text.length > 0 && text[text.length - 1] === "") text.pop();
  return text.join("\n");
}

/** A doc comment line's leading `*`, with the whitespace before it. */
const STAR = /^\s*\*/;

/** Removes from the chosen lines the leading whitespace they all share (blank lines aside). */
function dedent(lines: string[], chosen: (index: number) => boolean): void {
  let margin = Infinity;
  for (let i = 0; i < lines.length; i++) {
    if (chosen(i) && lines[i] !== "") margin = Math.min(margin, lines[i]!.length - lines[i]!.trimStart().length);
  }
  if (margin === Infinity) return;
  for (let i = 0; i < lines.length; i++) if (chosen(i)) lines[i] = lines[i]!.slice(margin);
}

/**
 * Maps the start offset of a token to the doc comment written just before it (only comments may
 * stand between them; with several doc comments the last one wins).
 */
export function indexDocs(comments: readonly IToken[], tokens: readonly IToken[]): Map<number, string> {
  const docs = new Map<number, string>();
  let next = 0;
  for (const comment of comments) {
    if (comment.tokenType !== DocComment) continue;
    while (next < tokens.length && tokens[next]!.startOffset < comment.startOffset) next++;
    if (next >= tokens.length) break;
    docs.set(tokens[next]!.startOffset, docText(comment.image));
  }
  return docs;
}
