// Quiet writes: every generated file (the manifest too) is written only when its content changed;
// files wowc generated before and no longer produces are deleted — only inside the output
// directory, only those listed in its record `<out>/.wowc-files`. In check mode nothing is
// written: the result lists what is out of date.
import { closeSync, existsSync, ftruncateSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
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

function writeContent(path: string, content: Content): void {
  if (typeof content === "string") {
    writeFileSync(path, content);
    return;
  }
  writeChunks(openSync(path, "w"), content, 0, 0);
}

/**
 * Rewrites a file this process wrote as `known` with `content`: only from the first part that
 * differs (the parts before it are on disk already), then cuts the file to its new size. Throws
 * when the file is gone.
 */
function rewriteContent(path: string, known: Content, content: Content): void {
  if (typeof content === "string" || typeof known === "string") {
    writeContent(path, content);
    return;
  }
  let first = 0;
  let offset = 0;
  while (first < content.length && first < known.length && sameChunk(known[first]!, content[first]!)) offset += content[first++]!.byteLength;
  writeChunks(openSync(path, "r+"), content, first, offset);
}

/** Writes `chunks[from…]` at `offset`, cuts the file there, closes it. */
function writeChunks(fd: number, chunks: readonly Uint8Array[], from: number, offset: number): void {
  try {
    let at = offset;
    for (let i = from; i < chunks.length; i++) {
      const chunk = chunks[i]!;
      let done = 0;
      while (done < chunk.byteLength) done += writeSync(fd, chunk, done, chunk.byteLength - done, at + done);
      at += chunk.byteLength;
    }
    ftruncateSync(fd, at);
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
  return new Writer(true).write(path, text);
}

/**
 * Quiet writes for one output directory: a file whose size differs is not read; a directory is
 * created once; when the output directory did not exist (a cold build) nothing is compared.
 */
class Writer {
  private readonly directories = new Set<string>();

  constructor(private readonly compare: boolean) {}

  write(path: string, content: Content): boolean {
    if (this.compare && holds(path, content)) return false;
    return this.overwrite(path, content);
  }

  /** Replaces `known`, which this process wrote there, by `content` (the caller knows they differ). */
  rewrite(path: string, known: Content, content: Content): boolean {
    try {
      rewriteContent(path, known, content);
      return true;
    } catch {
      return this.overwrite(path, content); // its directory is gone: made again
    }
  }

  /** Writes without comparing. */
  private overwrite(path: string, content: Content): boolean {
    const dir = dirname(path);
    if (!this.directories.has(dir)) {
      mkdirSync(dir, { recursive: true });
      this.directories.add(dir);
    }
    writeContent(path, content);
    return true;
  }
}

/** True when the file at `path` holds exactly `content`: sizes first, then bytes. */
function holds(path: string, content: Content): boolean {
  const size = statSync(path, { throwIfNoEntry: false })?.size;
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
  const previous = memory?.filled === true ? [...memory.contents.keys()].filter((path) => path !== GENERATED_LIST_FILE) : previousList(root);
  const writer = new Writer(existsSync(root));
  const changed: string[] = [];
  for (const file of [...files, record]) {
    const content = contentOf(file);
    const known = memory?.contents.get(file.path);
    if (known !== undefined && sameContent(known, content)) continue;
    const path = inside(root, file.path);
    const differs = check ? !holds(path, content) : known !== undefined ? writer.rewrite(path, known, content) : writer.write(path, content);
    memory?.contents.set(file.path, content);
    // The record follows the generated files: it is written with them, never reported on its own.
    if (differs && file !== record) changed.push(file.path);
  }
  const keep = new Set(listed);
  const removed: string[] = [];
  for (const old of previous) {
    if (keep.has(old)) continue;
    memory?.contents.delete(old);
    const path = inside(root, old);
    if (readIfExists(path) === undefined) continue;
    if (!check) rmSync(path, { force: true });
    removed.push(old);
  }
  if (memory !== undefined) memory.filled = true;
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
