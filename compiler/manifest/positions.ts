// Where the manifest's elements are declared. The manifest itself carries no positions (a comment
// line would move them all and a reviewer would see noise); `wowc build` writes them beside it in
// `wow-manifest.sources.json`, keyed by each element's JSON pointer in the manifest
// (`/contexts/eshop-order/aggregates/Order/commands/PayOrder` → `order.wow:27`). Tools that point
// at sources (`wowc diff`'s annotations) read them from there, or from a build of the sources.
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
