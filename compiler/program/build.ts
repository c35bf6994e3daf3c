// A build on disk: find and read the sources under a root, compile them, and (for `wowc build`)
// when there are no errors write `<out>/wow-manifest.json` and the generated SDK, each file only
// when its content changed (`--check`: write nothing, report what is out of date).
import { statSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { createDiagnostic, type Diagnostic } from "../diagnostics/diagnostic.js";
import { sortDiagnostics } from "../diagnostics/format.js";
import { emitClient, emitContextFiles, emitProgramFiles, programFilesKey, sortedFiles, type EmittedFile } from "../emit/emit.js";
import { emitOpenApi } from "../emit/openapi.js";
import { ForeignOutputError, OutputError, OutputMemory, writeOutput, type OutputResult } from "../emit/write-output.js";
import { declarationsOf, type Declarations } from "../manifest/body-schema.js";
import { ManifestSources, SOURCES_FILE_NAME } from "../manifest/positions.js";
import { MANIFEST_FILE_NAME } from "../manifest/types.js";
import type { ContextModel, ProgramModel } from "../model.js";
import type { CompileOptions, CompileResult } from "./compile-types.js";
import { IncrementalProgram, type CompileWork } from "./incremental.js";
import { Phases } from "./phases.js";
import { reasonOf } from "../diagnostics/reason.js";
import { findSources, normalizeSources, readSources, type DecodedSource, type LoadedSources } from "./sources.js";

export interface BuildOptions extends CompileOptions {
  /** The build root: sources are found under it and reported relative to it. */
  readonly root: string;
  /** Output directory (default `<root>/generated`), skipped when looking for sources. */
  readonly outDir?: string;
  /** Write the manifest (`wowc build`) or only check (`wowc check`). */
  readonly write: boolean;
  /**
   * The sources, relative to the root (`./a.wow`, `sub\a.wow` and `sub/a.wow` are the same source,
   * given twice it is read once; a path outside the root is WOW6002); default: every `*.wow` under
   * it. Order does not matter.
   */
  readonly files?: readonly string[];
  /** Report warnings as errors (and then write nothing). */
  readonly warnAsError?: boolean | undefined;
  /** `wowc build --check`: generate, compare with the output directory, write nothing. */
  readonly check?: boolean;
  /**
   * Sources held in memory (an editor's open documents, by path relative to the root): read from
   * here instead of the disk, and sources even when no file holds them yet.
   */
  readonly overlay?: { get(path: string): string | undefined };
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
  return new Builder(options).run();
}

/**
 * Builds of one root, with memory: `wowc build --watch` keeps one Builder and runs it on every
 * change. A run re-reads only the sources it is told changed (and new ones), recompiles through
 * its IncrementalProgram, regenerates only the contexts whose model is new, and writes through its
 * OutputMemory. Its results are those of a build from nothing.
 */
export class Builder {
  private readonly root: string;
  private readonly outDir: string;
  private readonly program = new IncrementalProgram();
  /** The sources read so far, by path: kept until they change (`run(changed)`). */
  private readonly sources = new Map<string, DecodedSource>();
  private readonly emitted = new WeakMap<ContextModel, { readonly files: EmittedFile[]; readonly embeds: readonly ContextModel[] }>();
  private readonly memory = new OutputMemory();
  private paths: Set<string> | undefined;
  /** The directories the last walk could not list (WOW6002): reported on every run until the next walk. */
  private unlisted: Diagnostic[] = [];
  private programFiles: { readonly key: string; readonly files: EmittedFile[] } | undefined;

  /** `options.files`, normalized (and those outside the root, refused). */
  private readonly files: ReturnType<typeof normalizeSources> | undefined;

  constructor(private readonly options: BuildOptions) {
    this.root = resolve(options.root);
    this.outDir = resolve(this.root, options.outDir ?? "generated");
    this.files = options.files === undefined ? undefined : normalizeSources(this.root, options.files);
  }

  /** What the last run's compile had to redo. */
  get lastWork(): CompileWork {
    return this.program.lastWork;
  }

  /**
   * Builds. `changed` lists the sources (relative to the root, `/`-separated) that changed since the
   * last run; without it every source is read again.
   */
  run(changed?: ReadonlySet<string>): BuildResult {
    const { options, root, outDir } = this;
    const phases = new Phases(options.onPhase);
    const manifestPath = join(outDir, MANIFEST_FILE_NAME);
    const loaded = phases.run("load", () => this.load(this.files?.paths ?? this.sourcePaths(changed), changed));
    loaded.diagnostics.push(...(this.files?.problems ?? this.unlisted));
    if (loaded.files.length === 0 && loaded.diagnostics.length === 0) {
      loaded.diagnostics.push(createDiagnostic("WOW6001", { dir: displayPath(root) }));
    }
    const result = this.program.compile(loaded.files, { ...options, manifest: options.manifest ?? options.write }, phases);
    const all = [...loaded.diagnostics, ...withoutDecodingNoise(result.diagnostics, loaded.diagnostics)];
    const diagnostics = sortDiagnostics(options.warnAsError === true ? all.map(asError) : all);
    let output: OutputResult = { changed: [], removed: [] };
    const manifest = result.manifestFile;
    if (options.write && manifest !== undefined && !diagnostics.some((d) => d.severity === "error")) {
      const files = phases.run("emit", () => {
        // One per build: each command's body schema is made once for openapi.json and the registrations.
        const declarations = declarationsOf(result.model);
        return sortedFiles([manifest, sourcesFile(result.sources, root, outDir), emitOpenApi(result.model, declarations), emitClient(result.model), ...this.emitProgram(result.model), ...this.emitContexts(result.model, declarations)]);
      });
      phases.run("write", () => {
        try {
          output = writeOutput(outDir, files, { check: options.check === true, memory: this.memory });
        } catch (error) {
          diagnostics.push(writeFailure(error, outDir));
        }
      });
    }
    const wrote = options.check !== true && output.changed.includes(MANIFEST_FILE_NAME);
    return { ...result, diagnostics, manifestPath, wrote, output, sourceCount: loaded.files.length, timings: phases.timings };
  }

  /**
   * The sources under the root: found by a walk on the first run (or without `changed`), then kept
   * up to date from the changed paths (a changed `.wow` path that is a file now is a source).
   */
  private sourcePaths(changed: ReadonlySet<string> | undefined): string[] {
    if (changed === undefined || this.paths === undefined) {
      this.unlisted = [];
      this.paths = new Set(findSources(this.root, this.outDir, this.unlisted));
    } else {
      for (const path of changed) {
        const held = this.options.overlay?.get(path) !== undefined;
        if (path.endsWith(".wow") && (held || statSync(join(this.root, path), { throwIfNoEntry: false })?.isFile() === true)) this.paths.add(path);
        else this.paths.delete(path);
      }
    }
    return [...this.paths];
  }

  /** Reads the sources, reusing the text of those not in `changed` (all are read without it). */
  private load(paths: readonly string[], changed: ReadonlySet<string> | undefined): LoadedSources {
    const wanted = new Set(paths);
    for (const path of this.sources.keys()) {
      if (changed === undefined || changed.has(path) || !wanted.has(path)) this.sources.delete(path);
    }
    const overlay = this.options.overlay;
    const unread: string[] = [];
    for (const path of paths) {
      if (this.sources.has(path)) continue;
      const text = overlay?.get(path);
      if (text === undefined) unread.push(path);
      else this.sources.set(path, { file: { path, text } });
    }
    const read = readSources(this.root, unread);
    for (const source of read.decoded) this.sources.set(source.file.path, source);
    const kept = [...wanted].sort().flatMap((path) => this.sources.get(path) ?? []);
    // A kept source's WOW6004 is reported on every run, as its file's syntax errors are.
    return { files: kept.map((s) => s.file), diagnostics: [...read.unreadable, ...kept.flatMap((s) => s.invalid ?? [])] };
  }

  private emitProgram(model: ProgramModel): EmittedFile[] {
    const key = programFilesKey(model);
    if (this.programFiles?.key !== key) this.programFiles = { key, files: emitProgramFiles(model) };
    return this.programFiles.files;
  }

  /**
   * Each context's files, kept with its model while the models of the contexts whose declarations
   * its body schemas copy are the same (a context checked again has a new model).
   */
  private emitContexts(model: ProgramModel, declarations: Declarations): EmittedFile[] {
    const byName = new Map(model.contexts.map((context) => [context.name, context]));
    return model.contexts.flatMap((context) => {
      const kept = this.emitted.get(context);
      if (kept !== undefined && kept.embeds.every((embedded) => byName.get(embedded.name) === embedded)) return kept.files;
      const { files, embeds } = emitContextFiles(context, declarations);
      this.emitted.set(context, { files, embeds: [...embeds].flatMap((name) => byName.get(name) ?? []) });
      return files;
    });
  }
}

/**
 * `wow-manifest.sources.json`: where the manifest's elements are declared, and the build root they
 * are relative to (from the output directory, so a manifest built with `--out` elsewhere still
 * leads to its sources).
 */
function sourcesFile(sources: ManifestSources | undefined, root: string, outDir: string): EmittedFile {
  return { path: SOURCES_FILE_NAME, text: (sources ?? new ManifestSources([])).fileText(relative(outDir, root).split(sep).join("/") || ".") };
}

/**
 * In a file that is not UTF-8 (WOW6004), the lexer's "unexpected character" at a U+FFFD is the
 * decoder's replacement of bytes that WOW6004 explains, and its hint ("remove it") would mislead.
 */
function withoutDecodingNoise(diagnostics: readonly Diagnostic[], loaded: readonly Diagnostic[]): Diagnostic[] {
  const undecodable = new Set(loaded.flatMap((d) => (d.code === "WOW6004" && d.loc !== undefined ? [d.loc.file.path] : [])));
  if (undecodable.size === 0) return [...diagnostics];
  return diagnostics.filter((d) => !(d.code === "WOW1001" && d.loc !== undefined && undecodable.has(d.loc.file.path) && d.loc.file.text[d.loc.start] === "\uFFFD"));
}

/** The diagnostic of a failed write: the file that failed (WOW6003), or an output directory wowc does not own (WOW6005). */
function writeFailure(error: unknown, outDir: string): Diagnostic {
  if (error instanceof ForeignOutputError) return createDiagnostic("WOW6005", { dir: displayPath(error.dir), file: error.example });
  if (error instanceof OutputError) return createDiagnostic("WOW6003", { path: displayPath(error.path), reason: reasonOf(error.reason) });
  return createDiagnostic("WOW6003", { path: displayPath(outDir), reason: reasonOf(error) });
}

function asError(diagnostic: Diagnostic): Diagnostic {
  return diagnostic.severity === "error" ? diagnostic : { ...diagnostic, severity: "error" };
}

/** A path as the user would type it: relative to the working directory when inside it. */
export function displayPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel === "" ? "." : rel.startsWith("..") ? path : rel.split(sep).join("/");
}
