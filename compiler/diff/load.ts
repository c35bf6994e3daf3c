// Where `wowc diff` gets its two manifests: a manifest file, a fresh in-memory build of a source
// directory, or a git revision (`git show <ref>:<dir>/generated/wow-manifest.json`, falling back to
// compiling the `.wow` files of that revision when the manifest was not committed).
import { execFileSync } from "node:child_process";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import { readFileSync, statSync } from "node:fs";
import { basename, dirname, join, posix, resolve } from "node:path";
import { createDiagnostic, type Diagnostic } from "../diagnostics/diagnostic.js";
import { parseSourcesFile, SOURCES_FILE_NAME, type ManifestPositions, type SourcesFile } from "../manifest/positions.js";
import { MANIFEST_FILE_NAME, MANIFEST_VERSION, type Manifest } from "../manifest/types.js";
import { packageFile } from "../package-root.js";
import { build } from "../program/build.js";
import { compileSources } from "../program/compile.js";
import { decodeSource } from "../program/sources.js";
import { rules } from "./rules.js";

/** Why an input cannot be compared: the diagnostics (a WOW7xxx last, after any source errors). */
export class DiffInputError extends Error {
  constructor(readonly diagnostics: readonly Diagnostic[]) {
    super(diagnostics[diagnostics.length - 1]?.message ?? "cannot compare");
  }
}

const fail = (...diagnostics: Diagnostic[]): never => {
  throw new DiffInputError(diagnostics);
};

export interface LoadedManifest {
  readonly manifest: Manifest;
  /** The directory the manifest's `file:line` sources are relative to. */
  readonly sourceRoot: string;
  /** How it was obtained, for the report: `generated/wow-manifest.json at main`. */
  readonly origin: string;
  /** Where its elements are declared, when known (`wow-manifest.sources.json`, or the sources built). */
  readonly positions?: ManifestPositions;
}

/** The default place of the manifest under a build root. */
export const DEFAULT_MANIFEST = `generated/${MANIFEST_FILE_NAME}`;

function parseManifest(text: string, origin: string): Manifest {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return fail(createDiagnostic("WOW7001", { input: origin, reason: `it is not JSON (${(error as Error).message}).` }));
  }
  const contexts = (value as { contexts?: unknown } | null)?.contexts;
  if (typeof contexts !== "object" || contexts === null) {
    fail(createDiagnostic("WOW7001", { input: origin, reason: 'it has no "contexts": it is not a wowc manifest.' }));
  }
  const version = (value as { manifestVersion?: unknown }).manifestVersion;
  if (version !== MANIFEST_VERSION) {
    fail(createDiagnostic("WOW7001", { input: origin, reason: `its manifestVersion is ${JSON.stringify(version)}, and this wowc reads version ${MANIFEST_VERSION}: build both sides with one wowc.` }));
  }
  const validate = manifestValidator();
  if (!validate(value)) {
    const [first, ...more] = validate.errors ?? [];
    const where = `${first?.instancePath || "/"}: ${first?.message ?? "does not fit"}`;
    fail(createDiagnostic("WOW7001", { input: origin, reason: `it does not fit the manifest's schema at ${where}${more.length > 0 ? ` (and ${more.length} more)` : ""}; was it edited by hand?` }));
  }
  return value as Manifest;
}

let validator: ValidateFunction | undefined;

/** schemas/wow-manifest.schema.json, which every manifest `wowc build` writes fits (test/compiler/manifest.test.ts). */
function manifestValidator(): ValidateFunction {
  if (validator !== undefined) return validator;
  const schema = JSON.parse(readFileSync(packageFile("schemas/wow-manifest.schema.json"), "utf8")) as object;
  return (validator = new Ajv2020({ allErrors: true }).compile(schema));
}

/** A manifest file, or a directory of sources built in memory. */
/** `label` names it in messages: the path as the user gave it (default `path`). */
export function loadPath(path: string, label = path): LoadedManifest {
  let directory: boolean;
  try {
    directory = statSync(path).isDirectory();
  } catch {
    return fail(createDiagnostic("WOW7001", { input: label, reason: "no such file or directory." }));
  }
  if (directory) return buildDirectory(path, label);
  const manifest = parseManifest(readFileSync(path, "utf8"), label);
  // The positions beside it name the build root (which `--out` may have put anywhere).
  const sources = readSources(join(dirname(path), SOURCES_FILE_NAME));
  if (sources !== undefined) return { manifest, sourceRoot: resolve(dirname(path), sources.root), origin: label, positions: sources.positions };
  const root = basename(dirname(path)) === "generated" ? dirname(dirname(path)) : dirname(path);
  return { manifest, sourceRoot: root, origin: label };
}

function readSources(path: string): SourcesFile | undefined {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
  return parseSourcesFile(text);
}

/** A fresh build of the sources under `dir` (nothing written). */
export function buildDirectory(dir: string, label = dir): LoadedManifest {
  const result = build({ root: dir, write: false, manifest: true });
  if (result.manifest === undefined) {
    return fail(...result.diagnostics, createDiagnostic("WOW7003", { input: `The sources under '${label}'` }));
  }
  return { manifest: result.manifest, sourceRoot: dir, origin: `the sources under ${label}`, ...(result.sources === undefined ? {} : { positions: result.sources.positions() }) };
}

function git(dir: string, args: readonly string[]): string {
  return gitBytes(dir, args).toString("utf8");
}

function gitBytes(dir: string, args: readonly string[]): Buffer {
  return execFileSync("git", ["-C", dir, ...args], { stdio: ["ignore", "pipe", "pipe"], maxBuffer: 256 * 1024 * 1024 });
}

/** The manifest of `dir` at revision `ref`: the committed manifest file, else its sources compiled. */
export function loadRevision(dir: string, ref: string, manifestPath = DEFAULT_MANIFEST): LoadedManifest {
  try {
    git(dir, ["rev-parse", "--verify", "--quiet", `${ref}^{commit}`]);
  } catch {
    fail(createDiagnostic("WOW7002", { ref, dir }));
  }
  let committed: LoadedManifest | undefined;
  try {
    const text = git(dir, ["show", `${ref}:./${manifestPath}`]);
    committed = { manifest: parseManifest(text, `${manifestPath} at ${ref}`), sourceRoot: dir, origin: `${manifestPath} at ${ref}` };
  } catch (error) {
    if (error instanceof DiffInputError) throw error;
  }
  if (committed !== undefined) {
    // Its positions: the sources file committed beside it, else those of the sources at `ref`.
    const beside = posix.join(posix.dirname(manifestPath), SOURCES_FILE_NAME);
    let sources: SourcesFile | undefined;
    try {
      sources = parseSourcesFile(git(dir, ["show", `${ref}:./${beside}`]));
    } catch {
      sources = undefined;
    }
    if (sources !== undefined) return { ...committed, sourceRoot: resolve(dir, posix.dirname(manifestPath), sources.root), positions: sources.positions };
    const positions = revisionSources(dir, ref, manifestPath, true)?.positions;
    return positions === undefined ? committed : { ...committed, positions };
  }
  return revisionSources(dir, ref, manifestPath, false)!;
}

/**
 * The sources of `dir` at `ref`, compiled. `quiet`: only for positions, so no error: undefined when
 * they do not compile.
 */
function revisionSources(dir: string, ref: string, manifestPath: string, quiet: boolean): LoadedManifest | undefined {
  // `-z`: names as they are, NUL-terminated (without it git quotes non-ASCII names: "caf\303\251.wow").
  const paths = git(dir, ["ls-tree", "-r", "-z", "--name-only", ref, "."])
    .split("\0")
    .filter((p) => p.endsWith(".wow") && !p.split("/").some((part) => part === "node_modules" || part.startsWith(".")));
  if (paths.length === 0) {
    if (quiet) return undefined;
    fail(createDiagnostic("WOW7001", { input: `${dir} at ${ref}`, reason: `it has neither ${manifestPath} nor .wow files there.` }));
  }
  // Bytes, decoded as a build decodes a file: a source that is not UTF-8 is WOW6004, not compiled
  // from a lossy text.
  const decoded = paths.map((path) => decodeSource(path, gitBytes(dir, ["show", `${ref}:./${path}`])));
  const invalid = decoded.flatMap((source) => source.invalid ?? []);
  const result = compileSources(decoded.map((source) => source.file));
  if (result.manifest === undefined || invalid.length > 0) {
    if (quiet) return undefined;
    return fail(...invalid, ...result.diagnostics, createDiagnostic("WOW7003", { input: `The sources of '${dir}' at ${ref}` }));
  }
  return { manifest: result.manifest, sourceRoot: dir, origin: `the sources at ${ref}`, ...(result.sources === undefined ? {} : { positions: result.sources.positions() }) };
}

/** One entry of `wowc.diff.json`, with where it is written (`wowc.diff.json:3`) for messages. */
export interface AcceptEntry {
  readonly key: string;
  readonly at: string;
}

/**
 * Accepted changes from `wowc.diff.json`: `{ "accept": ["RULE:element", …] }` (`label` names the file
 * in messages). An unknown rule (a typo) is an error, as with `--accept`: it would accept nothing.
 */
export function loadAcceptList(path: string, label = path): AcceptEntry[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return [];
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return fail(createDiagnostic("WOW7004", { path: label, reason: `it is not JSON (${(error as Error).message}).` }));
  }
  const accept = (value as { accept?: unknown } | null)?.accept;
  if (!Array.isArray(accept) || !accept.every((x) => typeof x === "string" && /^[A-Z_]+:.+$/.test(x))) {
    fail(createDiagnostic("WOW7004", { path: label, reason: '"accept" must be a list of "RULE:element" strings.' }));
  }
  const file = { path: label, text };
  let from = 0;
  return (accept as string[]).map((key) => {
    // Where the entry is written: its JSON string, after the previous entry's.
    const quoted = JSON.stringify(key);
    const found = text.indexOf(quoted, from);
    const start = found < 0 ? 0 : found;
    if (found >= 0) from = found + quoted.length;
    const line = text.slice(0, start).split("\n").length;
    const rule = key.slice(0, key.indexOf(":"));
    if (!(rule in rules)) {
      fail(createDiagnostic("WOW7004", { path: label, reason: `'${rule}' in "${key}" is not a rule, so it would accept nothing.` }, { file, start, end: start + (found < 0 ? 0 : quoted.length) }));
    }
    return { key, at: `${label}:${line}` };
  });
}

export const ACCEPT_FILE = "wowc.diff.json";
export const acceptFileIn = (dir: string) => join(dir, ACCEPT_FILE);
