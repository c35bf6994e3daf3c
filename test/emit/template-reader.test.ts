// The template reader (compiler/emit/template-reader.ts) against handlebars itself: for every
// template of templates/ and for the layouts a template may use, the tree it reads is the one
// handlebars parses (the same text between tags, after its standalone-line rule; the same names and
// blocks), so rendering is unchanged; what the subset leaves out is refused with its line.
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import type HandlebarsModule from "handlebars";
import { describe, expect, it } from "vitest";
import { readTemplate, type TemplateNode } from "../../compiler/emit/template-reader.js";

const handlebars = createRequire(import.meta.url)("handlebars") as typeof HandlebarsModule;
const templates = fileURLToPath(new URL("../../templates/", import.meta.url));

type Plain = string | { value: string } | { block: string; path: string; body: Plain[]; inverse: Plain[] | null };

/** Adjacent texts as one, empty ones left out: the reader and handlebars may cut text differently. */
function merged(items: Plain[]): Plain[] {
  const out: Plain[] = [];
  for (const item of items) {
    if (typeof item === "string") {
      if (item === "") continue;
      const last = out[out.length - 1];
      if (typeof last === "string") out[out.length - 1] = last + item;
      else out.push(item);
    } else out.push(item);
  }
  return out;
}

function pathText(depth: number, parts: readonly string[]): string {
  return `${"../".repeat(depth)}${parts.length === 0 ? "this" : parts.join(".")}`;
}

function fromReader(nodes: readonly TemplateNode[] | undefined): Plain[] {
  return merged((nodes ?? []).map((node): Plain => {
    if (node.kind === "text") return node.value;
    if (node.kind === "value") return { value: pathText(node.path.depth, node.path.parts) };
    return { block: node.helper, path: pathText(node.path.depth, node.path.parts), body: fromReader(node.body), inverse: node.inverse === undefined ? null : fromReader(node.inverse) };
  }));
}

function fromHandlebars(program: hbs.AST.Program | undefined): Plain[] {
  const items: Plain[] = [];
  for (const statement of program?.body ?? []) {
    if (statement.type === "ContentStatement") items.push((statement as hbs.AST.ContentStatement).value);
    else if (statement.type === "MustacheStatement") {
      const path = (statement as hbs.AST.MustacheStatement).path as hbs.AST.PathExpression;
      items.push({ value: pathText(path.depth, path.parts) });
    } else if (statement.type === "BlockStatement") {
      const block = statement as hbs.AST.BlockStatement;
      const argument = block.params[0] as hbs.AST.PathExpression;
      items.push({ block: (block.path as hbs.AST.PathExpression).original, path: pathText(argument.depth, argument.parts), body: fromHandlebars(block.program), inverse: block.inverse === undefined ? null : fromHandlebars(block.inverse) });
    } else if (statement.type !== "CommentStatement") throw new Error(`unexpected ${statement.type}`);
  }
  return merged(items);
}

function expectSameTree(text: string, name: string): void {
  expect(fromReader(readTemplate(text, name)), name).toEqual(fromHandlebars(handlebars.parse(text)));
}

describe("reading templates", () => {
  it("reads every template of templates/ as handlebars does", () => {
    const names = readdirSync(templates).filter((file) => file.endsWith(".hbs"));
    expect(names.length).toBe(8);
    for (const file of names) expectSameTree(readFileSync(`${templates}${file}`, "utf8"), file);
  });

  it("takes a block tag, an else or a comment alone on its line with the line, as handlebars does", () => {
    const layouts = [
      "a\n{{#each items}}\n  {{{name}}}\n{{/each}}\nb\n",
      "  {{#if x}}  \n yes\n  {{else}}\n no\n  {{/if}}\n",
      "{{#each a}}\n{{#each b}}\n{{{../name}}} {{{this}}}\n{{/each}}\n{{/each}}",
      "{{#if a}}x{{/if}} and {{#unless b}}y{{else}}z{{/unless}}\n",
      "line {{#if a}}\nx\n{{/if}} tail\n",
      "{{! a comment }}\n{{!-- a {{long}} one --}}\ntext\n",
      "\r\n{{#if a}}\r\nx\r\n{{/if}}\r\n",
      "{{{header}}}\n{{#each imports}}\n{{{this}}}\n{{/each}}\n{{#each xs}}\n\n{{{doc}}}x\n{{/each}}",
      "{{#each a}}\n{{#if b}}\n  {{{c.d}}}\n{{/if}}\n{{/each}}\n",
      "{{name}} {{this.name}} {{{ spaced }}}\n",
    ];
    for (const [i, text] of layouts.entries()) expectSameTree(text, `layout-${i}`);
  });

  it("refuses what the subset leaves out, naming the line", () => {
    const refused: [string, RegExp][] = [
      ["a\n{{> partial}}", /expression other than a name.*line 2/],
      ["{{#with a}}x{{/with}}", /helper 'with'.*line 1/],
      ["{{@index}}", /expression other than a name/],
      ["{{foo bar}}", /expression other than a name/],
      ["{{#each a b}}{{/each}}", /arguments/],
      ["\\{{x}}", /escaped/],
      ["x\n\n{{#if a}}", /left open.*line 3/],
      ["{{#if a}}{{/each}}", /without its/],
      ["{{else}}", /outside a block/],
      ["{{x", /left open/],
    ];
    for (const [text, message] of refused) expect(() => readTemplate(text, "t"), text).toThrow(message);
  });
});
