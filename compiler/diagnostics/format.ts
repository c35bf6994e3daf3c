// Printing diagnostics: `path:line:col - error WOW1234: message`, a code frame and the hint (text), or
// one JSON object for machines. Shared by `wowc build`/`check` and `wowc cron`.
import type { Diagnostic } from "./diagnostic.js";
import { lineText, spanOf } from "./line-map.js";

export type DiagnosticFormat = "text" | "json";

export interface FormatOptions {
  /** Default "text". */
  readonly format?: DiagnosticFormat;
  /** ANSI colours (text only). Default false: pass `true` only when writing to a TTY. */
  readonly color?: boolean;
  /** Append `Found N errors, M warnings.` (text only). Default true. */
  readonly summary?: boolean;
  /**
   * How a file's path is shown before `:line:col` (text only; JSON keeps the path as it is, relative
   * to the build root). `wowc build`/`check` show it relative to the working directory, as every
   * other path they print, so that it can be opened from there.
   */
  readonly displayPath?: (path: string) => string;
}

/** One diagnostic as `--format json` prints it: 1-based lines and columns, `null` when not about a file. */
export interface JsonDiagnostic {
  readonly code: string;
  readonly severity: "error" | "warning";
  readonly message: string;
  readonly file: string | null;
  readonly line: number | null;
  readonly column: number | null;
  readonly endLine: number | null;
  readonly endColumn: number | null;
  readonly hint: string | null;
}

/** Deterministic order: diagnostics about no file first, then by file, offset, code and message. */
export function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort((a, b) => {
    const fa = a.loc?.file.path ?? a.path;
    const fb = b.loc?.file.path ?? b.path;
    if (fa !== fb) {
      if (fa === undefined) return -1;
      if (fb === undefined) return 1;
      return fa < fb ? -1 : 1;
    }
    const oa = a.loc?.start ?? 0;
    const ob = b.loc?.start ?? 0;
    if (oa !== ob) return oa - ob;
    if (a.code !== b.code) return a.code < b.code ? -1 : 1;
    return a.message < b.message ? -1 : a.message > b.message ? 1 : 0;
  });
}

export function toJsonDiagnostic(diagnostic: Diagnostic): JsonDiagnostic {
  const span = diagnostic.loc === undefined ? undefined : spanOf(diagnostic.loc);
  return {
    code: diagnostic.code,
    severity: diagnostic.severity,
    message: diagnostic.message,
    file: diagnostic.loc?.file.path ?? diagnostic.path ?? null,
    line: span?.start.line ?? null,
    column: span?.start.column ?? null,
    endLine: span?.end.line ?? null,
    endColumn: span?.end.column ?? null,
    hint: diagnostic.hint ?? null,
  };
}

/** `Found 2 errors, 1 warning.` (or `Found no problems.`). */
export function summarize(diagnostics: readonly Diagnostic[]): string {
  const errors = diagnostics.filter((d) => d.severity === "error").length;
  const warnings = diagnostics.length - errors;
  if (errors === 0 && warnings === 0) return "Found no problems.";
  const parts: string[] = [];
  if (errors > 0) parts.push(`${errors} error${errors === 1 ? "" : "s"}`);
  if (warnings > 0) parts.push(`${warnings} warning${warnings === 1 ? "" : "s"}`);
  return `Found ${parts.join(", ")}.`;
}

export function formatDiagnostics(diagnostics: readonly Diagnostic[], options: FormatOptions = {}): string {
  const sorted = sortDiagnostics(diagnostics);
  if (options.format === "json") {
    return `${JSON.stringify({ diagnostics: sorted.map(toJsonDiagnostic) })}\n`;
  }
  const paint = painter(options.color === true);
  const display = options.displayPath ?? ((path: string) => path);
  let out = sorted.map((d) => formatOne(d, paint, display)).join("");
  if (options.summary !== false) out += `${paint.bold(summarize(sorted))}\n`;
  return out;
}

interface Paint {
  bold(s: string): string;
  red(s: string): string;
  yellow(s: string): string;
  cyan(s: string): string;
  grey(s: string): string;
}

function painter(enabled: boolean): Paint {
  const wrap = (open: number, close: number) => (s: string) => (enabled ? `\x1b[${open}m${s}\x1b[${close}m` : s);
  return { bold: wrap(1, 22), red: wrap(31, 39), yellow: wrap(33, 39), cyan: wrap(36, 39), grey: wrap(90, 39) };
}

function formatOne(d: Diagnostic, paint: Paint, display: (path: string) => string): string {
  const colourOf = d.severity === "error" ? paint.red : paint.yellow;
  // Paths, messages and hints can carry text from the sources (a file name, a string's value).
  const label = `${colourOf(d.severity)} ${paint.grey(d.code)}: ${visible(d.message)}`;
  let out: string;
  if (d.loc === undefined) {
    out = `${label}\n`;
  } else {
    const span = spanOf(d.loc);
    out = `${paint.cyan(visible(display(d.loc.file.path)))}:${paint.yellow(String(span.start.line))}:${paint.yellow(String(span.start.column))} - ${label}\n`;
    out += codeFrame(d, paint);
  }
  if (d.hint !== undefined) out += `  ${paint.bold("hint")}: ${visible(d.hint)}\n`;
  return `${out}\n`;
}

/**
 * A source line (or a path, a message) safe to print: a control character other than tab (ESC,
 * BEL, a C1 control…) would act on the terminal; each becomes one visible character in its place,
 * so the marker still lines up: its Unicode control picture (ESC as ␛, DEL as ␡), U+FFFD for a C1.
 */
function visible(line: string): string {
  return line.replace(/[\x00-\x08\x0a-\x1f\x7f-\x9f]/g, (c) => {
    const code = c.charCodeAt(0);
    return code < 0x20 ? String.fromCharCode(0x2400 + code) : code === 0x7f ? "\u2421" : "\ufffd";
  });
}

/** How much of a long line a code frame shows: the span's start and what is around it. */
const FRAME_WIDTH = 120;
const FRAME_BEFORE = 40;

/**
 * The span's first line with a gutter, and `~` under the span (`^` for an empty span). A line longer
 * than FRAME_WIDTH is cut to a window around the span's start, marked `…` where cut: a long line with
 * thousands of errors on it (a mangled or generated file) would otherwise print it once per error.
 */
function codeFrame(d: Diagnostic, paint: Paint): string {
  const loc = d.loc!;
  const span = spanOf(loc);
  let line = lineText(loc.file, span.start.line);
  const gutter = String(span.start.line);
  let startCol = Math.min(span.start.column - 1, line.length);
  let endCol = span.end.line === span.start.line ? Math.min(span.end.column - 1, line.length) : line.length;
  if (line.length > FRAME_WIDTH) {
    const from = Math.max(0, Math.min(startCol - FRAME_BEFORE, line.length - FRAME_WIDTH));
    const to = Math.min(line.length, from + FRAME_WIDTH);
    const before = from > 0 ? "…" : "";
    line = `${before}${line.slice(from, to)}${to < line.length ? "…" : ""}`;
    startCol += before.length - from;
    endCol = Math.min(endCol - from, to - from) + before.length;
  }
  line = visible(line);
  // Keep tabs in the padding so the marker lines up under tab-indented code.
  const pad = line.slice(0, startCol).replace(/[^\t]/g, " ");
  const marker = endCol > startCol ? "~".repeat(endCol - startCol) : "^";
  const colourOf = d.severity === "error" ? paint.red : paint.yellow;
  return (
    `\n${paint.grey(gutter)} ${line}\n` + `${" ".repeat(gutter.length)} ${pad}${colourOf(marker)}\n`
  );
}
