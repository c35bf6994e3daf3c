// Test helpers: compile `.wow` sources, generate the SDK, and type-check TypeScript with the
// TypeScript API (no process start), `wowc/runtime` mapped onto runtime/index.ts.
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import type { SourceFile } from "../../compiler/ast.js";
import { emitSdk, type EmittedFile } from "../../compiler/emit/emit.js";
import { compileSources } from "../../compiler/program/compile.js";
import { filesUnder } from "../support/files.js";

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const ESHOP = join(REPO, "examples/eshop");

export function readWowSources(root: string): SourceFile[] {
  return readdirSync(root)
    .filter((name) => name.endsWith(".wow"))
    .sort()
    .map((name) => ({ path: name, text: readFileSync(join(root, name), "utf8") }));
}

/** Compiles sources that must have no errors and returns the generated SDK files. */
export function generate(sources: readonly SourceFile[]): EmittedFile[] {
  const result = compileSources(sources, { manifest: false });
  const errors = result.diagnostics.filter((d) => d.severity === "error");
  if (errors.length > 0) throw new Error(`sources have errors: ${errors.map((d) => `${d.code} ${d.message}`).join("; ")}`);
  return emitSdk(result.model);
}

export function writeFiles(dir: string, files: readonly EmittedFile[]): void {
  for (const file of files) {
    const path = join(dir, file.path);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, file.text);
  }
}

export const strictOptions: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  esModuleInterop: true,
  types: ["node"],
  paths: { "wowc/runtime": [join(REPO, "runtime/index.ts")] },
};

/** `tsc --noEmit --strict` on the root files: the diagnostics as `path:line:col TSxxxx message`. */
export function typeCheck(rootNames: readonly string[], options: ts.CompilerOptions = strictOptions): string[] {
  const program = ts.createProgram({ rootNames, options });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const message = ts.flattenDiagnosticMessageText(d.messageText, " ");
    if (d.file === undefined || d.start === undefined) return `TS${d.code} ${message}`;
    const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
    return `${relative(REPO, d.file.fileName).split(sep).join("/")}:${line + 1}:${character + 1} TS${d.code} ${message}`;
  });
}

export function tsFilesUnder(dir: string): string[] {
  return filesUnder(dir).filter((path) => path.endsWith(".ts"));
}
