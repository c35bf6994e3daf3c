// The workspace: its folders, the builds in them (one Project per build root) and which build each
// file belongs to, and the debounced runs after edits. A file's build root is the nearest directory
// above it (inside its workspace folder) that holds `wow.config.json`, else one that holds
// `package.json`, else the workspace folder: what a user would pass to `wowc check`.
import { existsSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { Project } from "./project.js";

export const CONFIG_FILE = "wow.config.json";

export interface WorkspaceOptions {
  /** How long edits wait for more edits before a build runs (ms). */
  readonly debounceMs: number;
  /** Called after each run with the paths (relative to the root) that the run was for. */
  readonly onBuilt: (project: Project, changed: ReadonlySet<string>) => void;
  /** A run after the debounce failed (a bug in wowc): said to the client, the server goes on. */
  readonly onError: (error: unknown) => void;
}

export class Workspace {
  private folders: string[] = [];
  private readonly projects = new Map<string, Project>();
  private readonly timers = new Map<Project, ReturnType<typeof setTimeout>>();
  private readonly markers = new Map<string, boolean>();

  constructor(private readonly options: WorkspaceOptions) {}

  setFolders(folders: readonly string[]): void {
    this.folders = folders.map((f) => resolve(f));
  }

  get workspaceFolders(): readonly string[] {
    return this.folders;
  }

  get all(): readonly Project[] {
    return [...this.projects.values()];
  }

  /** The build root of a file (see the top of this file). */
  rootOf(file: string): string {
    const folder = this.folders.filter((f) => isInside(file, f)).sort((a, b) => b.length - a.length)[0];
    const stop = folder ?? dirname(file);
    for (const marker of [CONFIG_FILE, "package.json"]) {
      for (let dir = dirname(file); ; dir = dirname(dir)) {
        if (this.holds(dir, marker)) return dir;
        if (dir === stop || dirname(dir) === dir || !isInside(dir, stop)) break;
      }
    }
    return stop;
  }

  /** The project of a file, made (and compiled) on first use. */
  projectOf(file: string): Project {
    const root = this.rootOf(file);
    let project = this.projects.get(root);
    if (project === undefined) {
      project = new Project(root);
      this.projects.set(root, project);
    }
    return project;
  }

  /** The project whose root is `root`, if made. */
  projectAt(root: string): Project | undefined {
    return this.projects.get(root);
  }

  /** Runs the project after the debounce delay, unless another edit comes first. */
  schedule(project: Project): void {
    const timer = this.timers.get(project);
    if (timer !== undefined) clearTimeout(timer);
    this.timers.set(
      project,
      setTimeout(() => {
        try {
          this.flush(project);
        } catch (error) {
          this.options.onError(error);
        }
      }, this.options.debounceMs),
    );
  }

  /** Runs the project now if anything changed (a request needs the current state). */
  flush(project: Project): void {
    const timer = this.timers.get(project);
    if (timer !== undefined) clearTimeout(timer);
    this.timers.delete(project);
    if (!project.dirty) return;
    const { changed } = project.run();
    this.options.onBuilt(project, changed);
  }

  /** Forgets what it knows of marker files (one was created or deleted). */
  forgetMarkers(): void {
    this.markers.clear();
  }

  dispose(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  private holds(dir: string, marker: string): boolean {
    const key = join(dir, marker);
    let found = this.markers.get(key);
    if (found === undefined) {
      found = existsSync(key);
      this.markers.set(key, found);
    }
    return found;
  }
}

function isInside(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === "" || (!rel.startsWith("..") && !rel.startsWith(sep) && rel !== "..");
}
