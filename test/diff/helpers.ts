// Manifests of fixture directories (`previous/`, `current/`), compiled in memory.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Manifest } from "../../compiler/manifest/types.js";
import { compileSources } from "../../compiler/program/compile.js";

export const fixturesDir = fileURLToPath(new URL("./fixtures/", import.meta.url));

export function manifestOfDir(dir: string): Manifest {
  const sources = readdirSync(dir)
    .filter((f) => f.endsWith(".wow"))
    .map((path) => ({ path, text: readFileSync(join(dir, path), "utf8") }));
  const result = compileSources(sources);
  const errors = result.diagnostics.filter((d) => d.severity === "error");
  if (result.manifest === undefined) throw new Error(`${dir}: ${errors.map((d) => `${d.code} ${d.message}`).join("; ")}`);
  return result.manifest;
}
