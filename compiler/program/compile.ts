// The pipeline on sources in memory: parse → bind → check → manifest. Pure: reads and writes nothing.
import type { SourceFile, WowFile } from "../ast.js";
import { bind } from "../binder/bind.js";
import { check } from "../checker/check.js";
import { Reporter } from "../checker/reporter.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { sortDiagnostics } from "../diagnostics/format.js";
import { buildManifest } from "../manifest/build-manifest.js";
import { canonicalJson } from "../manifest/json.js";
import type { Manifest } from "../manifest/types.js";
import type { ProgramModel } from "../model.js";
import { parseFile, type ParsedFile } from "../parse/parse-file.js";
import { Phases, type PhaseName, type PhaseTiming } from "./phases.js";

export interface CompileOptions {
  /** Called as each phase starts (statistics, tests). */
  readonly onPhase?: (phase: PhaseName) => void;
  /** Build the manifest when there are no errors (default true; `wowc check` does not need it). */
  readonly manifest?: boolean;
  /** Parses one file (default `parseFile`); `wowc build --watch` passes a cache keyed by path and content. */
  readonly parse?: (source: SourceFile) => ParsedFile;
}

export interface CompileResult {
  /** Every diagnostic, sorted by file, offset and code. */
  readonly diagnostics: Diagnostic[];
  readonly files: readonly WowFile[];
  /** The checked program (also when there are errors: what could be checked). */
  readonly model: ProgramModel;
  /** The manifest and its canonical JSON text: only when there are no errors (and it was asked for). */
  readonly manifest?: Manifest;
  readonly manifestText?: string;
  readonly timings: readonly PhaseTiming[];
}

export function compileSources(sources: readonly SourceFile[], options: CompileOptions = {}, phases = new Phases(options.onPhase)): CompileResult {
  const ordered = [...sources].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const reporter = new Reporter();
  const parse = options.parse ?? parseFile;
  const files = phases.run("parse", () =>
    ordered.map((source) => {
      const { ast, diagnostics } = parse(source);
      reporter.diagnostics.push(...diagnostics);
      return ast;
    }),
  );
  const complete = !reporter.diagnostics.some((d) => d.severity === "error");
  const program = phases.run("bind", () => bind(files, reporter));
  const model = phases.run("check", () => check(program, reporter, { complete }));
  const diagnostics = sortDiagnostics(reporter.diagnostics);
  if (options.manifest === false || diagnostics.some((d) => d.severity === "error")) return { diagnostics, files, model, timings: phases.timings };
  return phases.run("manifest", () => {
    const manifest = buildManifest(model);
    return { diagnostics, files, model, manifest, manifestText: canonicalJson(manifest), timings: phases.timings };
  });
}
