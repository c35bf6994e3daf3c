// `wowc init [dir]`: scaffolds a project — package.json (build, test, watch), tsconfig.json, one
// `.wow` file, a host implementation and its spec — that installs, builds and passes its tests.
// All or nothing: the names, the dependency and every path are checked before the first write.
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve } from "node:path";
import type { CliIO } from "./io.js";
import { commandSpec, unknownOption } from "./commands.js";
import { createDiagnostic, type Diagnostic } from "../diagnostics/diagnostic.js";
import { formatDiagnostics } from "../diagnostics/format.js";
import { packageFile } from "../package-root.js";
import { reasonOf } from "../diagnostics/reason.js";
import { contextNameFor, dependencySpecProblem, npmNameProblem, packageNameFor, scaffold, type ScaffoldFile } from "../init/scaffold.js";
import { packageRootOf, wowcDependency, type RunningPackage } from "../init/wowc-dependency.js";

export const initHelp = `wowc init [dir] — scaffold a wowc project in dir (default .)

  --name <package>      npm package name (default: from the directory name)
  --context <name>      the .wow context (default: from the directory name, e.g. my-tasks)
  --wowc <spec>         the wowc dependency (default: this wowc — ^<version> when npm installed it from
                        a registry, else the tarball, git URL or directory it runs from, as npm can
                        install it: file:/path/to/wowc links a checkout)
  --force               write even if some of the files exist (they are overwritten)

Then: cd dir && npm install && npm test
`;

/** This wowc (its own package.json): where it runs from, and the versions it was built and tested with. */
function ownPackage(): RunningPackage & { devDependencies: Record<string, string> } {
  const url = packageFile("package.json");
  const pkg = JSON.parse(readFileSync(url, "utf8")) as { name?: string; version?: string; private?: boolean; devDependencies?: Record<string, string> };
  return { root: packageRootOf(url), name: pkg.name ?? "wowc", version: pkg.version, private: pkg.private, devDependencies: pkg.devDependencies ?? {} };
}

export async function runInitCommand(argv: readonly string[], io: CliIO): Promise<number> {
  let dirArg: string | undefined;
  const flags: Record<string, string> = {};
  let force = false;
  let operands = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    // `--`: what follows is the directory, even one starting with '-'.
    if (arg === "--" && !operands) {
      operands = true;
      continue;
    }
    if (operands) {
      if (dirArg !== undefined) {
        io.stderr(`wowc init: one directory, please ('${dirArg}' and '${arg}' given).\n`);
        return 2;
      }
      dirArg = arg;
      continue;
    }
    if (arg === "--help" || arg === "-h") {
      io.stdout(initHelp);
      return 0;
    }
    if (arg === "--force") force = true;
    else if (arg === "--name" || arg === "--context" || arg === "--wowc") {
      const value = argv[++i];
      if (value === undefined) {
        io.stderr(`wowc init: ${arg} needs a value.\n${initHelp}`);
        return 2;
      }
      flags[arg.slice(2)] = value;
    } else if (arg.startsWith("-")) {
      io.stderr(`wowc init: ${unknownOption(arg, commandSpec("init"))}\n${initHelp}`);
      return 2;
    } else if (dirArg === undefined) dirArg = arg;
    else {
      io.stderr(`wowc init: one directory, please ('${dirArg}' and '${arg}' given).\n`);
      return 2;
    }
  }
  const dir = resolve(io.cwd, dirArg ?? ".");
  const context = flags.context ?? contextNameFor(basename(dir));
  if (!/^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/.test(context) || context === "wow" || context.startsWith("wow.")) {
    io.stdout(formatDiagnostics([createDiagnostic("WOW7102", { name: context })], { summary: false }));
    return 2;
  }
  const packageName = flags.name ?? packageNameFor(basename(dir));
  const nameProblem = npmNameProblem(packageName);
  if (nameProblem !== undefined) {
    io.stdout(formatDiagnostics([createDiagnostic("WOW7103", { name: packageName, reason: nameProblem })], { summary: false }));
    return 2;
  }
  const own = ownPackage();
  const wowcSpec = flags.wowc ?? wowcDependency(own);
  const specProblem = dependencySpecProblem(wowcSpec);
  if (specProblem !== undefined) {
    io.stdout(formatDiagnostics([createDiagnostic("WOW7104", { spec: wowcSpec, reason: specProblem })], { summary: false }));
    return 2;
  }
  const files = scaffold({
    packageName,
    context,
    wowcSpec,
    typescriptVersion: own.devDependencies["typescript"] ?? "^5",
    typesNodeVersion: own.devDependencies["@types/node"] ?? "^20",
  });
  const shownPath = (path: string): string => {
    const rel = relative(io.cwd, path);
    return rel === "" ? "." : rel.startsWith("..") || isAbsolute(rel) ? path : rel;
  };
  const problems = blockedPaths(dir, files).map((b) => createDiagnostic("WOW7105", { path: shownPath(b.path), what: b.what, writes: b.writes }));
  const existing = files.filter((f) => isFile(join(dir, f.path))).map((f) => f.path);
  if (existing.length > 0 && !force) problems.push(createDiagnostic("WOW7101", { dir: relative(io.cwd, dir) || ".", files: existing.join(", ") }));
  if (problems.length > 0) {
    io.stdout(formatDiagnostics(problems, { summary: false }));
    return 1;
  }
  const wasEmpty = !existsSync(dir) || readdirSync(dir).length === 0;
  for (const file of files) {
    const path = join(dir, file.path);
    try {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, file.text);
    } catch (error) {
      io.stdout(formatDiagnostics([createDiagnostic("WOW6003", { path: shownPath(path), reason: reasonOf(error) })], { summary: false }));
      return 1;
    }
  }
  const rel = relative(io.cwd, dir);
  const shown = rel === "" ? "." : rel.startsWith("..") ? dir : rel;
  io.stdout(`Created a wowc project in ${shown}${wasEmpty ? "" : " (next to the files already there)"}:\n`);
  for (const file of files) io.stdout(`  ${file.path}\n`);
  const cd = /^[\w./@+-]+$/.test(shown) ? shown : `'${shown.replace(/'/g, `'\\''`)}'`; // quoted for a POSIX shell when it must be
  io.stdout(`\nNext:\n${shown === "." ? "" : `  cd ${cd}\n`}  npm install\n  npm test\n`);
  return 0;
}

interface BlockedPath {
  readonly path: string;
  /** `a file`, `a directory`: what is there. */
  readonly what: string;
  /** What `wowc init` would put there: `the directory src/`, `the file README.md`, `the project directory`. */
  readonly writes: string;
}

/** What stands where a file or one of its directories must go (a directory can be neither a file nor something unreadable). */
function blockedPaths(dir: string, files: readonly ScaffoldFile[]): BlockedPath[] {
  const blocked = new Map<string, BlockedPath>();
  const writes = (path: string): string => {
    const rel = relative(dir, path).split("\\").join("/");
    return rel === "" || rel.startsWith("..") ? "the project directory" : `the directory ${rel}/`;
  };
  for (const file of files) {
    const target = join(dir, file.path);
    const kind = kindOf(target);
    if (kind === "directory") blocked.set(target, { path: target, what: "a directory", writes: `the file ${file.path}` });
    else if (kind === "other") blocked.set(target, { path: target, what: "neither a file nor a directory", writes: `the file ${file.path}` });
    // The nearest ancestor that exists must be a directory.
    for (let parent = dirname(target); ; parent = dirname(parent)) {
      const parentKind = kindOf(parent);
      if (parentKind === "directory") break;
      if (parentKind !== "absent") {
        if (!blocked.has(parent)) blocked.set(parent, { path: parent, what: parentKind === "file" ? "a file" : "neither a file nor a directory", writes: writes(parent) });
        break;
      }
      if (dirname(parent) === parent) break;
    }
  }
  return [...blocked.values()];
}

/** What is at `path`, following symbolic links (a dangling one is `other`). */
function kindOf(path: string): "absent" | "file" | "directory" | "other" {
  try {
    const stats = statSync(path);
    return stats.isDirectory() ? "directory" : stats.isFile() ? "file" : "other";
  } catch {
    try {
      lstatSync(path);
      return "other";
    } catch {
      return "absent";
    }
  }
}

function isFile(path: string): boolean {
  return kindOf(path) === "file";
}
