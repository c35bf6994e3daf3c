// The `wowc` dependency `wowc init` writes: one that `npm install` resolves to the wowc that runs,
// wherever it came from.
//  - A wowc npm installed from a registry — its package root inside a `node_modules` directory, its
//    package.json not `private`, with a version, and npm's record of the install (the hidden
//    lockfile `node_modules/.package-lock.json`) naming a registry tarball, or no record at all
//    (another package manager, a global install) — is depended on by version: `^<version>`.
//  - One installed from a tarball or a git repository (npm's record says so) is depended on by that
//    same source: `file:<absolute path of the tarball>`, or the git URL npm recorded.
//  - Anything else — a checkout, a linked directory (Node runs it from its real path), a private
//    package — is depended on by its package root: `file:<absolute path>` (npm links it).
// `wowc init --wowc <spec>` overrides the rule.
import { readFileSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

/** What the rule reads of the running package: its root (absolute, real) and its package.json. */
export interface RunningPackage {
  readonly root: string;
  readonly name: string;
  readonly version?: string | undefined;
  readonly private?: boolean | undefined;
}

/** npm's record of an installed package in a hidden lockfile (`packages["node_modules/wowc"]`). */
export interface InstallRecord {
  readonly resolved?: string | undefined;
  readonly link?: boolean | undefined;
}

/** The hidden lockfile's record of the package at `root`, if npm installed it (undefined: no record). */
export type ReadInstallRecord = (lockfile: string, key: string) => InstallRecord | undefined;

export function wowcDependency(running: RunningPackage, readRecord: ReadInstallRecord = readHiddenLockfile): string {
  const own = `file:${running.root}`;
  if (running.private === true || running.version === undefined || running.version === "") return own;
  const parts = running.root.split(sep);
  const at = parts.indexOf("node_modules");
  if (at <= 0) return own; // not installed: a checkout
  // The project npm installed it into, and the package's key in that project's hidden lockfile.
  const project = parts.slice(0, at).join(sep) || sep;
  const key = relative(project, running.root).split(sep).join("/");
  const record = readRecord(join(project, "node_modules", ".package-lock.json"), key);
  if (record === undefined) return `^${running.version}`; // installed, but not by npm: by version
  const resolved = record.resolved;
  if (record.link === true || resolved === undefined) return own;
  if (/^https?:\/\//.test(resolved)) return `^${running.version}`;
  if (resolved.startsWith("file:")) {
    const path = resolved.slice("file:".length);
    return `file:${isAbsolute(path) ? path : resolve(project, path)}`;
  }
  return resolved; // git+ssh://…, git+https://…: what npm installed it from
}

function readHiddenLockfile(lockfile: string, key: string): InstallRecord | undefined {
  try {
    const lock = JSON.parse(readFileSync(lockfile, "utf8")) as { packages?: Record<string, InstallRecord> };
    return lock.packages?.[key];
  } catch {
    return undefined;
  }
}

/** The running package's root directory (absolute) from the URL of its package.json. */
export function packageRootOf(packageJson: URL): string {
  return dirname(fileURLToPath(packageJson));
}
