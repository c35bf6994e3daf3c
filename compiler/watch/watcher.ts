// `wowc build --watch` as an object: an initial build, then a debounced rebuild whenever a `.wow`
// file or `wow.config.json` changes. One Builder is kept across rebuilds: a rebuild re-reads and
// re-parses only the changed files, re-binds and re-checks only the contexts they reach,
// regenerates only those contexts, writes only changed outputs, survives errors (they are reported, the watch
// goes on), and — as TypeSpec does — drops requests that arrive during a compile, replaying one
// after it. The clock and the file-system watcher are injectable: tests drive them directly.
import { watch as fsWatch } from "node:fs";
import { resolve, sep } from "node:path";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { Builder, type BuildOptions } from "../program/build.js";
import type { PhaseTiming } from "../program/phases.js";

export const CONFIG_FILE = "wow.config.json";

export interface WatchClock {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  now(): number;
}

export const realClock: WatchClock = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  now: () => performance.now(),
};

/** Starts watching `root` recursively; calls `onChange` with paths relative to it. */
export type WatchFiles = (root: string, onChange: (path: string) => void) => { close(): void };

export const watchFiles: WatchFiles = (root, onChange) => {
  const watcher = fsWatch(root, { recursive: true }, (_event, filename) => {
    if (filename !== null) onChange(filename.toString());
  });
  return { close: () => watcher.close() };
};

export interface RebuildReport {
  /** 0 for the initial build. */
  readonly number: number;
  /** The time of the build itself (load → write). */
  readonly ms: number;
  readonly diagnostics: readonly Diagnostic[];
  readonly ok: boolean;
  /** Output files written and removed (relative to the output directory). */
  readonly written: readonly string[];
  readonly removed: readonly string[];
  /** Files parsed by this build (the others were parsed before) and the number of sources. */
  readonly parsed: number;
  /** Contexts checked by this build (the others kept their results). */
  readonly checked: number;
  readonly sources: number;
  /** The changed paths that triggered it (relative to the root). */
  readonly changes: readonly string[];
  /** The build's phases (load, parse, bind, check, manifest, emit, write). */
  readonly timings: readonly PhaseTiming[];
}

export interface WatchOptions extends Pick<BuildOptions, "outDir" | "warnAsError"> {
  readonly root: string;
  /** Quiet time after the last change before rebuilding (default 50 ms). */
  readonly debounceMs?: number;
  readonly clock?: WatchClock;
  readonly watchFiles?: WatchFiles;
  /** Called after every build (initial and rebuilds). */
  readonly onBuild: (report: RebuildReport) => void;
}

export class Watcher {
  private readonly root: string;
  private readonly outDir: string;
  private readonly clock: WatchClock;
  private readonly builder: Builder;
  private readonly changes = new Set<string>();
  private timer: unknown;
  private building = false;
  private replay = false;
  private builds = 0;
  private handle: { close(): void } | undefined;

  constructor(private readonly options: WatchOptions) {
    this.root = resolve(options.root);
    this.outDir = resolve(this.root, options.outDir ?? "generated");
    this.clock = options.clock ?? realClock;
    this.builder = new Builder({
      root: this.root,
      outDir: this.outDir,
      write: true,
      ...(options.warnAsError === undefined ? {} : { warnAsError: options.warnAsError }),
    });
  }

  /** Builds once and starts watching. */
  start(): RebuildReport {
    this.handle = (this.options.watchFiles ?? watchFiles)(this.root, (path) => this.changed(path));
    return this.rebuild();
  }

  close(): void {
    this.handle?.close();
    this.handle = undefined;
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Whether a change of `path` (relative to the root) is one the build depends on. */
  isRelevant(path: string): boolean {
    const normal = path.split(sep).join("/");
    if (normal === CONFIG_FILE) return true;
    if (!normal.endsWith(".wow")) return false;
    const absolute = resolve(this.root, path);
    const inOut = absolute === this.outDir || absolute.startsWith(this.outDir + sep);
    return !inOut && !normal.split("/").some((part) => part === "node_modules" || part.startsWith("."));
  }

  /** A file changed: rebuild after `debounceMs` of quiet (or after the compile in progress). */
  changed(path: string): void {
    if (!this.isRelevant(path)) return;
    this.changes.add(path.split(sep).join("/"));
    if (this.building) {
      this.replay = true;
      return;
    }
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      this.rebuild();
    }, this.options.debounceMs ?? 50);
  }

  private rebuild(): RebuildReport {
    this.building = true;
    const changes = [...this.changes].sort();
    this.changes.clear();
    let report: RebuildReport;
    try {
      const started = this.clock.now();
      // The first build, and any change of the config, reads every source again.
      const first = this.builds === 0 || changes.includes(CONFIG_FILE);
      const result = this.builder.run(first ? undefined : new Set(changes));
      const work = this.builder.lastWork;
      report = {
        number: this.builds++,
        ms: this.clock.now() - started,
        diagnostics: result.diagnostics,
        ok: !result.diagnostics.some((d) => d.severity === "error"),
        written: result.output.changed,
        removed: result.output.removed,
        parsed: work.parsed,
        checked: work.checked,
        sources: result.sourceCount,
        changes,
        timings: result.timings,
      };
    } finally {
      this.building = false;
    }
    this.options.onBuild(report);
    if (this.replay) {
      // Requests that came in during the compile: one rebuild, after it.
      this.replay = false;
      const pending = [...this.changes];
      this.changes.clear();
      for (const path of pending) this.changed(path);
    }
    return report;
  }
}
