// Loading a build's sources: every `*.wow` file under the root (not under `node_modules`, hidden
// directories or the output directory), paths relative to the root with `/`, sorted. Symbolic links
// are followed (a directory reached twice, or a link cycle, is walked once).
import { isUtf8 } from "node:buffer";
import { readdirSync, readFileSync, realpathSync, statSync, type Dirent, type Stats } from "node:fs";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import type { SourceFile } from "../ast.js";
import { createDiagnostic, type Diagnostic } from "../diagnostics/diagnostic.js";
import { reasonOf } from "../diagnostics/reason.js";

export interface LoadedSources {
  readonly files: SourceFile[];
  readonly diagnostics: Diagnostic[];
}

/**
 * Paths (relative to `root`, `/`-separated, sorted) of the `.wow` files of a build. A directory that
 * cannot be listed is reported in `problems` (WOW6002) and the walk goes on; without `problems` the
 * error is thrown. A link whose target is missing is listed when its name ends in `.wow`: reading it
 * reports it. A problem's path is relative to `shownFrom` (default: the root).
 */
export function findSources(root: string, outDir?: string, problems?: Diagnostic[], shownFrom: string = root): string[] {
  const top = resolve(root);
  const skip = outDir === undefined ? undefined : realPath(resolve(outDir));
  const walked = new Set<string>();
  const found = new Map<string, string>(); // real path → path relative to the root
  const shown = resolve(shownFrom);
  const walk = (dir: string): void => {
    const real = realPath(dir);
    if (walked.has(real) || (real === skip && dir !== top)) return;
    walked.add(real);
    for (const entry of listDirectory(dir, shown, problems)) {
      const path = join(dir, entry.name);
      const kind = kindOf(entry, path);
      if (kind === "directory") {
        if (entry.name !== "node_modules" && !entry.name.startsWith(".")) walk(path);
      } else if (kind === "file" && entry.name.endsWith(".wow")) {
        // A plain file is where its real directory says; only a link needs resolving.
        const target = entry.isSymbolicLink() ? realPath(path) : join(real, entry.name);
        if (!found.has(target)) found.set(target, relative(top, path).split(sep).join("/"));
      }
    }
  };
  walk(top);
  return [...found.values()].sort();
}

/** A directory's entries, sorted by name (the order of the walk, which the watcher follows too). */
export function sortedEntries(dir: string): Dirent[] {
  return readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** A directory's entries by name; when it cannot be listed, WOW6002 in `problems` (or thrown). */
function listDirectory(dir: string, root: string, problems: Diagnostic[] | undefined): Dirent[] {
  try {
    return sortedEntries(dir);
  } catch (error) {
    if (problems === undefined) throw error;
    const path = relative(root, dir).split(sep).join("/") || ".";
    problems.push(withFile(createDiagnostic("WOW6002", { path, reason: reasonOf(error) }), path));
    return [];
  }
}

/** What an entry is, a symbolic link by its target's kind (a missing target counts as a file). */
function kindOf(entry: Dirent, path: string): "directory" | "file" | undefined {
  if (entry.isDirectory()) return "directory";
  if (entry.isFile()) return "file";
  if (!entry.isSymbolicLink()) return undefined;
  let target: Stats | undefined;
  try {
    target = statSync(path);
  } catch {
    target = undefined; // missing, or a link cycle
  }
  return target?.isDirectory() === true ? "directory" : target === undefined || target.isFile() ? "file" : undefined;
}

/** The path with every link resolved; undefined when it does not exist (or is a dangling link, a cycle). */
export function realPathOf(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/** `realPathOf`, or the path itself when it has none. */
function realPath(path: string): string {
  return realPathOf(path) ?? path;
}

/**
 * Source paths as an API caller gives them (`build({ files })`), made what the walk gives: relative
 * to the root, `/`-separated (a `\` is taken for one), without `./` or `..` steps, each once,
 * sorted. A path outside the root (`../x.wow`, an absolute path elsewhere) is WOW6002, not read.
 */
export function normalizeSources(root: string, paths: readonly string[]): { readonly paths: string[]; readonly problems: Diagnostic[] } {
  const top = resolve(root);
  const found = new Set<string>();
  const problems: Diagnostic[] = [];
  for (const given of paths) {
    const path = relative(top, resolve(top, given.replaceAll("\\", "/"))).split(sep).join("/");
    if (path === ".." || path.startsWith("../") || isAbsolute(path)) {
      problems.push(withFile(createDiagnostic("WOW6002", { path: given, reason: `it is outside the build root '${top}': give sources relative to the root, inside it.` }), given));
    } else found.add(path);
  }
  return { paths: [...found].sort(), problems };
}

/** A source as read: its text, and WOW6004 when its bytes are not UTF-8. */
export interface DecodedSource {
  readonly file: SourceFile;
  readonly invalid?: Diagnostic;
}

/** Reads the given files (relative to `root`); unreadable ones are reported (WOW6002), not thrown. */
export function readSources(root: string, paths: readonly string[]): { readonly decoded: DecodedSource[]; readonly unreadable: Diagnostic[] } {
  const decoded: DecodedSource[] = [];
  const unreadable: Diagnostic[] = [];
  for (const path of [...new Set(paths)].sort()) {
    try {
      decoded.push(decodeSource(path, readFileSync(join(root, path))));
    } catch (error) {
      unreadable.push(withFile(createDiagnostic("WOW6002", { path, reason: reasonOf(error) }), path));
    }
  }
  return { decoded, unreadable };
}

/**
 * A source's bytes as text. Bytes that are not UTF-8 (a file saved as Latin-1 or Windows-1252)
 * become U+FFFD in the text, as every UTF-8 decoder makes them, and WOW6004 points at the first:
 * compiling goes on, but nothing may write that text back over the file (`wowc fmt` would lose the
 * bytes).
 */
export function decodeSource(path: string, bytes: Buffer): DecodedSource {
  const file: SourceFile = { path, text: bytes.toString("utf8") };
  if (isUtf8(bytes)) return { file };
  const at = firstInvalidByte(bytes);
  const start = bytes.toString("utf8", 0, at).length; // the valid prefix, in UTF-16 code units
  const byte = `0x${bytes[at]!.toString(16).toUpperCase().padStart(2, "0")}`;
  return { file, invalid: createDiagnostic("WOW6004", { byte }, { file, start, end: start + 1 }) };
}

/** The offset of the first byte that does not start a complete, well-formed UTF-8 character. */
function firstInvalidByte(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i]!;
    if (lead < 0x80) {
      i++;
      continue;
    }
    // The continuation bytes a lead byte needs, and the range of the first (no overlong forms, no
    // surrogates, nothing above U+10FFFF).
    let need: number;
    let low = 0x80;
    let high = 0xbf;
    if (lead >= 0xc2 && lead <= 0xdf) need = 1;
    else if (lead >= 0xe0 && lead <= 0xef) [need, low, high] = [2, lead === 0xe0 ? 0xa0 : 0x80, lead === 0xed ? 0x9f : 0xbf];
    else if (lead >= 0xf0 && lead <= 0xf4) [need, low, high] = [3, lead === 0xf0 ? 0x90 : 0x80, lead === 0xf4 ? 0x8f : 0xbf];
    else return i;
    for (let k = 1; k <= need; k++) {
      const next = bytes[i + k];
      if (next === undefined || next < (k === 1 ? low : 0x80) || next > (k === 1 ? high : 0xbf)) return i;
    }
    i += need + 1;
  }
  return bytes.length;
}

/** A diagnostic about a whole file or directory (no position in it): JSON output names the path. */
export function withFile(diagnostic: Diagnostic, path: string): Diagnostic {
  return { ...diagnostic, path };
}
