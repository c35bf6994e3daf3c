// `wowc fmt [paths] [--check]`: formats `.wow` files in place (files, or every `.wow` file under a
// directory), or with `--check` lists the files that are not formatted and exits 1. A file with
// syntax errors is never touched: its diagnostics are printed and the exit status is 1.
import { readFileSync, statSync } from "node:fs";
import { relative, resolve, sep } from "node:path";
import type { CliIO } from "./io.js";
import { commandSpec, unknownOption } from "./commands.js";
import { createDiagnostic, type Diagnostic } from "../diagnostics/diagnostic.js";
import { formatDiagnostics } from "../diagnostics/format.js";
import { reasonOf } from "../diagnostics/reason.js";
import { decodeSource, findSources, type DecodedSource } from "../program/sources.js";
import { formatFile } from "../format/format-text.js";
import { DEFAULT_PRINT_WIDTH } from "../format/print-cst.js";
import { replaceFile } from "../format/replace-file.js";

export const fmtHelp = `wowc fmt [paths…] [--check] [--print-width N] — format .wow files in one canonical layout

  paths              files or directories (default .); directories are searched for *.wow files
                     (node_modules, hidden directories and generated/ are skipped)
  --check            write nothing: list the files that are not formatted and exit 1 if there are any
  --print-width N    the column an annotation longer than it is wrapped at: one argument per line,
                     and a list still too long, one item per line (default ${DEFAULT_PRINT_WIDTH})

Every comment is kept; formatting twice changes nothing; a file with syntax errors, or that is not
UTF-8, is left as it is. A file is written whole or not at all (a temporary file renamed over it).
Exit status: 0 formatted (or, with --check, already formatted), 1 unformatted files or errors in
them, 2 usage, or a file that could not be written.
`;

export async function runFmtCommand(argv: readonly string[], io: CliIO): Promise<number> {
  let check = false;
  let printWidth = DEFAULT_PRINT_WIDTH;
  const paths: string[] = [];
  let operands = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    // `--`: what follows are paths, even ones starting with '-'.
    if (arg === "--" && !operands) {
      operands = true;
      continue;
    }
    if (operands) {
      paths.push(arg);
      continue;
    }
    const width = /^--print-width(?:=(.*))?$/.exec(arg);
    if (width !== null) {
      const value = width[1] ?? argv[++i] ?? "";
      if (!/^[1-9][0-9]*$/.test(value) || Number(value) < 40 || Number(value) > 1000) {
        io.stderr(`wowc fmt: --print-width takes a whole number from 40 to 1000, not '${value}'.\n`);
        return 2;
      }
      printWidth = Number(value);
    } else if (arg === "--check") check = true;
    else if (arg === "--help" || arg === "-h") {
      io.stdout(fmtHelp);
      return 0;
    } else if (arg.startsWith("-")) {
      io.stderr(`wowc fmt: ${unknownOption(arg, commandSpec("fmt"))}\n${fmtHelp}`);
      return 2;
    } else paths.push(arg);
  }
  const files: string[] = [];
  const failed: Diagnostic[] = [];
  for (const path of paths.length === 0 ? ["."] : paths) {
    const absolute = resolve(io.cwd, path);
    let isDirectory: boolean;
    try {
      isDirectory = statSync(absolute).isDirectory();
    } catch {
      io.stderr(`wowc fmt: '${path}' does not exist.\n`);
      return 2;
    }
    if (isDirectory) files.push(...findSources(absolute, resolve(absolute, "generated"), failed, io.cwd).map((f) => resolve(absolute, f)));
    else files.push(absolute);
  }
  const unformatted: string[] = [];
  /** WOW6003: a formatted file that could not be written back (it keeps its old content). */
  const unwritten: Diagnostic[] = [];
  for (const path of [...new Set(files)].sort()) {
    const display = relative(io.cwd, path).split(sep).join("/") || path;
    let source: DecodedSource;
    try {
      source = decodeSource(display, readFileSync(path));
    } catch (error) {
      failed.push(createDiagnostic("WOW6002", { path: display, reason: reasonOf(error) }));
      continue;
    }
    if (source.invalid !== undefined) {
      failed.push(source.invalid); // its text lost the bytes that are not UTF-8: never written back
      continue;
    }
    const result = formatFile(source.file, { printWidth });
    if (!result.ok) {
      failed.push(...result.diagnostics);
      continue;
    }
    if (!result.changed) continue;
    if (check) {
      unformatted.push(display);
      continue;
    }
    try {
      replaceFile(path, result.text);
      unformatted.push(display);
    } catch (error) {
      unwritten.push(createDiagnostic("WOW6003", { path: display, reason: reasonOf(error) }));
    }
  }
  const color = io.isTTY === true && io.env?.NO_COLOR === undefined;
  if (failed.length + unwritten.length > 0) io.stdout(formatDiagnostics([...failed, ...unwritten], { color }));
  if (failed.length > 0) io.stderr("wowc fmt: files with errors were not formatted; fix the errors above and run it again.\n");
  if (check) {
    if (unformatted.length > 0) {
      io.stdout(unformatted.map((f) => `${f}\n`).join(""));
      io.stderr(`There are unformatted files (${unformatted.length}). Run \`wowc fmt\` to format them.\n`);
      return 1;
    }
    if (failed.length === 0) io.stdout(`All ${files.length} file${files.length === 1 ? " is" : "s are"} formatted.\n`);
    return failed.length > 0 ? 1 : 0;
  }
  for (const f of unformatted) io.stdout(`Formatted ${f}\n`);
  if (failed.length + unwritten.length === 0) io.stdout(`${unformatted.length} of ${files.length} file${files.length === 1 ? "" : "s"} changed.\n`);
  return unwritten.length > 0 ? 2 : failed.length > 0 ? 1 : 0;
}
