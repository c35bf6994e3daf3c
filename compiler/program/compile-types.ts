// What a compile takes and gives (compileSources, IncrementalProgram.compile).
import type { SourceFile, WowFile } from "../ast.js";
import type { ContextScope } from "../binder/symbols.js";
import type { ResolvedReference } from "../checker/resolve.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { ChunkedFile } from "../emit/emit.js";
import type { ManifestSources } from "../manifest/positions.js";
import type { Manifest } from "../manifest/types.js";
import type { ProgramModel } from "../model.js";
import type { ParsedFile } from "../parse/parse-file.js";
import type { PhaseName, PhaseTiming } from "./phases.js";

export interface CompileOptions {
  /** Called as each phase starts (statistics, tests). */
  readonly onPhase?: ((phase: PhaseName) => void) | undefined;
  /** Build the manifest when there are no errors (default true; `wowc check` does not need it). */
  readonly manifest?: boolean;
  /** Parses one file (default `parseFile`); `wowc build --watch` passes a cache keyed by path and content. */
  readonly parse?: (source: SourceFile) => ParsedFile;
  /** Record every name the checker resolves (`CompileResult.references`): the language server's index. */
  readonly references?: boolean;
}

export interface CompileResult {
  /** Every diagnostic, sorted by file, offset and code. */
  readonly diagnostics: Diagnostic[];
  readonly files: readonly WowFile[];
  /** The checked program (also when there are errors: what could be checked). */
  readonly model: ProgramModel;
  /**
   * The manifest, and its file (canonical JSON, UTF-8, in parts: `textOf` joins them): only when
   * there are no errors (and it was asked for).
   */
  readonly manifest?: Manifest;
  readonly manifestFile?: ChunkedFile;
  /** With the manifest: where each of its elements is declared, by JSON pointer (`wow-manifest.sources.json`). */
  readonly sources?: ManifestSources;
  readonly timings: readonly PhaseTiming[];
  /** The bound contexts by name: every declared name with its kind. */
  readonly scopes: ReadonlyMap<string, ContextScope>;
  /** With `references`: by context, every name of its files that names a declaration. */
  readonly references?: ReadonlyMap<string, readonly ResolvedReference[]>;
}
