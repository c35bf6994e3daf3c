// The pipeline with memory: parse → bind → check → manifest, redoing only what a change reaches.
// A one-shot build runs it once on an empty memory; `wowc build --watch` keeps one and feeds it
// every rebuild, so that one edited file costs one parse, one context's bind and check (plus the
// contexts that read that one), and one context's manifest fragment.
//  - parse: a file is re-parsed only when its text changed;
//  - bind: a context is re-bound only when its list of files (or one of them) changed;
//  - check: a context is re-checked when it was re-bound, or when a context it depends on (it
//    resolved a name there; "all" when a suggestion searched every context) was added, removed or
//    re-bound with another signature (what other contexts see of it: scopeSignature), or when the
//    program went from having syntax errors to none or back;
//  - completeness (every command handled, every event produced) is redone for re-checked contexts
//    and for the owners of events whose "produced somewhere" answer changed;
//  - manifest: each context's fragment and its canonical text are kept with its model.
import type { SourceFile, WowFile } from "../ast.js";
import { bindContext, groupByContext } from "../binder/bind.js";
import { checkContextSdkNames } from "../binder/sdk-names.js";
import { scopeSignature } from "../binder/signature.js";
import type { BoundProgram, ContextScope } from "../binder/symbols.js";
import { checkAcrossContexts, checkContext, sortedModels, type ContextCheck } from "../checker/check.js";
import { checkCompleteness } from "../checker/completeness.js";
import type { ResolvedReference } from "../checker/resolve.js";
import { ScheduleVerdicts } from "../checker/schedule-verdicts.js";
import { Reporter } from "../diagnostics/reporter.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { sortDiagnostics } from "../diagnostics/format.js";
import { manifestContext, manifestOf } from "../manifest/build-manifest.js";
import { canonicalJson, orderedJsonNested } from "../manifest/json.js";
import { ManifestSources, PositionList } from "../manifest/positions.js";
import { MANIFEST_FILE_NAME, type Manifest, type ManifestContext } from "../manifest/types.js";
import type { ChunkedFile } from "../emit/emit.js";
import type { ContextModel } from "../model.js";
import { parseFile, type ParsedFile } from "../parse/parse-file.js";
import type { CompileOptions, CompileResult } from "./compile-types.js";
import { Phases } from "./phases.js";

interface ParsedEntry {
  readonly text: string;
  readonly parsed: ParsedFile;
}

interface CheckedContext {
  readonly result: ContextCheck;
  readonly diagnostics: readonly Diagnostic[];
}

interface ContextState {
  readonly files: readonly WowFile[];
  readonly scope: ContextScope;
  /** What other contexts can see of it (scopeSignature): made when a rebind compares it, not before (`signatureOf`). */
  signature?: string;
  readonly bindDiagnostics: readonly Diagnostic[];
  checked?: CheckedContext;
  completeness?: readonly Diagnostic[] | undefined;
}

function signatureOf(state: ContextState): string {
  return (state.signature ??= scopeSignature(state.scope));
}

interface ManifestPart {
  readonly fragment: ManifestContext;
  /** Where its elements are declared (the manifest's positions, which the manifest does not hold). */
  readonly positions: PositionList;
  /** Its `"name": {…}` entry in the manifest's `contexts`, as canonical JSON prints it there (UTF-8). */
  readonly bytes: Uint8Array;
}

const CONTEXTS_KEY = `"contexts": `;
const EMPTY_CONTEXTS = `${CONTEXTS_KEY}{}`;
const OPEN = Buffer.from("{\n");
const SEPARATOR = Buffer.from(",\n");
const CLOSE = Buffer.from("\n  }");

/** What the last compile did, for `--watch` reports and tests. */
export interface CompileWork {
  readonly parsed: number;
  readonly bound: number;
  readonly checked: number;
}

export class IncrementalProgram {
  private readonly parsed = new Map<string, ParsedEntry>();
  private contexts = new Map<string, ContextState>();
  /** Contexts whose names the SDK would give twice (WOW3023): across contexts, redone each compile. */
  private contextNameDiagnostics: readonly Diagnostic[] = [];
  /** Jobs whose environment variables would meet (WOW4009): across contexts, redone each compile. */
  private jobVariableDiagnostics: readonly Diagnostic[] = [];
  private complete: boolean | undefined;
  private recording = false;
  /** Each event named by some `produces`, with how many contexts name it; and what each context names. */
  private readonly producedCounts = new Map<string, number>();
  private readonly producedBy = new Map<string, ReadonlySet<string>>();
  private readonly manifestParts = new WeakMap<ContextModel, ManifestPart>();
  private work: CompileWork = { parsed: 0, bound: 0, checked: 0 };

  /** What the last `compile` had to redo. */
  get lastWork(): CompileWork {
    return this.work;
  }

  compile(sources: readonly SourceFile[], options: CompileOptions = {}, phases = new Phases(options.onPhase)): CompileResult {
    const ordered = [...sources].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    const parse = options.parse ?? parseFile;
    const work = { parsed: 0, bound: 0, checked: 0 };
    const parsedFiles = phases.run("parse", () => this.parse(ordered, parse, work));
    const files = parsedFiles.map((p) => p.ast);
    const complete = !parsedFiles.some((p) => p.diagnostics.some((d) => d.severity === "error"));
    const { program, rebound, reshaped } = phases.run("bind", () => this.bind(files, work));
    const references = options.references === true;
    const models = phases.run("check", () => this.check(program, rebound, reshaped, complete, references, work));
    this.work = work;
    // Across contexts (a job's key, a subscription's name depend on the other contexts), so redone on every compile.
    const model = { contexts: models };
    const jobReporter = new Reporter();
    checkAcrossContexts(model, jobReporter);
    this.jobVariableDiagnostics = jobReporter.diagnostics;

    const diagnostics = sortDiagnostics(this.diagnostics(parsedFiles));
    const index = { scopes: program.contexts, ...(references ? { references: this.references() } : {}) };
    if (options.manifest === false || diagnostics.some((d) => d.severity === "error")) return { diagnostics, files, model, timings: phases.timings, ...index };
    return phases.run("manifest", () => {
      const { manifest, manifestFile, sources } = this.manifest(models);
      return { diagnostics, files, model, manifest, manifestFile, sources, timings: phases.timings, ...index };
    });
  }

  private parse(ordered: readonly SourceFile[], parse: (source: SourceFile) => ParsedFile, work: { parsed: number }): ParsedFile[] {
    const seen = new Set<string>();
    const out = ordered.map((source) => {
      seen.add(source.path);
      const entry = this.parsed.get(source.path);
      if (entry !== undefined && entry.text === source.text) return entry.parsed;
      const parsed = parse(source);
      this.parsed.set(source.path, { text: source.text, parsed });
      work.parsed++;
      return parsed;
    });
    for (const path of this.parsed.keys()) if (!seen.has(path)) this.parsed.delete(path);
    return out;
  }

  /**
   * Binds the contexts whose files changed (`rebound`); `reshaped` holds those of them whose
   * signature changed, the new ones and the removed ones: what the contexts that reference them see.
   */
  private bind(files: readonly WowFile[], work: { bound: number }): { program: BoundProgram; rebound: ReadonlySet<string>; reshaped: ReadonlySet<string> } {
    const next = new Map<string, ContextState>();
    const rebound = new Set<string>();
    const reshaped = new Set<string>();
    for (const [name, group] of groupByContext(files)) {
      const previous = this.contexts.get(name);
      if (previous !== undefined && sameFiles(previous.files, group)) {
        next.set(name, previous);
        continue;
      }
      const reporter = new Reporter();
      const scope = bindContext(name, group, reporter);
      const state: ContextState = { files: group, scope, bindDiagnostics: reporter.diagnostics };
      next.set(name, state);
      rebound.add(name);
      // A one-shot compile has no previous state: it makes no signature at all.
      if (previous === undefined || signatureOf(previous) !== signatureOf(state)) reshaped.add(name);
      work.bound++;
    }
    for (const name of this.contexts.keys()) if (!next.has(name)) reshaped.add(name);
    this.contexts = next;
    // Across contexts, so redone on every compile (one name per context).
    const reporter = new Reporter();
    checkContextSdkNames([...next.values()].map((state) => state.scope), reporter);
    this.contextNameDiagnostics = reporter.diagnostics;
    const contexts = new Map<string, ContextScope>();
    for (const [name, state] of next) contexts.set(name, state.scope);
    return { program: { contexts }, rebound, reshaped };
  }

  private check(program: BoundProgram, rebound: ReadonlySet<string>, reshaped: ReadonlySet<string>, complete: boolean, references: boolean, work: { checked: number }): ContextModel[] {
    // A program that starts recording references checks everything once: the kept results have none.
    const everything = complete !== this.complete || references !== this.recording;
    this.complete = complete;
    this.recording = references;
    const rechecked = new Set<string>();
    const verdicts = new ScheduleVerdicts();
    for (const [name, state] of this.contexts) {
      if (!everything && state.checked !== undefined && !rebound.has(name) && !reaches(state.checked.result.dependencies, reshaped)) continue;
      const reporter = new Reporter();
      state.checked = { result: checkContext(state.scope, program, reporter, { complete, verdicts, references }), diagnostics: reporter.diagnostics };
      rechecked.add(name);
      work.checked++;
    }
    const owners = this.updateProduced(rechecked);
    for (const [name, state] of this.contexts) {
      if (!complete) {
        state.completeness = undefined;
        continue;
      }
      if (state.completeness !== undefined && !rechecked.has(name) && !owners.has(name)) continue;
      const reporter = new Reporter();
      checkCompleteness(state.scope, state.checked!.result.handled, this.producedCounts, reporter);
      state.completeness = reporter.diagnostics;
    }
    return sortedModels([...this.contexts.values()].map((state) => state.checked!.result.model));
  }

  /** The references each context's check recorded, by context. */
  private references(): Map<string, readonly ResolvedReference[]> {
    const out = new Map<string, readonly ResolvedReference[]>();
    for (const [name, state] of this.contexts) out.set(name, state.checked?.result.references ?? []);
    return out;
  }

  /**
   * Brings the count of `produces` naming each event up to date with the re-checked and removed
   * contexts; returns the contexts owning an event whose count went from zero or to zero.
   */
  private updateProduced(rechecked: ReadonlySet<string>): Set<string> {
    const owners = new Set<string>();
    const add = (events: ReadonlySet<string>, delta: 1 | -1): void => {
      for (const event of events) {
        const before = this.producedCounts.get(event) ?? 0;
        const after = before + delta;
        if (after === 0) this.producedCounts.delete(event);
        else this.producedCounts.set(event, after);
        if (before === 0 || after === 0) owners.add(contextOf(event));
      }
    };
    for (const [name, events] of this.producedBy) {
      if (this.contexts.has(name) && !rechecked.has(name)) continue;
      add(events, -1);
      this.producedBy.delete(name);
    }
    for (const name of rechecked) {
      const events = this.contexts.get(name)!.checked!.result.produced;
      add(events, 1);
      this.producedBy.set(name, events);
    }
    return owners;
  }

  private diagnostics(parsedFiles: readonly ParsedFile[]): Diagnostic[] {
    const all: Diagnostic[] = [];
    for (const parsed of parsedFiles) all.push(...parsed.diagnostics);
    all.push(...this.contextNameDiagnostics, ...this.jobVariableDiagnostics);
    for (const state of this.contexts.values()) {
      all.push(...state.bindDiagnostics, ...state.checked!.diagnostics);
      if (state.completeness !== undefined) all.push(...state.completeness);
    }
    return all;
  }

  /**
   * The manifest and its file: the canonical JSON of the shell around `contexts`, with each
   * context's entry (printed and encoded once per model) spliced in where the empty `{}` stands.
   */
  private manifest(models: readonly ContextModel[]): { manifest: Manifest; manifestFile: ChunkedFile; sources: ManifestSources } {
    const parts = models.map((model) => {
      let part = this.manifestParts.get(model);
      if (part === undefined) {
        const positions = new PositionList();
        const fragment = manifestContext(model, positions);
        part = { fragment, positions, bytes: Buffer.from(`    ${JSON.stringify(fragment.name)}: ${orderedJsonNested(fragment, 2)}`) };
        this.manifestParts.set(model, part);
      }
      return part;
    });
    const manifest = manifestOf(parts.map((p) => p.fragment));
    // The shell's `"contexts": {}` is cut after its key: the entries go between the two halves.
    const shell = canonicalJson({ ...manifest, contexts: {} });
    const cut = shell.indexOf(EMPTY_CONTEXTS) + CONTEXTS_KEY.length;
    const chunks: Uint8Array[] = [Buffer.from(shell.slice(0, cut))];
    if (parts.length === 0) chunks.push(Buffer.from("{}"));
    else {
      chunks.push(OPEN);
      for (let i = 0; i < parts.length; i++) {
        if (i > 0) chunks.push(SEPARATOR);
        chunks.push(parts[i]!.bytes);
      }
      chunks.push(CLOSE);
    }
    chunks.push(Buffer.from(shell.slice(cut + "{}".length)));
    return { manifest, manifestFile: { path: MANIFEST_FILE_NAME, chunks }, sources: new ManifestSources(parts.map((p) => p.positions)) };
  }
}

function sameFiles(a: readonly WowFile[], b: readonly WowFile[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function reaches(dependencies: ReadonlySet<string> | "all", changed: ReadonlySet<string>): boolean {
  if (changed.size === 0) return false;
  if (dependencies === "all") return true;
  for (const name of changed) if (dependencies.has(name)) return true;
  return false;
}

/** `ctx-1` of `ctx-1.OrderCreated` (declared names have no dot). */
function contextOf(qualifiedName: string): string {
  return qualifiedName.slice(0, qualifiedName.lastIndexOf("."));
}
