// The generated SDK under the compiler options a host may turn on beyond `strict`, and its types for
// targets: a command goes only to an aggregate of the type that handles it (a scope's schedule, a
// saga's command and schedule, a job's command), a field-less message's body holds no property,
// and optional fields work with `exactOptionalPropertyTypes`. Type-level tests in
// fixtures/targets-type-errors.ts.txt (@ts-expect-error lines, which fail when unused).
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ESHOP, generate, readWowSources, REPO, strictOptions, tsFilesUnder, typeCheck, writeFiles } from "./helpers.js";

const FIXTURES = join(REPO, "test/emit/fixtures");

/** What a host may add to `strict`; the generated code must compile under each. */
const strictest: ts.CompilerOptions = {
  ...strictOptions,
  exactOptionalPropertyTypes: true,
  noUnusedParameters: true,
  noUnusedLocals: true,
  noImplicitReturns: true,
  noImplicitOverride: true,
  noUncheckedIndexedAccess: true,
  noPropertyAccessFromIndexSignature: true,
  noFallthroughCasesInSwitch: true,
};

let work: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "wowc-sdk-strict-"));
  const fixture = (name: string) => ({ path: name, text: readFileSync(join(FIXTURES, name), "utf8") });
  writeFiles(join(work, "eshop/generated"), generate(readWowSources(ESHOP)));
  writeFiles(join(work, "hostile/generated"), generate([fixture("hostile.wow")]));
  writeFiles(join(work, "targets/generated"), generate([fixture("targets.wow"), fixture("targets-billing.wow")]));
  mkdirSync(join(work, "targets/tests"), { recursive: true });
  copyFileSync(join(FIXTURES, "targets-type-errors.ts.txt"), join(work, "targets/tests/type-errors.ts"));
  copyFileSync(join(FIXTURES, "targets-messages.ts.txt"), join(work, "targets/tests/messages.ts"));
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The diagnostics of the generated and test files (the runtime's own sources are the repo tsconfig's business). */
function check(options: ts.CompilerOptions): string[] {
  return typeCheck(tsFilesUnder(work), options)
    .filter((line) => !line.startsWith("runtime/"))
    .map((line) => line.replace(/^.*?wowc-sdk-strict-[^/]+\//, "<tmp>/"));
}

describe("targets and bodies (tsc --strict)", () => {
  it("refuses each command aimed at an aggregate type that does not handle it, and a property in a field-less body", () => {
    expect(check(strictOptions)).toEqual([]);
  });
});

describe("type errors that name the declaration to change, and factories with named fields", () => {
  it("gives the message each @ts-expect-error of targets-messages.ts.txt names, on its next line", () => {
    const text = readFileSync(join(FIXTURES, "targets-messages.ts.txt"), "utf8").split("\n");
    // Without the directives, each marked line's errors, by line (1-based, in the stripped file).
    const expected = new Map<number, string>();
    const bare: string[] = [];
    for (const line of text) {
      const directive = /^\s*\/\/ @ts-expect-error "(.*)"$/.exec(line);
      if (directive !== null) expected.set(bare.length + 1, directive[1]!);
      else bare.push(line);
    }
    expect(expected.size).toBeGreaterThanOrEqual(10);
    const path = join(work, "targets/tests/messages-bare.ts");
    writeFileSync(path, bare.join("\n"));
    try {
      const errors = typeCheck([path], strictOptions).map((line) => /messages-bare\.ts:(\d+):\d+ TS\d+ (.*)$/.exec(line));
      const byLine = new Map<number, string[]>();
      for (const match of errors) {
        expect(match, "an error outside the test file").not.toBeNull();
        byLine.set(Number(match![1]), [...(byLine.get(Number(match![1])) ?? []), match![2]!]);
      }
      for (const [line, message] of expected) expect(byLine.get(line)?.join(" | "), `line ${line}: ${bare[line - 1]!.trim()}`).toContain(message);
      expect([...byLine.keys()].filter((line) => !expected.has(line))).toEqual([]);
    } finally {
      rmSync(path);
    }
  });
});

describe("tsc with exactOptionalPropertyTypes, noUnusedParameters and the other strict options", () => {
  it("accepts the generated SDKs (eshop, hostile, targets) and the type-level tests", () => {
    expect(check(strictest)).toEqual([]);
  });
});
