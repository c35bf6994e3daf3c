// Public compiler API (`import … from "wowc"`).
export type * from "./ast.js";
export type { Diagnostic } from "./diagnostics/diagnostic.js";
export { createDiagnostic } from "./diagnostics/diagnostic.js";
export { messages, type DiagnosticCode, type Severity } from "./diagnostics/messages.js";
export {
  formatDiagnostics,
  sortDiagnostics,
  summarize,
  toJsonDiagnostic,
  type DiagnosticFormat,
  type FormatOptions,
  type JsonDiagnostic,
} from "./diagnostics/format.js";
export { positionOf, spanOf, type Position, type Span } from "./diagnostics/line-map.js";
export { compileSources, type CompileOptions, type CompileResult } from "./program/compile.js";
export { build, type BuildOptions, type BuildResult } from "./program/build.js";
export { findSources, readSources } from "./program/sources.js";
export type { PhaseName, PhaseTiming } from "./program/phases.js";
export type * from "./model.js";
export type * from "./manifest/types.js";
export { MANIFEST_FILE_NAME, MANIFEST_SCHEMA_ID, MANIFEST_VERSION } from "./manifest/types.js";
export { commandRoute, snakeCase, type CommandRoute } from "./manifest/routes.js";
export { runCli, type CliIO } from "./cli/run-cli.js";
export { emitSdk, GENERATED_HEADER, type EmittedFile } from "./emit/emit.js";
export { writeIfChanged, writeOutput, GENERATED_LIST_FILE, type OutputResult } from "./emit/write-output.js";
export { configSchema, configDefaults, CONFIG_SCHEMA_FILE } from "./emit/config-view.js";

import { build, type BuildOptions, type BuildResult } from "./program/build.js";

/** `wowc check` as a function: all the checks, nothing written. */
export function check(options: Omit<BuildOptions, "write">): BuildResult {
  return build({ ...options, write: false });
}

/** `wowc build` as a function: checks, then writes `<out>/wow-manifest.json` when it changed. */
export function compile(options: Omit<BuildOptions, "write">): BuildResult {
  return build({ ...options, write: true });
}
