// The template compiler (compiler/emit/template-compiler.ts) renders as handlebars does with the
// options the generator used to pass it (`noEscape`, `strict`): the same text for the same view,
// and an error naming the line where handlebars' strict mode refuses a missing name.
import { createRequire } from "node:module";
import type HandlebarsModule from "handlebars";
import { describe, expect, it } from "vitest";
import { compileTemplate } from "../../compiler/emit/template-compiler.js";

const handlebars = createRequire(import.meta.url)("handlebars") as typeof HandlebarsModule;

const byHandlebars = (text: string, view: object): string => handlebars.compile(text, { noEscape: true, strict: true })(view);

const cases: ReadonlyArray<readonly [name: string, text: string, view: object]> = [
  ["own names, numbers and booleans", "{{{a}}}-{{{n}}}-{{{t}}}-{{{f}}}<", { a: "x<y>&", n: 0, t: true, f: false }],
  ["null and undefined print nothing", "[{{{a}}}][{{{b}}}]", { a: null, b: undefined }],
  ["a dotted path", "{{{a.b.c}}}", { a: { b: { c: "deep" } } }],
  ["each with this and ../", "{{#each items}}{{{this}}}/{{{../sep}}};{{/each}}", { items: ["a", "b"], sep: "|" }],
  ["each of objects, nested, climbing two levels", "{{#each rows}}{{#each cells}}{{{../../top}}}{{{../name}}}{{{v}}} {{/each}}{{/each}}", { top: "T", rows: [{ name: "r1", cells: [{ v: 1 }, { v: 2 }] }, { name: "r2", cells: [] }] }],
  ["each's else for an empty list and a missing one", "{{#each a}}x{{else}}none{{/each}}/{{#each b}}x{{else}}none{{/each}}", { a: [] }],
  ["if and unless on empty values", "{{#if e}}1{{else}}0{{/if}}{{#if z}}1{{else}}0{{/if}}{{#if s}}1{{else}}0{{/if}}{{#unless e}}u{{/unless}}{{#if full}}F{{/if}}", { e: [], z: 0, s: "", full: [1] }],
  // Handlebars pushes no frame for an item that is the current context: `../` then climbs past it.
  ["an item that is the context itself keeps one frame", "{{#each list}}{{#each list}}[{{{name}}}|{{{../name}}}]{{/each}}{{/each}}", (() => {
    const inner = { name: "inner", list: [] as unknown[] };
    inner.list.push(inner, { name: "other" });
    return { name: "view", list: [inner] };
  })()],
  ["standalone block lines", "a\n{{#each xs}}\n- {{{this}}}\n{{/each}}\nb\n", { xs: ["1", "2"] }],
];

describe("compiled templates", () => {
  for (const [name, text, view] of cases) {
    it(`render as handlebars does: ${name}`, () => {
      expect(compileTemplate(text, "case")(view)).toBe(byHandlebars(text, view));
    });
  }

  it("refuse a name the context does not hold, naming the template and line, as strict handlebars does", () => {
    const text = "line one\n{{{present}}}\n{{{absent}}}\n";
    expect(() => byHandlebars(text, { present: 1 })).toThrow(/"absent" not defined/);
    expect(() => compileTemplate(text, "types")({ present: 1 })).toThrow('template types: "absent" not defined in [object Object] (line 3)');
    expect(() => compileTemplate("{{#each xs}}{{{missing}}}{{/each}}", "t")({ xs: [{}] })).toThrow(/"missing" not defined .*\(line 1\)/);
    expect(() => compileTemplate("{{{a.b}}}", "t")({ a: {} })).toThrow(/"b" not defined/);
  });

  it("let a block's argument be missing, and refuse an each over what is not a list", () => {
    expect(compileTemplate("{{#if nothing}}x{{/if}}{{#each none}}y{{/each}}ok", "t")({})).toBe("ok");
    expect(() => compileTemplate("{{#each s}}x{{/each}}", "t")({ s: "text" })).toThrow(/not an array/);
  });
});
