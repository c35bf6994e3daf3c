// The files of a new project, rendered from templates/init/** (handlebars, no HTML escaping: the
// values are checked names and versions). `gitignore.hbs` becomes `.gitignore` (npm drops files
// named .gitignore from published packages).
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type HandlebarsModule from "handlebars";
import { packageFile } from "../package-root.js";

export interface ScaffoldOptions {
  /** The npm package name. */
  readonly packageName: string;
  /** The `.wow` context name (lower-case words joined by `-`). */
  readonly context: string;
  /** The `wowc` dependency: a version range, or `file:…` to link a local checkout. */
  readonly wowcSpec: string;
  readonly typescriptVersion: string;
  readonly typesNodeVersion: string;
}

export interface ScaffoldFile {
  /** Relative to the project directory, with `/`. */
  readonly path: string;
  readonly text: string;
}

/** templates/init/ of the wowc package. */
export function initTemplatesDirectory(): string {
  return fileURLToPath(packageFile("templates/init/"));
}

function listTemplates(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".hbs")) out.push(relative(root, path).split(sep).join("/"));
    }
  };
  walk(root);
  return out.sort();
}

export function scaffold(options: ScaffoldOptions): ScaffoldFile[] {
  const handlebars = createRequire(import.meta.url)("handlebars") as typeof HandlebarsModule;
  const root = initTemplatesDirectory();
  return listTemplates(root).map((template) => {
    const render = handlebars.compile(readFileSync(join(root, template), "utf8"), { noEscape: true, strict: true });
    const path = template.slice(0, -".hbs".length).replace(/(^|\/)gitignore$/, "$1.gitignore");
    return { path, text: render(options) };
  });
}

/** Lower case, with accents taken off letters (`Ünï` → `uni`); other non-ASCII characters stay. */
function plainLowerCase(dirName: string): string {
  return dirName.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
}

/** A context name from a directory name: `My Tasks` → `my-tasks`, `Café` → `cafe`; `app` when nothing is left. */
export function contextNameFor(dirName: string): string {
  const words = plainLowerCase(dirName).split(/[^a-z0-9]+/).filter((w) => w !== "");
  while (words.length > 0 && /^[0-9]/.test(words[0]!)) words.shift();
  const name = words.join("-");
  return name === "" || name === "wow" || name.startsWith("wow-") ? "app" : name;
}

/** An npm package name from a directory name. */
export function packageNameFor(dirName: string): string {
  const name = plainLowerCase(dirName).replace(/[^a-z0-9._~-]+/g, "-").replace(/^[._-]+|-+$/g, "");
  return name === "" ? "wow-app" : name;
}
