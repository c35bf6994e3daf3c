// Quiet writes: every generated file (the manifest too) is written only when its content changed;
// files wowc generated before and no longer produces are deleted — only inside the output
// directory, only those listed in its record `<out>/.wowc-files`. A build's writes are all or
// nothing (staged beside their targets, then renamed), and wowc writes only into a directory it
// owns (see assertOwned). In check mode nothing is written: the result lists what is out of date.
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { MANIFEST_FILE_NAME } from "../manifest/types.js";
import type { ChunkedFile, EmittedFile } from "./emit.js";

/** A generated file's content: text, or UTF-8 parts written one after the other. */
type Content = string | readonly Uint8Array[];

function contentOf(file: EmittedFile | ChunkedFile): Content {
  return "text" in file ? file.text : file.chunks;
}

/** Equal contents: same text, or the same parts (a part kept from the last build is the same object: not compared byte by byte). */
function sameContent(a: Content | undefined, b: Content): boolean {
  if (typeof a === "string" || typeof b === "string") return a === b;
  if (a === undefined || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!sameChunk(a[i]!, b[i]!)) return false;
  return true;
}

function byteLength(content: Content): number {
  if (typeof content === "string") return Buffer.byteLength(content);
  let size = 0;
  for (const chunk of content) size += chunk.byteLength;
  return size;
}

/** Writes a file whole: text, or its parts one after the other. */
function writeContent(path: string, content: Content): void {
  if (typeof content === "string") {
    writeFileSync(path, content);
    return;
  }
  const fd = openSync(path, "w");
  try {
    for (const chunk of content) {
      let done = 0;
      while (done < chunk.byteLength) done += writeSync(fd, chunk, done, chunk.byteLength - done);
    }
  } finally {
    closeSync(fd);
  }
}

function sameChunk(a: Uint8Array, b: Uint8Array): boolean {
  return a === b || Buffer.compare(a, b) === 0;
}

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
  if (holds(path, text)) return false;
  commit([{ path: resolve(path), content: text }]);
  return true;
}

/** A write that failed: `path` is the file (absolute) that could not be written or deleted. */
export class OutputError extends Error {
  constructor(
    readonly path: string,
    readonly reason: unknown,
  ) {
    super(`cannot write '${path}': ${reason instanceof Error ? reason.message : String(reason)}`);
  }
}

/** The output directory holds files wowc did not write (and no record of a build): it is not written. */
export class ForeignOutputError extends Error {
  constructor(
    readonly dir: string,
    /** One of the files found there, relative to `dir`. */
    readonly example: string,
  ) {
    super(`'${dir}' holds files wowc did not write, e.g. '${example}'`);
  }
}

/** One file to write: its absolute path and its content. */
interface PendingWrite {
  readonly path: string;
  readonly content: Content;
}

/** The suffix of a file staged beside its target before the target is replaced by it. */
const STAGED_SUFFIX = ".wowc-new";

/**
 * Writes all the files or none: each is first written beside its target (`<file>.wowc-new`), and
 * only when every one is staged are they renamed over their targets. A file that cannot be staged
 * (a directory in the way, no permission) throws an OutputError naming it, after the staged files
 * are removed: the output directory keeps its old, consistent content.
 */
function commit(writes: readonly PendingWrite[]): void {
  const made = new Set<string>();
  const staged: string[] = [];
  try {
    for (const write of writes) staged.push(stage(write, made));
  } catch (error) {
    for (const temp of staged) rmSync(temp, { force: true });
    throw error;
  }
  writes.forEach((write, i) => {
    try {
      renameSync(staged[i]!, write.path);
    } catch (error) {
      for (const temp of staged.slice(i)) rmSync(temp, { force: true });
      throw new OutputError(write.path, error);
    }
  });
}

/** Writes one file's content, whole, to its staged path beside it, with the mode of the file it replaces. */
function stage(write: PendingWrite, made: Set<string>): string {
  const temp = `${write.path}${STAGED_SUFFIX}`;
  try {
    const old = statSync(write.path, { throwIfNoEntry: false });
    if (old?.isDirectory() === true) {
      throw Object.assign(new Error("a directory is in the way."), { code: "EISDIR" });
    }
    const dir = dirname(write.path);
    if (!made.has(dir)) {
      mkdirSync(dir, { recursive: true });
      made.add(dir);
    }
    writeContent(temp, write.content);
    if (old !== undefined) chmodSync(temp, old.mode & 0o7777); // a mode the user set (read-only, say) is kept
    return temp;
  } catch (error) {
    rmSync(temp, { force: true });
    throw new OutputError(write.path, error);
  }
}

/** True when the file at `path` holds exactly `content`: sizes first, then bytes. */
function holds(path: string, content: Content): boolean {
  let size: number | undefined;
  try {
    size = statSync(path, { throwIfNoEntry: false })?.size;
  } catch {
    return false; // a file where a directory of the path should be: not there
  }
  if (size !== byteLength(content)) return false;
  if (typeof content === "string") return readIfExists(path) === content;
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch {
    return false;
  }
  let at = 0;
  for (const chunk of content) {
    if (Buffer.compare(bytes.subarray(at, at + chunk.byteLength), chunk) !== 0) return false;
    at += chunk.byteLength;
  }
  return true;
}

/**
 * What one output directory holds, as far as this process wrote it: `wowc build --watch` keeps one,
 * so a rebuild neither reads back nor rewrites the files whose content it already wrote.
 */
export class OutputMemory {
  /** Path (relative to the output directory) → the content last written or found there. */
  readonly contents = new Map<string, Content>();
  /** Whether a build filled it: the record of generated files is then known without reading it. */
  filled = false;
}

export interface WriteOptions {
  /** Compare only and write nothing: `changed` lists what is out of date. */
  readonly check?: boolean;
  /** Kept between builds into the same directory (ignored by `check`). */
  readonly memory?: OutputMemory;
}

export function writeOutput(outDir: string, files: ReadonlyArray<EmittedFile | ChunkedFile>, options: WriteOptions = {}): OutputResult {
  const root = resolve(outDir);
  const check = options.check === true;
  const memory = check ? undefined : options.memory;
  const listed = files.map((f) => f.path).sort();
  const record: EmittedFile = { path: GENERATED_LIST_FILE, text: `${listed.join("\n")}\n` };
  const owned = memory?.filled === true;
  const previous = owned ? [...memory.contents.keys()].filter((path) => path !== GENERATED_LIST_FILE) : previousList(root);
  if (!check && !owned) assertOwned(root);
  const compare = existsSync(root);
  const writes: PendingWrite[] = [];
  const seen: [string, Content][] = [];
  const changed: string[] = [];
  for (const file of [...files, record]) {
    const content = contentOf(file);
    const known = memory?.contents.get(file.path);
    if (known !== undefined && sameContent(known, content)) continue;
    const path = inside(root, file.path);
    seen.push([file.path, content]);
    if (known === undefined && compare && holds(path, content)) continue;
    writes.push({ path, content });
    // The record follows the generated files: it is written with them, never reported on its own.
    if (file !== record) changed.push(file.path);
  }
  if (!check) commit(writes);
  for (const [path, content] of seen) memory?.contents.set(path, content);
  const keep = new Set(listed);
  const removed: string[] = [];
  for (const old of previous) {
    if (keep.has(old)) continue;
    memory?.contents.delete(old);
    const path = inside(root, old);
    if (readIfExists(path) === undefined) continue;
    if (!check) remove(path);
    removed.push(old);
  }
  if (memory !== undefined) memory.filled = true;
  return { changed, removed };
}

function remove(path: string): void {
  try {
    rmSync(path, { force: true });
  } catch (error) {
    throw new OutputError(path, error);
  }
}

/**
 * wowc owns its output directory (it rewrites and deletes what it generated there), so it writes
 * only into one that is missing, empty (hidden files aside: `.gitignore`), or holds the record or
 * manifest of an earlier build; anything else is someone's files (a mistyped `--out`).
 */
function assertOwned(root: string): void {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch (error) {
    if ((error as { code?: string }).code === "ENOENT") return;
    throw new OutputError(root, error);
  }
  if (names.includes(GENERATED_LIST_FILE) || names.includes(MANIFEST_FILE_NAME)) return;
  const foreign = names.filter((name) => !name.startsWith(".")).sort();
  if (foreign.length > 0) throw new ForeignOutputError(root, foreign[0]!);
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
