// The formatter's output buffer: lines at an indentation, and the file's comments re-inserted by
// source position. Before a token is written, every comment that stood before it is flushed: on the
// same source line as the previous token it stays there (a trailing comment), otherwise it gets its
// own line (a leading comment). Blank lines of the source survive where a line starts (at most one).
import type { IToken } from "chevrotain";
import { DocComment, LineComment } from "../../grammar/tokens.js";

const INDENT = "  ";
/** Two line breaks with only spaces between: `\n`, `\r\n` or a lone `\r` (old Mac line ends). */
const BLANK_LINE = /(?:\r\n|\r(?!\n)|\n)[^\S\r\n]*(?:\r\n|\r(?!\n)|\n)/;
const LINE_BREAK = /\r\n|\r|\n/;
const SPACE = /\s*/y;
const TRAILING_GAP = /^[^\S\r\n]*(?:,[^\S\r\n]*)?$/;

export class Emitter {
  private readonly lines: string[] = [];
  private line = "";
  private lineIndent = 0;
  private depth = 0;
  private next = 0;
  /** Source offset just after the last token or comment written. */
  private lastEnd = 0;
  /** A line comment ended the current line: the next text starts a new one. */
  private breakPending = false;
  /** Just after an opening brace (or at the start of the file): no blank line here. */
  private afterOpener = true;
  private forceBlank = false;
  private noSpace = false;

  constructor(
    private readonly text: string,
    private readonly comments: readonly IToken[],
  ) {}

  /** Whether a comment starts within `[start, end)`: such a construct is laid out on several lines. */
  hasCommentIn(start: number, end: number): boolean {
    for (const comment of this.comments) {
      if (comment.startOffset >= end) return false;
      if (comment.startOffset >= start) return true;
    }
    return false;
  }

  /** Writes a source token, after the comments before it; `space`: separated from the text before it on the line. */
  token(token: IToken, space: boolean): void {
    this.flushComments(token.startOffset);
    this.write(token.image, space, token.startOffset);
    this.lastEnd = token.startOffset + token.image.length;
  }

  /** Writes a closing `}`, `)` or `]` (never after a blank line). */
  closer(token: IToken, space: boolean): void {
    this.flushComments(token.startOffset);
    this.write(token.image, space, undefined);
    this.lastEnd = token.startOffset + token.image.length;
  }

  /** Writes text that is not a source token (a separator the layout adds). */
  synthetic(text: string, space: boolean): void {
    this.write(text, space, undefined);
  }

  /**
   * Writes the separator between two items of a list: `text` (may be empty: fields need none), or
   * the source comma after the comments before it when one of them is a doc comment. Such a doc
   * comment documents nothing (a comma follows it); moved after the separator it would document the
   * next item.
   */
  separator(text: string): void {
    const comma = this.commaAfterDoc();
    if (comma === undefined) {
      if (text !== "") this.write(text, false, undefined);
      return;
    }
    this.flushComments(comma);
    // Right after the last comment, on its line (only a line comment pushes it to the next one).
    this.breakPending = this.comments[this.next - 1]!.tokenType === LineComment;
    this.write(",", false, undefined);
    this.lastEnd = comma + 1;
  }

  /** The offset of the source comma after the comments that follow the last token, when one of them is a doc comment. */
  private commaAfterDoc(): number | undefined {
    let end = this.lastEnd;
    let doc = false;
    for (let i = this.next; i < this.comments.length; i++) {
      const comment = this.comments[i]!;
      if (this.text.slice(end, comment.startOffset).trim() !== "") break;
      doc ||= comment.tokenType === DocComment;
      end = comment.startOffset + comment.image.length;
    }
    SPACE.lastIndex = end;
    SPACE.exec(this.text);
    return doc && this.text[SPACE.lastIndex] === "," ? SPACE.lastIndex : undefined;
  }

  /** The next text follows the previous one without a space (the first item after `(` or `[`). */
  suppressNextSpace(): void {
    this.noSpace = true;
  }

  /** Writes the comments that stand before `offset` (those before a closer, at the block's indentation). */
  commentsBefore(offset: number): void {
    this.flushComments(offset);
  }

  /** Marks that an opening brace was written: the block's first line follows without a blank line. */
  opened(): void {
    this.afterOpener = true;
  }

  newline(): void {
    if (this.line !== "" && !this.breakPending) this.flushTrailing();
    if (this.line !== "") {
      this.lines.push(INDENT.repeat(this.lineIndent) + this.line);
      this.line = "";
    }
    this.breakPending = false;
  }

  /** The next line starts after a blank line (after `context NAME`). */
  blankLine(): void {
    this.newline();
    this.forceBlank = true;
  }

  indent(): void {
    this.depth++;
  }

  /** The indentation level the current line is (or the next one will be) written at. */
  indentation(): number {
    return this.line === "" ? this.depth : this.lineIndent;
  }

  dedent(): void {
    this.depth--;
  }

  /** Flushes the remaining comments and returns the text: `\n` line ends, one at the end of the file. */
  finish(): string {
    this.flushComments(Infinity);
    this.newline();
    while (this.lines.length > 0 && this.lines[this.lines.length - 1] === "") this.lines.pop();
    return this.lines.length === 0 ? "" : `${this.lines.join("\n")}\n`;
  }

  private write(text: string, space: boolean, sourceStart: number | undefined): void {
    if (this.breakPending) this.newline();
    if (this.line === "") {
      this.startLine(sourceStart);
      this.line = text;
    } else {
      this.line += space && !this.noSpace ? ` ${text}` : text;
    }
    this.noSpace = false;
    this.afterOpener = false;
  }

  private startLine(sourceStart: number | undefined): void {
    const blank =
      this.forceBlank ||
      (!this.afterOpener && sourceStart !== undefined && BLANK_LINE.test(this.text.slice(this.lastEnd, sourceStart)));
    if (blank && this.lines.length > 0 && this.lines[this.lines.length - 1] !== "") this.lines.push("");
    this.forceBlank = false;
    this.lineIndent = this.depth;
  }

  /** Comments after the last token on its source line (only spaces or a dropped comma between) stay on its line. */
  private flushTrailing(): void {
    while (this.next < this.comments.length && !this.breakPending) {
      const comment = this.comments[this.next]!;
      if (!TRAILING_GAP.test(this.text.slice(this.lastEnd, comment.startOffset))) return;
      this.flushComments(comment.startOffset + 1);
    }
  }

  private flushComments(before: number): void {
    while (this.next < this.comments.length && this.comments[this.next]!.startOffset < before) {
      const comment = this.comments[this.next++]!;
      const image = comment.tokenType === LineComment ? comment.image.trimEnd() : comment.image;
      const sameLine = this.line !== "" && !this.breakPending && !LINE_BREAK.test(this.text.slice(this.lastEnd, comment.startOffset));
      if (sameLine) {
        // A trailing comment, even a block comment over several lines, stays after its token.
        this.line += ` ${this.reindent(image, comment.startOffset, this.column() + 1, this.lineIndent)}`;
      } else {
        this.newline();
        this.startLine(comment.startOffset);
        this.line = this.reindent(image, comment.startOffset, this.depth * INDENT.length, this.depth);
      }
      this.breakPending = comment.tokenType === LineComment || !sameLine;
      this.afterOpener = false;
      this.lastEnd = comment.startOffset + comment.image.length;
    }
  }

  /** The output column after the current line (its last line, when a block comment spans several). */
  private column(): number {
    const lastLine = this.line.slice(this.line.lastIndexOf("\n") + 1);
    return (lastLine === this.line ? this.lineIndent * INDENT.length : 0) + lastLine.length;
  }

  /**
   * A block comment's later lines move with its first, from its source column to `column`, all by
   * the same shift, so that their relative indentation (a doc comment's text) is kept; the shift is
   * cut short where it would take the least indented line left of `depth` indentation.
   */
  private reindent(image: string, start: number, column: number, depth: number): string {
    const lines = image.split(LINE_BREAK);
    if (lines.length === 1) return image;
    const lineStart = Math.max(this.text.lastIndexOf("\n", start - 1), this.text.lastIndexOf("\r", start - 1)) + 1;
    const indent = INDENT.repeat(depth);
    const leadingOf = (line: string) => line.length - line.trimStart().length;
    let least = Infinity;
    for (let i = 1; i < lines.length; i++) if (lines[i]!.trim() !== "") least = Math.min(least, leadingOf(lines[i]!));
    const shift = Math.max(column - (start - lineStart), indent.length - least);
    return lines
      .map((line, index) => {
        if (index === 0) return line.trimEnd();
        const rest = line.trim();
        if (rest === "") return "";
        return indent + " ".repeat(leadingOf(line) + shift - indent.length) + rest;
      })
      .join("\n");
  }
}
