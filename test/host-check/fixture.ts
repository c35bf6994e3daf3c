// A host project on disk for a host cross-check case: `.wow` sources, the SDK generated from them
// by the compiler API, a tsconfig (wowc/runtime mapped to this repository's runtime) and host files.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Diagnostic } from "../../compiler/diagnostics/diagnostic.js";
import { checkHost } from "../../compiler/host-check/host-check.js";
import { build } from "../../compiler/program/build.js";
import { dedent, describe as describeDiagnostic } from "../compiler/helpers.js";

const repo = fileURLToPath(new URL("../../", import.meta.url));

export interface HostCase {
  readonly code: string;
  readonly title: string;
  /** `.wow` sources by path. */
  readonly wow: Readonly<Record<string, string>>;
  /** Host TypeScript files by path (under `src/`). */
  readonly host: Readonly<Record<string, string>>;
  /** Every diagnostic as `file CODE line:col`, sorted. */
  readonly expected: readonly string[];
  /** The tsconfig given to `--host` (default: the fixture's own). */
  readonly tsconfig?: string;
}

export function writeFixture(c: Pick<HostCase, "wow" | "host">): string {
  const root = mkdtempSync(join(tmpdir(), "wowc-host-"));
  for (const [path, text] of Object.entries({ ...c.wow, ...c.host })) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), dedent(text));
  }
  const compilerOptions = {
    target: "ES2022",
    module: "NodeNext",
    moduleResolution: "NodeNext",
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    typeRoots: [join(repo, "node_modules/@types")],
    types: ["node"],
    paths: { "wowc/runtime": [join(repo, "runtime/index.ts")] },
  };
  writeFileSync(join(root, "tsconfig.json"), JSON.stringify({ compilerOptions, include: ["src/**/*.ts", "generated/**/*.ts"] }, null, 2));
  return root;
}

/** Builds the SDK and cross-checks the host; throws when the `.wow` sources themselves have errors. */
export function runHostCase(c: HostCase): Diagnostic[] {
  const root = writeFixture(c);
  const built = build({ root, write: true });
  const errors = built.diagnostics.filter((d) => d.severity === "error");
  if (errors.length > 0) throw new Error(`fixture does not build: ${errors.map((d) => `${d.code} ${d.message}`).join("; ")}`);
  return checkHost({ root, sdkDir: join(root, "generated"), tsconfig: join(root, c.tsconfig ?? "tsconfig.json"), model: built.model });
}

export function describeAll(diagnostics: readonly Diagnostic[]): string[] {
  return diagnostics.map((d) => describeDiagnostic(d, true));
}
