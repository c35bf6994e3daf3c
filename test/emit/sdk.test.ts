// The generated SDK: golden output for examples/eshop (UPDATE_GOLDEN=1 refreshes it), determinism,
// and one strict type-check (TypeScript API) of the SDK + the example's implementation + type-level
// tests (@ts-expect-error lines, which fail when unused) + the hostile fixture.
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ESHOP, generate, readWowSources, REPO, tsFilesUnder, typeCheck, writeFiles } from "./helpers.js";
import ts from "typescript";
import type { EmittedFile } from "../../compiler/emit/emit.js";

const GOLDEN = join(REPO, "test/emit/golden/eshop");
const FIXTURES = join(REPO, "test/emit/fixtures");

let eshop: EmittedFile[];
let hostile: EmittedFile[];
let work: string;

beforeAll(() => {
  eshop = generate(readWowSources(ESHOP));
  hostile = generate([{ path: "hostile.wow", text: readFileSync(join(FIXTURES, "hostile.wow"), "utf8") }]);
  work = mkdtempSync(join(tmpdir(), "wowc-sdk-"));
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("golden output for examples/eshop", () => {
  it("matches test/emit/golden/eshop (UPDATE_GOLDEN=1 to refresh)", () => {
    if (process.env.UPDATE_GOLDEN === "1") {
      rmSync(GOLDEN, { recursive: true, force: true });
      writeFiles(GOLDEN, eshop);
    }
    const golden = tsFilesUnder(GOLDEN).length;
    expect(golden, "golden files (ts)").toBe(eshop.filter((f) => f.path.endsWith(".ts")).length);
    for (const file of eshop) expect(file.text, file.path).toBe(readFileSync(join(GOLDEN, file.path), "utf8"));
  });

  it("is deterministic: same bytes for the sources in any order, no time stamps or versions", () => {
    const again = generate(readWowSources(ESHOP).reverse());
    expect(again).toEqual(eshop);
    for (const file of eshop) {
      expect(file.text).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:/);
      expect(file.text).not.toContain(REPO);
    }
  });

  it("imports only wowc/runtime and sibling generated files", () => {
    for (const file of eshop.filter((f) => f.path.endsWith(".ts"))) {
      const specifiers = [...file.text.matchAll(/from "([^"]+)"/g)].map((m) => m[1]!);
      for (const specifier of specifiers) expect(specifier === "wowc/runtime" || specifier.startsWith("./") || specifier.startsWith("../"), `${file.path}: ${specifier}`).toBe(true);
    }
  });
});

describe("doc comments", () => {
  it("carries the state block's doc comment onto the state interface, and names the aggregate without one", () => {
    const files = generate([
      {
        path: "shop.wow",
        text: "context shop\naggregate Cart {\n  /** What a cart holds between visits. */\n  state { items: int }\n  @CreateAggregate\n  command Open {}\n  event Opened {}\n  @OnCommand(produces = [Opened])\n  on Open\n}\naggregate Till {\n  state { total: int }\n  @CreateAggregate\n  command Start {}\n  event Started {}\n  @OnCommand(produces = [Started])\n  on Start\n}\n",
      },
    ]);
    const text = files.find((f) => f.path === "shop/aggregates.ts")!.text;
    expect(text).toContain("/** What a cart holds between visits. */\nexport interface CartState {");
    expect(text).toContain("/** The state of aggregate Till. */\nexport interface TillState {");
  });
});

describe("the hostile fixture", () => {
  it("escapes docs, quotes, backticks and ${ and quotes nothing into code", () => {
    const all = hostile.map((f) => f.text).join("\n");
    // The star-slash look-alike is in the source; a real `*/` inside a doc would end the comment.
    // sdk.ts holds no text of the model (the same bytes for every build): its template literal
    // types (`${Name} is not in ${Where}`) are its own code, not a doc that leaked into it.
    expect(hostile.find((f) => f.path === "sdk.ts")!.text).toBe(eshop.find((f) => f.path === "sdk.ts")!.text);
    for (const file of hostile.filter((f) => f.path.endsWith(".ts") && f.path !== "sdk.ts")) {
      for (const comment of file.text.match(/\/\*\*[\s\S]*?\*\//g) ?? []) {
        expect(comment.slice(3, -2)).not.toContain("*/");
        expect(comment).not.toContain("\u2028");
      }
      // Outside comments and string literals, no fragment of the docs appears.
      const code = file.text.replace(/\/\*\*[\s\S]*?\*\//g, "").replace(/\/\/.*$/gm, "").replace(/"(?:[^"\\]|\\.)*"/g, '""');
      expect(code).not.toContain("${");
      expect(code).not.toContain("`");
      expect(code).not.toContain("evil");
    }
    expect(all).toContain("readonly class: string;");
    expect(all).toContain("export function Open($fields: Open): OpenCommand {");
    expect(all).toContain('body: { default: $fields.default, delete: $fields.delete, weird: $fields.weird, ["__proto__"]: $fields["__proto__"] }');
    expect(all).toContain('body: { "a-b-c": $fields["a-b-c"], "a_b-c": $fields["a_b-c"] }');
  });

  it("makes __proto__ an own property of the objects it builds, not their prototype", () => {
    // In an object literal, `__proto__: x` and `"__proto__": x` set the prototype; only the computed
    // key makes a property. Run the generated enum object and command factory to see which it is.
    const source = ["types.ts", "aggregates.ts"].map((name) => hostile.find((f) => f.path === `hostile/${name}`)!.text).join("\n");
    const kind = evaluate(source, "Kind") as Record<string, string>;
    expect(Object.keys(kind)).toEqual(["class", "default", "new", "__proto__"]);
    expect(Object.getPrototypeOf(kind)).toBe(Object.prototype);
    const open = evaluate(source, "Open") as (...args: unknown[]) => { body: object };
    // The fields as JSON gives them: `__proto__` an own property of the argument too.
    const body = open(JSON.parse('{"default": "d", "delete": 1, "weird": {}, "__proto__": "__proto__"}')).body;
    expect(Object.hasOwn(body, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(body)).toBe(Object.prototype);
    // The registration's body schema: the field is a property of `properties`, as JSON would have it.
    const defineBox = evaluate(source, "defineBox") as (impl: object) => { commands: Record<string, { produces: string[]; schedules: string[]; bodySchema: { properties: object } }> };
    const registration = defineBox({}).commands["hostile.Open"]!;
    expect(Object.hasOwn(registration.bodySchema.properties, "__proto__")).toBe(true);
    expect(Object.keys(registration.bodySchema.properties)).toEqual(["__proto__", "default", "delete", "weird"]);
    expect([registration.produces, registration.schedules]).toEqual([["hostile.Opened"], ["hostile.Shut", "hostile.Open"]]);
  });
});

/** Transpiles generated TypeScript (imports dropped) and returns the value it declares as `name`. */
function evaluate(source: string, name: string): unknown {
  const body = source.replace(/^import [^;]*;$/gm, "").replace(/^export /gm, "");
  const js = ts.transpileModule(body, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.None } }).outputText;
  const $wow = { aggregateType: (context: string, aggregate: string) => ({ context, aggregate }) }; // what the modules call at load
  return new Function("$wow", `${js}\nreturn ${name};`)($wow);
}

describe("tsc --noEmit --strict", () => {
  it("accepts the SDK, the example's implementation and the hostile SDK, and every @ts-expect-error is used", () => {
    // The example's implementation is type-checked from a copy beside the SDK: the example's own
    // generated/ belongs to `wowc build` (a file written there without its list is WOW6005).
    writeFiles(join(work, "eshop/generated"), eshop);
    cpSync(join(ESHOP, "src"), join(work, "eshop/src"), { recursive: true });
    mkdirSync(join(work, "eshop/tests"), { recursive: true });
    copyFileSync(join(FIXTURES, "eshop-type-errors.ts.txt"), join(work, "eshop/tests/type-errors.ts"));
    writeFiles(join(work, "hostile/generated"), hostile);
    mkdirSync(join(work, "hostile/tests"), { recursive: true });
    writeFileSync(join(work, "hostile/tests/type-errors.ts"), readFileSync(join(FIXTURES, "hostile-type-errors.ts.txt"), "utf8"));
    const roots = [...tsFilesUnder(join(work, "eshop")), ...tsFilesUnder(join(work, "hostile"))];
    expect(typeCheck(roots).map((line) => line.replace(work, "<tmp>"))).toEqual([]);
  });
});
