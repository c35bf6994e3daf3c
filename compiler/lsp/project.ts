// One build of the workspace: the `.wow` files under a root, compiled as `wowc check <root>` compiles
// them (the same Builder, so the same diagnostics), with the editor's open documents read from memory
// instead of the disk. It keeps the incremental program between runs: a run after an edit re-parses
// the edited files and re-checks only the contexts they reach.
import { join, relative, sep } from "node:path";
import { pathToFileURL } from "node:url";
import type { WowFile } from "../ast.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { ProgramModel } from "../model.js";
import { Builder, type BuildResult } from "../program/build.js";
import { NameIndex } from "./name-index.js";

export class Project {
  /** Open documents' texts, by path relative to the root. */
  private readonly overlay = new Map<string, string>();
  /** Their URIs as the client spelled them: published diagnostics must name the document it opened. */
  private readonly uris = new Map<string, string>();
  private readonly builder: Builder;
  /** Paths (relative) changed since the last run. */
  private readonly pending = new Set<string>();
  private current: BuildResult | undefined;
  private index: NameIndex | undefined;
  private files: Map<string, WowFile> | undefined;
  private good: ProgramModel | undefined;

  constructor(readonly root: string) {
    this.builder = new Builder({ root, write: false, references: true, overlay: this.overlay });
  }

  /** `path` relative to the root, `/`-separated (as the compiler names files). */
  relativePath(absolute: string): string {
    return relative(this.root, absolute).split(sep).join("/");
  }

  absolutePath(path: string): string {
    return join(this.root, ...path.split("/"));
  }

  uriOf(path: string): string {
    return this.uris.get(path) ?? pathToFileURL(this.absolutePath(path)).href;
  }

  /** An open document's text (undefined: read from the disk). */
  setText(path: string, uri: string, text: string | undefined): void {
    if (text === undefined) {
      this.overlay.delete(path);
      this.uris.delete(path);
    } else {
      this.overlay.set(path, text);
      this.uris.set(path, uri);
    }
    this.pending.add(path);
  }

  /** A file changed on disk (created, changed or deleted). */
  touch(path: string): void {
    this.pending.add(path);
  }

  get dirty(): boolean {
    return this.current === undefined || this.pending.size > 0;
  }

  /** Compiles what changed since the last run (everything, the first time); returns the paths that changed. */
  run(): { result: BuildResult; changed: ReadonlySet<string> } {
    const changed = new Set(this.pending);
    this.pending.clear();
    let result: BuildResult;
    if (this.current === undefined) {
      result = this.builder.run();
      // Open documents that no file holds yet are sources too.
      const seen = new Set(result.files.map((f) => f.file.path));
      const unsaved = [...this.overlay.keys()].filter((path) => !seen.has(path));
      if (unsaved.length > 0) result = this.builder.run(new Set(unsaved));
    } else {
      result = this.builder.run(changed);
    }
    this.current = result;
    this.index = undefined;
    this.files = undefined;
    if (!result.diagnostics.some((d) => d.severity === "error")) this.good = result.model;
    return { result, changed };
  }

  /** The last run's result (run first when nothing was compiled yet or something changed). */
  get result(): BuildResult {
    if (this.dirty) this.run();
    return this.current!;
  }

  /** The last result, whatever changed since (completion reads names from it while edits wait). */
  get last(): BuildResult | undefined {
    return this.current;
  }

  get names(): NameIndex {
    const result = this.result;
    return (this.index ??= new NameIndex(result));
  }

  /** The model of the last run without errors (wow.config.json is checked against it). */
  get lastGoodModel(): ProgramModel | undefined {
    return this.good;
  }

  /** The diagnostics of the last run, by path relative to the root. */
  diagnosticsByFile(): Map<string, Diagnostic[]> {
    const byFile = new Map<string, Diagnostic[]>();
    for (const file of this.result.files) byFile.set(file.file.path, []);
    for (const d of this.result.diagnostics) {
      const path = d.loc?.file.path ?? d.path;
      if (path === undefined) continue;
      const list = byFile.get(path);
      if (list === undefined) byFile.set(path, [d]);
      else list.push(d);
    }
    return byFile;
  }

  /** A source's parsed file in the last run (run first when something changed). */
  file(path: string): WowFile | undefined {
    const result = this.result;
    this.files ??= new Map(result.files.map((f) => [f.file.path, f]));
    return this.files.get(path);
  }

  isOpen(path: string): boolean {
    return this.overlay.has(path);
  }
}
