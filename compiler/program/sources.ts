// Loading a build's sources: every `*.wow` file under the root (not under `node_modules`, hidden
// directories or the output directory), paths relative to the root with `/`, sorted.
import { isUtf8 } from "node:buffer";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import type { SourceFile } from "../ast.js";
import { createDiagnostic, type Diagnostic } from "../diagnostics/diagnostic.js";

export interface LoadedSources {
  readonly files: SourceFile[];
  readonly diagnostics: Diagnostic[];
}

/** Paths (relative to `root`, `/`-separated, sorted) of the `.wow` files of a build. */
export function findSources(root: string, outDir?: string): string[] {
  const skip = outDir === undefined ? undefined : resolve(outDir);
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name === "node_modules" || entry.name.startsWith(".") || path === skip) continue;
        walk(path);
      } else if (entry.isFile() && entry.name.endsWith(".wow")) {
        found.push(relative(root, path).split(sep).join("/"));
      }
    }
  };
  walk(resolve(root));
  return found.sort();
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
      unreadable.push(createDiagnostic("WOW6002", { path, reason: reasonOf(error) }));
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

export function reasonOf(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  if (code === "ENOENT") return "no such file or directory.";
  if (code === "EACCES" || code === "EPERM") return "permission denied.";
  if (code === "EISDIR") return "it is a directory.";
  return error instanceof Error ? error.message : String(error);
}
