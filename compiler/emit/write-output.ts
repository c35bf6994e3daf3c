// Quiet writes: every generated file (the manifest too) is written only when its content changed;
// files wowc generated before and no longer produces are deleted — only inside the output
// directory, only those listed in its record `<out>/.wowc-files`. In check mode nothing is
// written: the result lists what is out of date.
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import type { EmittedFile } from "./emit.js";

/** The record of the files wowc generated into an output directory, one relative path a line. */
export const GENERATED_LIST_FILE = ".wowc-files";

export interface OutputResult {
  /** Paths (relative to the output directory) written, or in check mode out of date (missing or different). */
  readonly changed: readonly string[];
  /** Stale generated paths deleted, or in check mode that would be. */
  readonly removed: readonly string[];
}

/** Writes `text` to `path` unless the file already holds exactly it; true when it wrote. */
export function writeIfChanged(path: string, text: string): boolean {
  return new Writer(true).write(path, text);
}

/**
 * Quiet writes for one output directory: a file whose size differs is not read; a directory is
 * created once; when the output directory did not exist (a cold build) nothing is compared.
 */
class Writer {
  private readonly directories = new Set<string>();

  constructor(private readonly compare: boolean) {}

  write(path: string, text: string): boolean {
    if (this.compare && holds(path, text)) return false;
    const dir = dirname(path);
    if (!this.directories.has(dir)) {
      mkdirSync(dir, { recursive: true });
      this.directories.add(dir);
    }
    writeFileSync(path, text);
    return true;
  }
}

/** True when the file at `path` holds exactly `text`: sizes first, then bytes. */
function holds(path: string, text: string): boolean {
  const size = statSync(path, { throwIfNoEntry: false })?.size;
  if (size !== Buffer.byteLength(text)) return false;
  return readIfExists(path) === text;
}

export function writeOutput(outDir: string, files: readonly EmittedFile[], options: { readonly check?: boolean } = {}): OutputResult {
  const root = resolve(outDir);
  const listed = [...files.map((f) => f.path)].sort();
  const record: EmittedFile = { path: GENERATED_LIST_FILE, text: `${listed.join("\n")}\n` };
  const previous = previousList(root);
  const writer = new Writer(existsSync(root));
  const changed: string[] = [];
  for (const file of [...files, record]) {
    const path = inside(root, file.path);
    const differs = options.check === true ? !holds(path, file.text) : writer.write(path, file.text);
    // The record follows the generated files: it is written with them, never reported on its own.
    if (differs && file !== record) changed.push(file.path);
  }
  const keep = new Set(listed);
  const removed: string[] = [];
  for (const old of previous) {
    if (keep.has(old)) continue;
    const path = inside(root, old);
    if (readIfExists(path) === undefined) continue;
    if (options.check !== true) rmSync(path, { force: true });
    removed.push(old);
  }
  return { changed, removed };
}

function previousList(root: string): string[] {
  const text = readIfExists(join(root, GENERATED_LIST_FILE));
  if (text === undefined) return [];
  return text.split("\n").filter((line) => line !== "" && isInside(root, line));
}

function isInside(root: string, path: string): boolean {
  const rel = relative(root, resolve(root, path));
  return rel !== "" && !rel.startsWith("..") && !rel.includes(`..${sep}`) && resolve(root, path).startsWith(root + sep);
}

function inside(root: string, path: string): string {
  if (!isInside(root, path)) throw new Error(`refusing to touch '${path}': outside the output directory`);
  return resolve(root, path);
}

function readIfExists(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}
