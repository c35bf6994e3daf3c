// `wowc init [dir]`: scaffolds a project — package.json (build, test, watch), tsconfig.json, one
// `.wow` file, a host implementation and its spec — that installs, builds and passes its tests.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import type { CliIO } from "../cli/run-cli.js";
import { createDiagnostic } from "../diagnostics/diagnostic.js";
import { formatDiagnostics } from "../diagnostics/format.js";
import { packageFile } from "../package-root.js";
import { contextNameFor, packageNameFor, scaffold } from "./scaffold.js";

export const initHelp = `wowc init [dir] — scaffold a wowc project in dir (default .)

  --name <package>      npm package name (default: from the directory name)
  --context <name>      the .wow context (default: from the directory name, e.g. my-tasks)
  --wowc <spec>         the wowc dependency (default ^<this version>; file:/path/to/wowc links a checkout)
  --force               write even if some of the files exist (they are overwritten)

Then: cd dir && npm install && npm test
`;

/** The versions this wowc was built and tested with (its own package.json). */
function ownPackage(): { version: string; devDependencies: Record<string, string> } {
  const pkg = JSON.parse(readFileSync(packageFile("package.json"), "utf8")) as { version?: string; devDependencies?: Record<string, string> };
  return { version: pkg.version ?? "0.0.0", devDependencies: pkg.devDependencies ?? {} };
}

export async function runInitCommand(argv: readonly string[], io: CliIO): Promise<number> {
  let dirArg: string | undefined;
  const flags: Record<string, string> = {};
  let force = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
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
      io.stderr(`wowc init: unknown option '${arg}'.\n${initHelp}`);
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
  const own = ownPackage();
  const files = scaffold({
    packageName: flags.name ?? packageNameFor(basename(dir)),
    context,
    wowcSpec: flags.wowc ?? `^${own.version}`,
    typescriptVersion: own.devDependencies["typescript"] ?? "^5",
    typesNodeVersion: own.devDependencies["@types/node"] ?? "^20",
  });
  const existing = files.filter((f) => existsSync(join(dir, f.path))).map((f) => f.path);
  if (existing.length > 0 && !force) {
    io.stdout(formatDiagnostics([createDiagnostic("WOW7101", { dir: relative(io.cwd, dir) || ".", files: existing.join(", ") })], { summary: false }));
    return 1;
  }
  const wasEmpty = !existsSync(dir) || readdirSync(dir).length === 0;
  for (const file of files) {
    const path = join(dir, file.path);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, file.text);
  }
  const rel = relative(io.cwd, dir);
  const shown = rel === "" ? "." : rel.startsWith("..") ? dir : rel;
  io.stdout(`Created a wowc project in ${shown}${wasEmpty ? "" : " (next to the files already there)"}:\n`);
  for (const file of files) io.stdout(`  ${file.path}\n`);
  const cd = /^[\w./@+-]+$/.test(shown) ? shown : `'${shown.replace(/'/g, `'\\''`)}'`; // quoted for a POSIX shell when it must be
  io.stdout(`\nNext:\n${shown === "." ? "" : `  cd ${cd}\n`}  npm install\n  npm test\n`);
  return 0;
}
