// A build on disk: find and read the sources under a root, compile them, and (for `wowc build`)
// when there are no errors write `<out>/wow-manifest.json` and the generated SDK, each file only
// when its content changed (`--check`: write nothing, report what is out of date).
import { join, relative, resolve, sep } from "node:path";
import { createDiagnostic, type Diagnostic } from "../diagnostics/diagnostic.js";
import { sortDiagnostics } from "../diagnostics/format.js";
import { emitSdk, type EmittedFile } from "../emit/emit.js";
import { writeOutput, type OutputResult } from "../emit/write-output.js";
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
  /** `wowc build --check`: generate, compare with the output directory, write nothing. */
  readonly check?: boolean;
}

export interface BuildResult extends Omit<CompileResult, "diagnostics"> {
  readonly diagnostics: Diagnostic[];
  /** The absolute path of the manifest (whether written or not). */
  readonly manifestPath: string;
  /** True when the manifest file was (re)written; false when unchanged, not built or not asked for. */
  readonly wrote: boolean;
  /** Generated files (relative to the output directory) written — with `check`, out of date — and stale ones deleted (would be). */
  readonly output: OutputResult;
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
  let output: OutputResult = { changed: [], removed: [] };
  if (options.write && result.manifestText !== undefined && !diagnostics.some((d) => d.severity === "error")) {
    const manifest: EmittedFile = { path: MANIFEST_FILE_NAME, text: result.manifestText };
    const files = phases.run("emit", () => [manifest, ...emitSdk(result.model)]);
    phases.run("write", () => {
      try {
        output = writeOutput(outDir, files, { check: options.check === true });
      } catch (error) {
        diagnostics.push(createDiagnostic("WOW6003", { path: displayPath(outDir), reason: reasonOf(error) }));
      }
    });
  }
  const wrote = options.check !== true && output.changed.includes(MANIFEST_FILE_NAME);
  return { ...result, diagnostics, manifestPath, wrote, output, sourceCount: loaded.files.length, timings: phases.timings };
}

function asError(diagnostic: Diagnostic): Diagnostic {
  return diagnostic.severity === "error" ? diagnostic : { ...diagnostic, severity: "error" };
}

/** A path as the user would type it: relative to the working directory when inside it. */
export function displayPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel === "" ? "." : rel.startsWith("..") ? path : rel.split(sep).join("/");
}
