// The hostile-name suite: thousands of generated `.wow` inputs (hostile-names.ts), each with a name
// TypeScript or JavaScript gives a meaning (reserved words, contextual keywords, `__proto__`,
// `constructor`, `new`, `then`, globals), a name of the generated code's own, a name of odd shape
// (`_`, `a-b-c`, `$`, letters beyond ASCII) or two names that meet after a change of case, in one of
// the positions a name can take. Each is either refused with an error located at that name, or
// compiled: then its SDK and a consumer that imports it type-check under `strict`,
// `noUncheckedIndexedAccess` and `exactOptionalPropertyTypes` — every accepted input in one program.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, sep } from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Diagnostic } from "../../compiler/diagnostics/diagnostic.js";
import { positionOf } from "../../compiler/diagnostics/line-map.js";
import { emitSdk } from "../../compiler/emit/emit.js";
import { compileSources } from "../../compiler/program/compile.js";
import { strictOptions } from "../emit/helpers.js";
import { hostileInputs, slots, type HostileInput, type Slot } from "./hostile-names.js";

const options: ts.CompilerOptions = { ...strictOptions, noUncheckedIndexedAccess: true, exactOptionalPropertyTypes: true };

interface Outcome {
  readonly input: HostileInput;
  readonly errors: readonly Diagnostic[];
  /** The consumer's path, for an input that compiled. */
  readonly consumer?: string;
  readonly thrown?: unknown;
}

let work: string;
let outcomes: Outcome[];

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "wowc-hostile-"));
  outcomes = hostileInputs().map((input, i): Outcome => {
    try {
      const result = compileSources(input.sources, { manifest: false });
      const errors = result.diagnostics.filter((d) => d.severity === "error");
      if (errors.length > 0) return { input, errors };
      const dir = join(work, String(i));
      for (const file of emitSdk(result.model)) {
        const path = join(dir, "generated", file.path);
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, file.text);
        if (file.path === "sdk.ts") sharedSdk(file.text);
      }
      const consumer = join(dir, "consumer.ts");
      writeFileSync(consumer, `import * as sdk from "./generated/index.js";\n\nexport const imported: object = sdk;\n`);
      return { input, errors, consumer };
    } catch (thrown) {
      return { input, errors: [], thrown };
    }
  });
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

let sdk: { readonly text: string; readonly path: string } | undefined;

/**
 * sdk.ts holds no name of the model: every input's is the same text (this fails when one differs),
 * so the program reads one copy for all of them (checked once, not once per input).
 */
function sharedSdk(text: string): void {
  if (sdk === undefined) {
    const path = join(work, "shared", "sdk.ts");
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    sdk = { text, path };
  }
  if (sdk.text !== text) throw new Error("sdk.ts differs between inputs: it can no longer be shared");
}

/** A compiler host that resolves every input's `generated/sdk.js` to the shared copy. */
function sharingHost(): ts.CompilerHost {
  const host = ts.createCompilerHost(options);
  host.resolveModuleNameLiterals = (literals, containingFile, redirected, compilerOptions) =>
    literals.map((literal) => {
      const resolved = ts.resolveModuleName(literal.text, containingFile, compilerOptions, host, undefined, redirected);
      const module = resolved.resolvedModule;
      if (sdk === undefined || module === undefined || !module.resolvedFileName.endsWith(`${sep}generated${sep}sdk.ts`)) return resolved;
      return { resolvedModule: { ...module, resolvedFileName: sdk.path } };
    });
  return host;
}

/** `main.wow:3:7 WOW3004` for an error; what it points at, whether a hostile name. */
function located(d: Diagnostic): string {
  if (d.loc === undefined) return `${d.code} (nowhere)`;
  const { line, column } = positionOf(d.loc.file, d.loc.start);
  return `${d.loc.file.path}:${line}:${column} ${d.code}`;
}

describe("hostile names", () => {
  it("makes at least 1,000 inputs, covering every slot with both outcomes", () => {
    expect(outcomes.length).toBeGreaterThanOrEqual(1000);
    expect(outcomes[0]!.errors.map(located), "the base project is clean").toEqual([]);
    for (const slot of Object.keys(slots) as Slot[]) {
      const inSlot = outcomes.filter((o) => o.input.title.startsWith(`${slot} = `));
      expect(inSlot.filter((o) => o.consumer !== undefined).length, `accepted in ${slot}`).toBeGreaterThan(0);
      expect(inSlot.filter((o) => o.errors.length > 0).length, `refused in ${slot}`).toBeGreaterThan(0);
    }
  });

  it("refuses an input only with errors that have a place and a code, one of them at a hostile name, and never throws", () => {
    const wrong: string[] = [];
    for (const { input, errors, thrown } of outcomes) {
      if (thrown !== undefined) wrong.push(`${input.title}: threw ${String(thrown)}`);
      if (errors.length === 0) continue;
      const unplaced = errors.filter((d) => d.loc === undefined || !/^WOW\d{4}$/.test(d.code) || d.code === "WOW9999");
      if (unplaced.length > 0) wrong.push(`${input.title}: ${unplaced.map(located).join(", ")}`);
      const atName = errors.some((d) => d.loc !== undefined && input.spots.some((s) => s.path === d.loc!.file.path && d.loc!.start < s.end && d.loc!.end >= s.start));
      if (!atName) wrong.push(`${input.title}: no error at the name (${errors.map(located).join(", ")})`);
    }
    expect(wrong).toEqual([]);
  });

  it("type-checks the SDK of every accepted input and its consumer (strict, noUncheckedIndexedAccess, exactOptionalPropertyTypes), in one program", () => {
    const accepted = outcomes.filter((o) => o.consumer !== undefined);
    const program = ts.createProgram({ rootNames: accepted.map((o) => o.consumer!), options, host: sharingHost() });
    // The runtime's own sources (wowc/runtime) are the repository tsconfig's business.
    const diagnostics = ts.getPreEmitDiagnostics(program).filter((d) => d.file === undefined || d.file.fileName.startsWith(work));
    const byInput = new Map<string, string[]>();
    for (const d of diagnostics) {
      const file = d.file!;
      const index = Number(file.fileName.slice(work.length + 1).split("/")[0]);
      const { line, character } = file.getLineAndCharacterOfPosition(d.start ?? 0);
      const title = outcomes[index]?.input.title ?? "?";
      const list = byInput.get(title) ?? [];
      list.push(`${file.fileName.slice(work.length + 1)}:${line + 1}:${character + 1} TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`);
      byInput.set(title, list);
    }
    expect(Object.fromEntries(byInput)).toEqual({});
  });
});
