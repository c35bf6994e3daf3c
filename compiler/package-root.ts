// The files wowc ships beside its code (templates/, schemas/, package.json) are found from the
// package root: the directory above this module whose package.json is wowc's. The same search works
// from the sources (compiler/) and from the compiled package (dist/compiler/).
import { readFileSync } from "node:fs";

let root: URL | undefined;

/** The URL of `path` (relative, `/`-separated) under wowc's package root. */
export function packageFile(path: string): URL {
  return new URL(path, packageRoot());
}

function packageRoot(): URL {
  if (root !== undefined) return root;
  let dir = new URL(".", import.meta.url);
  for (let depth = 0; depth < 4; depth++) {
    if (isWowcPackage(new URL("package.json", dir))) return (root = dir);
    dir = new URL("..", dir);
  }
  throw new Error("the package root of wowc (its package.json) was not found");
}

function isWowcPackage(path: URL): boolean {
  try {
    return (JSON.parse(readFileSync(path, "utf8")) as { name?: unknown }).name === "wowc";
  } catch {
    return false;
  }
}
