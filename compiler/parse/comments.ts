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

/** The text of a doc comment: delimiters, leading `*` and common blank lines removed. */
export function docText(raw: string): string {
  const body = raw.slice(3, raw.length - 2);
  const lines = body.split(/\r\n|\r|\n/).map((line, index) => {
    const trimmed = index === 0 ? line : line.replace(/^\s*\*? ?/, "");
    return trimmed.trimEnd();
  });
  while (lines.length > 0 && lines[0]!.trim() === "") lines.shift();
  while (lines.length > 0 && lines[lines.length - 1]!.trim() === "") lines.pop();
  if (lines.length > 0) lines[0] = lines[0]!.trimStart();
  return lines.join("\n");
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
