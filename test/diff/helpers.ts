// Manifests of fixture directories (`previous/`, `current/`), compiled in memory, with the positions
// a build writes beside them (what `wowc diff` reads for its `file:line`s).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { diffManifests, type DiffOptions, type DiffResult } from "../../compiler/diff/diff-manifests.js";
import type { ManifestPositions } from "../../compiler/manifest/positions.js";
import type { Manifest } from "../../compiler/manifest/types.js";
import { compileSources } from "../../compiler/program/compile.js";

export const fixturesDir = fileURLToPath(new URL("./fixtures/", import.meta.url));

export interface Built {
  readonly manifest: Manifest;
  readonly positions: ManifestPositions;
}

/** The manifest and positions of sources in memory, which must compile. */
export function builtOf(files: ReadonlyArray<{ path: string; text: string }>): Built {
  const result = compileSources(files);
  const errors = result.diagnostics.filter((d) => d.severity === "error");
  if (result.manifest === undefined) throw new Error(errors.map((d) => `${d.code} ${d.message}`).join("; "));
  return { manifest: result.manifest, positions: result.sources!.positions() };
}

export function manifestOfDir(dir: string): Built {
  try {
    return builtOf(readdirSync(dir).filter((f) => f.endsWith(".wow")).map((path) => ({ path, text: readFileSync(join(dir, path), "utf8") })));
  } catch (error) {
    throw new Error(`${dir}: ${(error as Error).message}`);
  }
}

/** `diffManifests` of two builds, with their positions. */
export function diffBuilt(previous: Built, current: Built, options: Omit<DiffOptions, "positions"> = {}): DiffResult {
  return diffManifests(previous.manifest, current.manifest, { ...options, positions: { previous: previous.positions, current: current.positions } });
}
