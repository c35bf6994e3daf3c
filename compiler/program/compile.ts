// The pipeline on sources in memory: parse → bind → check → manifest. Pure: reads and writes nothing.
import type { SourceFile } from "../ast.js";
import type { CompileOptions, CompileResult } from "./compile-types.js";
import { IncrementalProgram } from "./incremental.js";
import { Phases } from "./phases.js";

export type { CompileOptions, CompileResult } from "./compile-types.js";

/** One compile from nothing (the watcher keeps an IncrementalProgram between rebuilds instead). */
export function compileSources(sources: readonly SourceFile[], options: CompileOptions = {}, phases = new Phases(options.onPhase)): CompileResult {
  return new IncrementalProgram().compile(sources, options, phases);
}
