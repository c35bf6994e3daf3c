// Where the manifest's elements are declared. The manifest itself carries no positions (a comment
// line would move them all and a reviewer would see noise); `wowc build` writes them beside it in
// `wow-manifest.sources.json`, keyed by each element's JSON pointer in the manifest
// (`/contexts/eshop-order/aggregates/Order/commands/PayOrder` → `order.wow:27`). Tools that point
// at sources (`wowc diff`'s annotations) read them from there, or from a build of the sources.
import { jsonString } from "./json.js";
import type { Manifest } from "./types.js";

/** `file:line` by JSON pointer: the file relative to the build root with `/`, the line 1-based. */
export type ManifestPositions = Record<string, string>;

export const SOURCES_FILE_NAME = "wow-manifest.sources.json";

/** The file beside the manifest. */
export interface SourcesFile {
  /** The build root the positions' files are relative to, relative to this file's directory (`..`). */
  readonly root: string;
  readonly positions: ManifestPositions;
}

/**
 * Where one context's elements are declared, in the order the manifest builder meets them:
 * pointers and `file:line`s side by side (thousands of keys in a large context: cheaper to fill
 * than a record, and printed into the sources file without one).
 */
export class PositionList {
  readonly pointers: string[] = [];
  readonly sources: string[] = [];
  private sorted: { readonly pointers: readonly string[]; readonly sources: readonly string[] } | undefined;
  private printed: string | undefined;

  add(pointer: string, source: string): void {
    this.pointers.push(pointer);
    this.sources.push(source);
    this.sorted = this.printed = undefined;
  }

  /** The pointers in sorted order with their sources (the last of a pointer given twice kept, as in a record). */
  inOrder(): { readonly pointers: readonly string[]; readonly sources: readonly string[] } {
    if (this.sorted !== undefined) return this.sorted;
    const { pointers, sources } = this;
    let ordered = true;
    for (let i = 1; i < pointers.length && ordered; i++) ordered = pointers[i - 1]! < pointers[i]!;
    if (ordered) return (this.sorted = { pointers, sources });
    // Indexes by pointer, ties in the order given (a stable sort): the last of each run is kept.
    const order = pointers.map((_, i) => i).sort((a, b) => (pointers[a]! < pointers[b]! ? -1 : pointers[a]! > pointers[b]! ? 1 : 0));
    const kept = order.filter((index, i) => i + 1 === order.length || pointers[order[i + 1]!] !== pointers[index]);
    return (this.sorted = { pointers: kept.map((i) => pointers[i]!), sources: kept.map((i) => sources[i]!) });
  }

  /** Its entries as the sources file's `positions` object holds them (two levels deep, one a line, no trailing comma). */
  lines(): string {
    if (this.printed !== undefined) return this.printed;
    const { pointers, sources } = this.inOrder();
    const lines: string[] = [];
    for (let i = 0; i < pointers.length; i++) lines.push(`    ${jsonString(pointers[i]!)}: ${jsonString(sources[i]!)}`);
    return (this.printed = lines.join(",\n"));
  }
}

/** The positions of a build's manifest: one list per context, in the manifest's order of contexts. */
export class ManifestSources {
  private record: ManifestPositions | undefined;

  constructor(private readonly lists: readonly PositionList[]) {}

  /** Every position by pointer. */
  positions(): ManifestPositions {
    if (this.record !== undefined) return this.record;
    const record: ManifestPositions = {};
    for (const list of this.lists) for (let i = 0; i < list.pointers.length; i++) record[list.pointers[i]!] = list.sources[i]!;
    return (this.record = record);
  }

  /** The text of `wow-manifest.sources.json` (canonical JSON), its files relative to `root`. */
  fileText(root: string): string {
    const tail = `\n  },\n  "root": ${JSON.stringify(root)}\n}\n`;
    const lists = this.lists.filter((list) => list.pointers.length > 0);
    if (lists.length === 0) return `{\n  "positions": {},\n  "root": ${JSON.stringify(root)}\n}\n`;
    // Each list is sorted; the whole is when each list's last pointer sorts before the next one's first.
    const joined = lists.every((list, i) => i === 0 || last(lists[i - 1]!) < list.inOrder().pointers[0]!);
    if (joined) return `{\n  "positions": {\n${lists.map((list) => list.lines()).join(",\n")}${tail}`;
    const all = new PositionList();
    for (const [pointer, source] of Object.entries(this.positions())) all.add(pointer, source);
    return `{\n  "positions": {\n${all.lines()}${tail}`;
  }
}

function last(list: PositionList): string {
  const { pointers } = list.inOrder();
  return pointers[pointers.length - 1]!;
}

/** The JSON pointer of `segments` under `base` (each segment escaped: `~` → `~0`, `/` → `~1`). */
export function pointer(base: string, ...segments: string[]): string {
  let out = base === "" || base.startsWith("/") ? base : `/${escape(base)}`;
  for (const segment of segments) out += `/${escape(segment)}`;
  return out;
}

function escape(segment: string): string {
  return segment.includes("~") || segment.includes("/") ? segment.replace(/~/g, "~0").replace(/\//g, "~1") : segment;
}

function unescape(segment: string): string {
  return segment.replace(/~1/g, "/").replace(/~0/g, "~");
}

/**
 * Each element of `manifest` (an object the positions point at) with its `file:line`: how the diff,
 * which compares objects, finds where a change is. Pointers that lead nowhere are skipped (a
 * positions file older than its manifest).
 */
export function positionsByElement(manifest: Manifest, positions: ManifestPositions): WeakMap<object, string> {
  const out = new WeakMap<object, string>();
  for (const [path, source] of Object.entries(positions)) {
    let node: unknown = manifest;
    for (const segment of path.split("/").slice(1)) {
      node = node !== null && typeof node === "object" ? (node as Record<string, unknown>)[unescape(segment)] : undefined;
    }
    if (node !== null && typeof node === "object") out.set(node, source);
  }
  return out;
}

/** A parsed `wow-manifest.sources.json`, or undefined when it is not one (a tool then goes without positions). */
export function parseSourcesFile(text: string): SourcesFile | undefined {
  try {
    const value = JSON.parse(text) as Partial<SourcesFile> | null;
    if (typeof value?.root !== "string" || typeof value.positions !== "object" || value.positions === null) return undefined;
    const positions = Object.entries(value.positions).filter(([key, at]) => key.startsWith("/") && typeof at === "string");
    return { root: value.root, positions: Object.fromEntries(positions) as ManifestPositions };
  } catch {
    return undefined;
  }
}
