// Formatting with `wowc fmt`'s rules (compiler/format/): the whole document is laid out, then only
// the lines that changed are sent back as edits; a range keeps the edits that touch its lines. A
// document with syntax errors is left as it is (`wowc fmt` refuses it too).
import type { Range, TextEdit } from "vscode-languageserver";
import type { TextDocument } from "vscode-languageserver-textdocument";
import { formatFile } from "../format/format-text.js";

interface Hunk {
  /** Old lines [from, to) are replaced by `lines`. */
  readonly from: number;
  readonly to: number;
  readonly lines: readonly string[];
}

/** A text's lines, each with its line break (the last one may have none). */
function linesOf(text: string): string[] {
  return text.match(/[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$/g) ?? [];
}

/** The longest common subsequence of lines between the shared head and tail; past this size, one hunk. */
const MAX_DIFF_CELLS = 4_000_000;

function hunks(before: readonly string[], after: readonly string[]): Hunk[] {
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head++;
  let tail = 0;
  while (tail < before.length - head && tail < after.length - head && before[before.length - 1 - tail] === after[after.length - 1 - tail]) tail++;
  const a = before.slice(head, before.length - tail);
  const b = after.slice(head, after.length - tail);
  if (a.length === 0 && b.length === 0) return [];
  if (a.length * b.length > MAX_DIFF_CELLS) return [{ from: head, to: head + a.length, lines: b }];
  // lengths[i][j]: the LCS of a[i..] and b[j..].
  const width = b.length + 1;
  const lengths = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lengths[i * width + j] = a[i] === b[j] ? lengths[(i + 1) * width + j + 1]! + 1 : Math.max(lengths[(i + 1) * width + j]!, lengths[i * width + j + 1]!);
    }
  }
  const out: Hunk[] = [];
  let i = 0;
  let j = 0;
  let open: { from: number; lines: string[] } | undefined;
  const close = (at: number) => {
    if (open !== undefined) out.push({ from: head + open.from, to: head + at, lines: open.lines });
    open = undefined;
  };
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      close(i);
      i++;
      j++;
    } else if (j < b.length && (i === a.length || lengths[i * width + j + 1]! >= lengths[(i + 1) * width + j]!)) {
      (open ??= { from: i, lines: [] }).lines.push(b[j]!);
      j++;
    } else {
      open ??= { from: i, lines: [] };
      i++;
    }
  }
  close(i);
  return out;
}

function edits(document: TextDocument, keep: (hunk: Hunk) => boolean): TextEdit[] | null {
  const text = document.getText();
  let result: ReturnType<typeof formatFile>;
  try {
    result = formatFile({ path: document.uri, text });
  } catch {
    return null; // the formatter would have changed the content (format-text.ts): nothing is touched
  }
  if (!result.ok) return null;
  const before = linesOf(text);
  const starts: number[] = [];
  let offset = 0;
  for (const line of before) {
    starts.push(offset);
    offset += line.length;
  }
  starts.push(text.length);
  return hunks(before, linesOf(result.text))
    .filter(keep)
    .map((h) => ({ range: { start: document.positionAt(starts[h.from]!), end: document.positionAt(starts[h.to]!) }, newText: h.lines.join("") }));
}

export function formatDocument(document: TextDocument): TextEdit[] | null {
  return edits(document, () => true);
}

/** The edits of the lines the range covers (a range ending at the start of a line does not cover it). */
export function formatRange(document: TextDocument, range: Range): TextEdit[] | null {
  const first = range.start.line;
  const last = range.end.character === 0 && range.end.line > first ? range.end.line - 1 : range.end.line;
  return edits(document, (h) => h.from <= last && (h.to > first || (h.to === h.from && h.from >= first)));
}
