// The files of a new project, rendered from templates/init/** (handlebars, no HTML escaping: the
// values are checked names and versions; in JSON files a value is written with `{{json value}}`,
// JSON.stringify, never pasted between quotes). `gitignore.hbs` becomes `.gitignore` (npm drops
// files named .gitignore from published packages).
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
  const handlebars = (createRequire(import.meta.url)("handlebars") as typeof HandlebarsModule).create();
  handlebars.registerHelper("json", (value: unknown) => JSON.stringify(value));
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
  const name = plainLowerCase(dirName).replace(/[^a-z0-9._-]+/g, "-").replace(/^[._-]+|-+$/g, "").slice(0, 214).replace(/-+$/, "");
  return name === "" ? "wow-app" : name;
}

/** Why `name` cannot be the name of a new npm package (npm's rules), or undefined when it can. */
export function npmNameProblem(name: string): string | undefined {
  if (name === "") return "it is empty";
  if (name.length > 214) return "it is longer than 214 characters";
  if (name.trim() !== name) return "it starts or ends with a space";
  if (name !== name.toLowerCase()) return "it has capital letters";
  if (name === "node_modules" || name === "favicon.ico") return "npm reserves this name";
  const scoped = /^@([^/]*)\/(.*)$/.exec(name);
  const parts = scoped === null ? [name] : [scoped[1]!, scoped[2]!];
  if (scoped === null && name.startsWith("@")) return "a scoped name is @scope/name";
  for (const part of parts) {
    if (part === "") return "a scoped name is @scope/name";
    if (/^[._]/.test(part)) return `'${part}' starts with '${part[0]}'`;
    const bad = [...part].find((c) => !/[a-z0-9._-]/.test(c));
    if (bad !== undefined) return bad === " " ? "it has a space" : `it has the character ${bad === "'" ? `"'"` : /[\u0000-\u001f\u007f]/.test(bad) ? JSON.stringify(bad) : `'${bad}'`}`;
  }
  return undefined;
}

const part = String.raw`(?:\*|x|X|0|[1-9]\d*)`;
const version = String.raw`v?${part}(?:\.${part}){0,2}(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?`;
const comparator = new RegExp(String.raw`^(?:<=|>=|<|>|=|\^|~>?)?\s*${version}$`);
const hyphen = new RegExp(String.raw`^${version}\s+-\s+${version}$`);

/**
 * Why `spec` cannot be the `wowc` dependency of package.json, or undefined when it can: a semver
 * range, a dist-tag, or a specifier npm resolves itself (`file:`, `npm:`, git, a URL, `owner/repo`).
 */
export function dependencySpecProblem(spec: string): string | undefined {
  if (spec.trim() === "") return "it is empty";
  if (spec.trim() !== spec) return "it starts or ends with a space";
  if (/[\u0000-\u001f\u007f]/.test(spec)) return "it has a control character";
  if (/^(?:file|link|npm|git|git\+[a-z]+|github|gitlab|bitbucket|gist|https?):/.test(spec)) return undefined;
  if (/^[\w.-]+\/[\w.-]+(?:#.*)?$/.test(spec)) return undefined; // a GitHub repository
  if (/^[a-zA-Z][\w.-]*$/.test(spec) && !/^v\d/.test(spec) && !/^[xX]$/.test(spec)) return spec.length <= 214 ? undefined : "it is longer than 214 characters"; // a dist-tag
  const sets = spec.split("||").map((set) => set.trim());
  const valid = sets.every((set) => set === "" || hyphen.test(set) || set.split(/\s+/).every((c) => comparator.test(c)));
  return valid ? undefined : "it is not a version range (such as ^1.2.0 or >=1.2 <2), a tag, or a file:, npm:, git or URL specifier";
}
