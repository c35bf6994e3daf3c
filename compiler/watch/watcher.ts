// `wowc build --watch` as an object: an initial build, then a debounced rebuild whenever a `.wow`
// file or `wow.config.json` changes. One Builder is kept across rebuilds: a rebuild re-reads and
// re-parses only the changed files, re-binds and re-checks only the contexts they reach,
// regenerates only those contexts, writes only changed outputs, survives errors (they are reported, the watch
// goes on). A build is synchronous, so no event is handled during one: Node delivers the events of
// saves made meanwhile after it, and they debounce into one rebuild like any others (what TypeSpec's
// async watch gets by dropping requests during a compile and replaying one). Sources are stamped
// before the Builder reads them, so a file saved during a build differs at that next look. The clock
// and the file-system watcher are injectable: tests drive them directly.
//
// File-system events are hints, not facts: editors save through a temp file and a rename, shells
// move whole directories, and an event may name the temp file, the directory, or nothing useful.
// So every event makes the watcher look again, when the debounce fires, at what it can reach: the
// `.wow` files of the event's directory and, when the event names something else than a `.wow`
// file, everything under that path. Each is compared (existence, mtime, size, inode) with what it
// was when last given to the Builder; the ones that differ are the rebuild's changes.
import { lstatSync, readdirSync, statSync, watch as fsWatch, type FSWatcher } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { Builder, type BuildOptions } from "../program/build.js";
import type { PhaseTiming } from "../program/phases.js";
import { findSources, realPathOf, sortedEntries } from "../program/sources.js";

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

export interface WatchFilesOptions {
  /** Directories (absolute) not to watch: the output directory. */
  readonly skip?: string;
}

/** Starts watching `root` recursively; calls `onChange` with paths relative to it. */
export type WatchFiles = (root: string, onChange: (path: string) => void, options?: WatchFilesOptions) => { close(): void };

/** Directories a build never takes sources from (as `findSources`): `node_modules` and hidden ones. */
function skippedName(name: string): boolean {
  return name === "node_modules" || name.startsWith(".");
}

/**
 * macOS and Windows watch a tree natively. Elsewhere (Linux) Node 20's `recursive` option is a
 * JavaScript emulation that loses a file once it has been replaced by a rename (an editor's atomic
 * save): no later change of it is reported. There a watcher is kept per directory instead: a
 * directory's watch reports its entries by name whatever file is behind the name now.
 */
export const watchFiles: WatchFiles = (root, onChange, options) => {
  if (process.platform === "darwin" || process.platform === "win32") {
    const watcher = fsWatch(root, { recursive: true }, (_event, filename) => {
      // No name: something changed in the tree; the root's rescan finds it.
      onChange(filename === null ? "" : filename.toString());
    });
    return { close: () => watcher.close() };
  }
  return watchTree(root, onChange, options?.skip === undefined ? undefined : resolve(options.skip));
};

/**
 * One non-recursive watch per directory under `root` (not `node_modules`, hidden ones or `skip`).
 * Symbolic links are followed as `findSources` follows them: a linked directory is watched (once,
 * by its real path: a link cycle is not walked round), and a linked `.wow` file gets a watch of its
 * own, since its directory's watch sees the link change, not the file behind it.
 */
export function watchTree(root: string, onChange: (path: string) => void, skip?: string): { close(): void } {
  const top = resolve(root);
  const watchers = new Map<string, { readonly watcher: FSWatcher; readonly real: string }>(); // by watched path
  const reals = new Set<string>(); // the real paths watched (each once)
  // The output directory by its real path (it may be made by the first build, or reached by a link).
  const isSkipped = (real: string) => skip !== undefined && real === (realPathOf(skip) ?? resolve(skip));
  let closed = false;
  const isDirectory = (path: string) => statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
  const isLink = (path: string) => lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink() === true;
  const unwatch = (path: string): void => {
    for (const [dir, { watcher, real }] of watchers) {
      if (dir !== path && !dir.startsWith(path + sep)) continue;
      watcher.close();
      watchers.delete(dir);
      reals.delete(real);
    }
  };
  const watchOnce = (path: string, listener: (name: string | undefined) => void): boolean => {
    if (closed || watchers.has(path)) return false;
    const real = realPathOf(path);
    if (real === undefined || (path !== top && isSkipped(real)) || reals.has(real)) return false;
    let watcher: FSWatcher;
    try {
      watcher = fsWatch(path, (_event, name) => listener(name === null ? undefined : name.toString()));
    } catch {
      return false; // gone already: its parent's event says so
    }
    watcher.on("error", () => unwatch(path));
    watchers.set(path, { watcher, real });
    reals.add(real);
    return true;
  };
  /** A linked `.wow` file: reported by its own watch under its name in the tree. */
  const addLinkedFile = (path: string): void => {
    watchOnce(path, () => {
      if (!closed) onChange(relative(top, path));
    });
  };
  const add = (dir: string): void => {
    if (!watchOnce(dir, (name) => event(dir, name))) return;
    let entries;
    try {
      // In findSources' order, so that a directory reached twice is watched under the name it is built from.
      entries = sortedEntries(dir);
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (skippedName(entry.name)) continue;
      if (entry.isDirectory()) add(path);
      else if (entry.isSymbolicLink()) followLink(path);
    }
  };
  const followLink = (path: string): void => {
    if (isDirectory(path)) add(path);
    else if (path.endsWith(".wow")) addLinkedFile(path);
  };
  const event = (dir: string, name: string | undefined): void => {
    if (closed) return;
    const path = name === undefined ? dir : join(dir, name);
    if (name !== undefined && !skippedName(name)) {
      // An entry appeared, went or was replaced: if it is (or was) a directory, watch what is there
      // now. A directory moved away keeps its watch on Linux, reporting under its old name: closed.
      if (watchers.has(path)) unwatch(path);
      if (isLink(path)) followLink(path);
      else if (isDirectory(path)) add(path);
    }
    onChange(relative(top, path));
  };
  add(top);
  return {
    close: () => {
      closed = true;
      for (const { watcher } of watchers.values()) watcher.close();
      watchers.clear();
      reals.clear();
    },
  };
}

/** What a source file was when given to the Builder: undefined when it was not a file. */
function fileStamp(path: string): string | undefined {
  const stat = statSync(path, { throwIfNoEntry: false });
  return stat?.isFile() === true ? `${stat.mtimeMs}:${stat.size}:${stat.ino}` : undefined;
}

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
  /** The paths events named since the last build (relative to the root, `/`-separated; "" is the root). */
  private readonly events = new Set<string>();
  /** The Builder's sources, each with its fileStamp when last given to the Builder. */
  private readonly known = new Map<string, string>();
  private timer: unknown;
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
      warnAsError: options.warnAsError,
    });
  }

  /** Builds once and starts watching. */
  start(): RebuildReport {
    this.handle = (this.options.watchFiles ?? watchFiles)(this.root, (path) => this.changed(path), { skip: this.outDir });
    return this.rebuild([], true);
  }

  close(): void {
    this.handle?.close();
    this.handle = undefined;
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  /**
   * Whether an event on `path` (relative to the root) can concern the build: not in the output
   * directory, nor under `node_modules` or a hidden directory. Any other name counts — a temp file
   * or a directory tells that something near it changed.
   */
  isRelevant(path: string): boolean {
    const normal = path.split(sep).join("/");
    const absolute = resolve(this.root, path);
    if (absolute === this.outDir || absolute.startsWith(this.outDir + sep)) return false;
    if (normal === ".." || normal.startsWith("../")) return false;
    return !normal.split("/").slice(0, -1).some(skippedName);
  }

  /** Something changed at `path`: look again after `debounceMs` of quiet. */
  changed(path: string): void {
    if (!this.isRelevant(path)) return;
    this.events.add(path.split(sep).join("/"));
    this.schedule();
  }

  private schedule(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, this.options.debounceMs ?? 50);
  }

  /** Turns the events into changes of sources and rebuilds when there is one (or the config changed). */
  private flush(): void {
    const events = [...this.events];
    this.events.clear();
    const config = events.includes(CONFIG_FILE);
    const changes = this.differences(events);
    if (config) changes.push(CONFIG_FILE);
    if (changes.length > 0) this.rebuild(changes.sort(), config);
  }

  /**
   * The sources that changed, as far as `events` lead: a `.wow` file an event names (when it is a
   * file or was a source); then each event's directory, for its `.wow` files, and each event's path,
   * for everything under it — files there compared with their stamps, sources gone included.
   */
  private differences(events: readonly string[]): string[] {
    const changed = new Set<string>();
    const dirs = new Set<string>();
    const trees = new Set<string>();
    for (const path of events) {
      if (path.endsWith(".wow") && (this.known.has(path) || fileStamp(this.absolute(path)) !== undefined)) changed.add(path);
      dirs.add(parentOf(path));
      if (!skippedName(path.slice(path.lastIndexOf("/") + 1))) trees.add(path);
    }
    const inTree = (path: string): boolean => {
      for (let at = path; ; at = parentOf(at)) {
        if (trees.has(at)) return true;
        if (at === "") return false;
      }
    };
    const candidates = new Set<string>();
    for (const path of this.known.keys()) if (dirs.has(parentOf(path)) || inTree(path)) candidates.add(path);
    for (const dir of dirs) {
      try {
        for (const entry of readdirSync(this.absolute(dir), { withFileTypes: true })) {
          if (entry.isFile() && entry.name.endsWith(".wow")) candidates.add(dir === "" ? entry.name : `${dir}/${entry.name}`);
        }
      } catch {
        // gone: its known sources are candidates already
      }
    }
    for (const tree of trees) {
      const absolute = this.absolute(tree);
      if (statSync(absolute, { throwIfNoEntry: false })?.isDirectory() !== true) continue;
      try {
        for (const path of findSources(absolute, this.outDir)) candidates.add(tree === "" ? path : `${tree}/${path}`);
      } catch {
        // changed while read: the events of that change bring a new look
      }
    }
    for (const path of candidates) if (fileStamp(this.absolute(path)) !== this.known.get(path)) changed.add(path);
    return [...changed];
  }

  private absolute(path: string): string {
    return join(this.root, path);
  }

  private rebuild(changes: readonly string[], full: boolean): RebuildReport {
    const started = this.clock.now();
    // The first build, and any change of the config, reads every source again. Sources are stamped
    // before the Builder reads them: a file written in between differs at the next look.
    full ||= this.builds === 0;
    if (full) {
      this.known.clear();
      for (const path of findSources(this.root, this.outDir)) this.stamp(path);
    } else {
      for (const path of changes) this.stamp(path);
    }
    const result = this.builder.run(full ? undefined : new Set(changes));
    const work = this.builder.lastWork;
    const report: RebuildReport = {
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
    this.options.onBuild(report);
    return report;
  }

  /** Records a source as the Builder takes it: a `.wow` path that is a file now (else not a source). */
  private stamp(path: string): void {
    const stamp = path.endsWith(".wow") ? fileStamp(this.absolute(path)) : undefined;
    if (stamp === undefined) this.known.delete(path);
    else this.known.set(path, stamp);
  }
}

/** `src/a` of `src/a/one.wow`; "" (the root) of `one.wow`. */
function parentOf(path: string): string {
  const at = path.lastIndexOf("/");
  return at < 0 ? "" : path.slice(0, at);
}
