// Loading a build's sources: every `*.wow` file under the root (not under `node_modules`, hidden
// directories or the output directory), paths relative to the root with `/`, sorted.
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

/** Reads the given files (relative to `root`); unreadable ones are reported, not thrown. */
export function readSources(root: string, paths: readonly string[]): LoadedSources {
  const files: SourceFile[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const path of [...new Set(paths)].sort()) {
    try {
      files.push({ path, text: readFileSync(join(root, path), "utf8") });
    } catch (error) {
      diagnostics.push(createDiagnostic("WOW6002", { path, reason: reasonOf(error) }));
    }
  }
  return { files, diagnostics };
}

export function reasonOf(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  if (code === "ENOENT") return "no such file or directory.";
  if (code === "EACCES" || code === "EPERM") return "permission denied.";
  if (code === "EISDIR") return "it is a directory.";
  return error instanceof Error ? error.message : String(error);
}
