// Reads the templates of templates/ into a tree: the small subset of handlebars they are written in,
// read without loading handlebars (≈ 80 ms of every build). Tags: `{{{name}}}` (or `{{name}}`: no
// escaping either way), `{{{../name}}}`, `{{{this}}}`, `{{#each name}}`, `{{#if name}}`,
// `{{#unless name}}`, `{{else}}`, `{{/name}}` and comments. A block tag, `{{else}}` or a comment
// alone on its line takes the whole line with it, its line break included, as handlebars'
// "standalone" rule does. Anything else is refused, naming the line. A test holds the tree equal to
// the one handlebars reads, for every template.

export interface TemplatePath {
  /** How many `../` climb out of blocks. */
  readonly depth: number;
  /** The names after them (`this` alone: none). */
  readonly parts: readonly string[];
  /** The template's line, for errors. */
  readonly line: number;
}

export type TemplateNode =
  | { readonly kind: "text"; readonly value: string }
  | { readonly kind: "value"; readonly path: TemplatePath }
  | { readonly kind: "block"; readonly helper: "each" | "if" | "unless"; readonly path: TemplatePath; readonly body: readonly TemplateNode[]; readonly inverse: readonly TemplateNode[] | undefined };

interface Tag {
  /** `value`, `open`, `else`, `close` or `comment`. */
  readonly type: "value" | "open" | "else" | "close" | "comment";
  /** Where the tag starts and ends in the text; a standalone tag's span is its whole line. */
  start: number;
  end: number;
  readonly helper?: string;
  readonly path?: TemplatePath;
  readonly line: number;
}

/** The tree of template `name`'s text. */
export function readTemplate(text: string, name: string): readonly TemplateNode[] {
  const tags = scanTags(text, name);
  for (const tag of tags) if (tag.type !== "value") takeLine(text, tag);
  return tree(text, tags, name);
}


function refuse(name: string, line: number, what: string): Error {
  return new Error(`template ${name}: ${what} is not supported (line ${line})`);
}

function scanTags(text: string, name: string): Tag[] {
  const tags: Tag[] = [];
  let line = 1;
  let counted = 0; // line breaks are counted up to here
  let at = text.indexOf("{{");
  while (at >= 0) {
    for (; counted < at; counted++) if (text.charCodeAt(counted) === 10) line++;
    if (at > 0 && text[at - 1] === "\\") throw refuse(name, line, "an escaped '{{'");
    let end: number;
    if (text.startsWith("{{!--", at)) {
      end = text.indexOf("--}}", at) + 4;
      if (end < 4) throw refuse(name, line, "a comment left open");
      tags.push({ type: "comment", start: at, end, line });
    } else if (text.startsWith("{{!", at)) {
      end = text.indexOf("}}", at) + 2;
      if (end < 2) throw refuse(name, line, "a comment left open");
      tags.push({ type: "comment", start: at, end, line });
    } else {
      const triple = text.startsWith("{{{", at);
      const close = triple ? "}}}" : "}}";
      end = text.indexOf(close, at);
      if (end < 0) throw refuse(name, line, "a tag left open");
      const inner = text.slice(at + (triple ? 3 : 2), end).trim();
      end += close.length;
      tags.push(tag(inner, triple, at, end, line, name));
    }
    at = text.indexOf("{{", end);
  }
  return tags;
}

const HELPERS: ReadonlySet<string> = new Set(["each", "if", "unless"]);

function tag(inner: string, triple: boolean, start: number, end: number, line: number, name: string): Tag {
  if (!triple && inner.startsWith("#")) {
    const [helper, argument, ...rest] = inner.slice(1).split(/\s+/);
    if (helper === undefined || !HELPERS.has(helper)) throw refuse(name, line, `helper '${helper ?? ""}'`);
    if (argument === undefined || rest.length > 0) throw refuse(name, line, `{{#${helper}}} arguments`);
    return { type: "open", helper, path: path(argument, line, name), start, end, line };
  }
  if (!triple && inner.startsWith("/")) return { type: "close", helper: inner.slice(1).trim(), start, end, line };
  if (!triple && inner === "else") return { type: "else", start, end, line };
  return { type: "value", path: path(inner, line, name), start, end, line };
}

/** `this`, `name`, `a.b`, `../name`: anything else (data, literals, arguments, partials) is refused. */
function path(text: string, line: number, name: string): TemplatePath {
  let rest = text;
  let depth = 0;
  while (rest.startsWith("../")) {
    depth++;
    rest = rest.slice(3);
  }
  const parts = rest.split(".");
  if (parts[0] === "this") parts.shift();
  if (!parts.every((part) => /^[A-Za-z_$][\w$]*$/.test(part)) || (parts.length === 0 && rest !== "this")) {
    throw refuse(name, line, `an expression other than a name ('${text}')`);
  }
  return { depth, parts, line };
}

/**
 * A tag alone on its line (only spaces and tabs beside it) widens its span to the whole line and its
 * line break, which are then left out of the output.
 */
function takeLine(text: string, tag: Tag): void {
  let from = tag.start;
  while (from > 0 && (text[from - 1] === " " || text[from - 1] === "\t")) from--;
  if (from > 0 && text[from - 1] !== "\n") return;
  let to = tag.end;
  while (to < text.length && (text[to] === " " || text[to] === "\t")) to++;
  if (to < text.length) {
    if (text[to] === "\r" && text[to + 1] === "\n") to += 2;
    else if (text[to] === "\n") to += 1;
    else return;
  }
  tag.start = from;
  tag.end = to;
}

/** Nests the tags' blocks, with the text between tags. */
function tree(text: string, tags: readonly Tag[], name: string): TemplateNode[] {
  interface Open {
    readonly tag: Tag;
    body: TemplateNode[];
    inverse: TemplateNode[] | undefined;
  }
  const root: TemplateNode[] = [];
  const open: Open[] = [];
  let into = root;
  let at = 0;
  for (const tag of tags) {
    // (A tag that shares its line with another is not standalone: spans never overlap.)
    if (tag.start > at) into.push({ kind: "text", value: text.slice(at, tag.start) });
    at = tag.end;
    switch (tag.type) {
      case "value":
        into.push({ kind: "value", path: tag.path! });
        break;
      case "comment":
        break;
      case "open": {
        const block: Open = { tag, body: [], inverse: undefined };
        open.push(block);
        into = block.body;
        break;
      }
      case "else": {
        const block = open[open.length - 1];
        if (block === undefined || block.inverse !== undefined) throw refuse(name, tag.line, "an {{else}} outside a block");
        block.inverse = [];
        into = block.inverse;
        break;
      }
      case "close": {
        const block = open.pop();
        if (block === undefined || block.tag.helper !== tag.helper) throw refuse(name, tag.line, `{{/${tag.helper ?? ""}}} without its {{#${tag.helper ?? ""}}}`);
        const parent = open[open.length - 1];
        into = parent === undefined ? root : (parent.inverse ?? parent.body);
        into.push({ kind: "block", helper: block.tag.helper as "each" | "if" | "unless", path: block.tag.path!, body: block.body, inverse: block.inverse });
        break;
      }
    }
  }
  if (open.length > 0) throw refuse(name, open[open.length - 1]!.tag.line, `{{#${open[open.length - 1]!.tag.helper ?? ""}}} left open`);
  if (at < text.length) into.push({ kind: "text", value: text.slice(at) });
  return root;
}
