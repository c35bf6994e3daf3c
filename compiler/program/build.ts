// A build on disk: find and read the sources under a root, compile them, and (for `wowc build`)
// write `<out>/wow-manifest.json` when it has no errors and its content changed.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { createDiagnostic, type Diagnostic } from "../diagnostics/diagnostic.js";
import { sortDiagnostics } from "../diagnostics/format.js";
import { MANIFEST_FILE_NAME } from "../manifest/types.js";
import { compileSources, type CompileOptions, type CompileResult } from "./compile.js";
import { Phases } from "./phases.js";
import { findSources, readSources, reasonOf } from "./sources.js";

export interface BuildOptions extends CompileOptions {
  /** The build root: sources are found under it and reported relative to it. */
  readonly root: string;
  /** Output directory (default `<root>/generated`), skipped when looking for sources. */
  readonly outDir?: string;
  /** Write the manifest (`wowc build`) or only check (`wowc check`). */
  readonly write: boolean;
  /** The sources, relative to the root; default: every `*.wow` under it. Order does not matter. */
  readonly files?: readonly string[];
  /** Report warnings as errors (and then write nothing). */
  readonly warnAsError?: boolean;
}

export interface BuildResult extends Omit<CompileResult, "diagnostics"> {
  readonly diagnostics: Diagnostic[];
  /** The absolute path of the manifest (whether written or not). */
  readonly manifestPath: string;
  /** True when the manifest file was (re)written; false when unchanged, not built or not asked for. */
  readonly wrote: boolean;
  /** The number of source files. */
  readonly sourceCount: number;
}

export function build(options: BuildOptions): BuildResult {
  const phases = new Phases(options.onPhase);
  const root = resolve(options.root);
  const outDir = resolve(root, options.outDir ?? "generated");
  const manifestPath = join(outDir, MANIFEST_FILE_NAME);
  const loaded = phases.run("load", () => readSources(root, options.files ?? findSources(root, outDir)));
  if (loaded.files.length === 0 && loaded.diagnostics.length === 0) {
    loaded.diagnostics.push(createDiagnostic("WOW6001", { dir: displayPath(root) }));
  }
  const result = compileSources(loaded.files, { ...options, manifest: options.manifest ?? options.write }, phases);
  const all = [...loaded.diagnostics, ...result.diagnostics];
  const diagnostics = sortDiagnostics(options.warnAsError === true ? all.map(asError) : all);
  let wrote = false;
  if (options.write && result.manifestText !== undefined && !diagnostics.some((d) => d.severity === "error")) {
    const text = result.manifestText;
    phases.run("write", () => {
      try {
        if (readIfExists(manifestPath) !== text) {
          mkdirSync(outDir, { recursive: true });
          writeFileSync(manifestPath, text);
          wrote = true;
        }
      } catch (error) {
        diagnostics.push(createDiagnostic("WOW6003", { path: displayPath(manifestPath), reason: reasonOf(error) }));
      }
    });
  }
  return { ...result, diagnostics, manifestPath, wrote, sourceCount: loaded.files.length, timings: phases.timings };
}

function asError(diagnostic: Diagnostic): Diagnostic {
  return diagnostic.severity === "error" ? diagnostic : { ...diagnostic, severity: "error" };
}

function readIfExists(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

/** A path as the user would type it: relative to the working directory when inside it. */
export function displayPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel === "" ? "." : rel.startsWith("..") ? path : rel.split(sep).join("/");
}
