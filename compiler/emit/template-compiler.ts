// The templates of templates/, read by template-reader.ts, compiled to plain closures that render
// with handlebars' semantics for that subset (`noEscape`, `strict` values, no `@data`): no helper
// calls, option objects or data frames per line.
import { readTemplate, type TemplateNode, type TemplatePath } from "./template-reader.js";

/**
 * Renders against the stack of contexts, innermost last (what `../` climbs), writing its pieces
 * into `out`: a file is joined once at the end rather than concatenated piece by piece (one rope
 * cell per piece), and `{{#each}}` pushes and pops its item rather than copying the stack.
 */
type Part = (stack: unknown[], out: Pieces) => void;
type Getter = (stack: readonly unknown[]) => unknown;

/** The pieces of the file being rendered: `items[0..count)`. */
interface Pieces {
  readonly items: string[];
  count: number;
}

export function compileTemplate(text: string, name: string): (view: object) => string {
  const render = program(readTemplate(text, name), name);
  // One list of pieces per template, reused by its renders (synchronous, never nested), which
  // make files of much the same size: a list grown from empty for each file cost its backing
  // store three times over (tens of megabytes of garbage on a large project).
  const items: string[] = [];
  return (view) => {
    const out: Pieces = { items, count: 0 };
    render([view], out);
    items.length = out.count; // an earlier, longer file's last pieces go
    return items.join("");
  };
}

function program(nodes: readonly TemplateNode[] | undefined, name: string): Part {
  const parts = (nodes ?? []).map((node) => part(node, name));
  if (parts.length === 1) return parts[0]!;
  // Indexed loops: most of a build runs before the optimizing compiler gets to these closures.
  return (stack, out) => {
    for (let i = 0; i < parts.length; i++) parts[i]!(stack, out);
  };
}

function part(node: TemplateNode, name: string): Part {
  switch (node.kind) {
    case "text": {
      const value = node.value;
      return (_stack, out) => {
        out.items[out.count++] = value;
      };
    }
    case "value": {
      if (node.path.depth === 0 && node.path.parts.length === 1) return ownValue(node.path, name);
      const get = lookup(node.path, true, name);
      return (stack, out) => {
        const value = get(stack);
        if (value !== undefined && value !== null) out.items[out.count++] = String(value);
      };
    }
    case "block":
      return block(node, name);
  }
}

/** `{{{name}}}`, the most common tag: a name of the current context, read without a lookup call. */
function ownValue(path: TemplatePath, name: string): Part {
  const key = path.parts[0]!;
  return (stack, out) => {
    const context = stack[stack.length - 1];
    if (typeof context !== "object" || context === null || !(key in context)) throw new Error(`template ${name}: "${key}" not defined in ${String(context)} (line ${path.line})`);
    const value = (context as Record<string, unknown>)[key];
    if (value !== undefined && value !== null) out.items[out.count++] = String(value);
  };
}

function block(node: Extract<TemplateNode, { kind: "block" }>, name: string): Part {
  const get = lookup(node.path, false, name);
  const fn = program(node.body, name);
  const inverse = program(node.inverse, name);
  switch (node.helper) {
    case "if":
      return (stack, out) => (isEmpty(get(stack)) ? inverse(stack, out) : fn(stack, out));
    case "unless":
      return (stack, out) => (isEmpty(get(stack)) ? fn(stack, out) : inverse(stack, out));
    case "each":
      return (stack, out) => {
        const items = get(stack);
        if (items === undefined || items === null || items === false) return inverse(stack, out);
        if (!Array.isArray(items)) throw new Error(`template ${name}: {{#each}} over something that is not an array`);
        if (items.length === 0) return inverse(stack, out);
        for (let i = 0; i < items.length; i++) {
          const item: unknown = items[i];
          // An item that is the current context itself is not pushed (handlebars keeps one frame).
          if (item === stack[stack.length - 1]) {
            fn(stack, out);
            continue;
          }
          stack.push(item);
          try {
            fn(stack, out);
          } finally {
            stack.pop();
          }
        }
      };
  }
}

/** Handlebars' `if`: false, "", 0, null, undefined and [] are empty. */
function isEmpty(value: unknown): boolean {
  return !value || (Array.isArray(value) && value.length === 0);
}

/**
 * The value of `path` (`this`, `name`, `../name`) in the stack. `strict` (a `{{{name}}}`): a name its
 * context does not hold is an error, as with handlebars' `strict`; a block's argument may be missing.
 */
function lookup(path: TemplatePath, strict: boolean, name: string): Getter {
  const { depth, parts } = path;
  return (stack) => {
    let value: unknown = stack[stack.length - 1 - depth];
    for (let i = 0; i < parts.length; i++) {
      const key = parts[i]!;
      const holds = typeof value === "object" && value !== null && key in value;
      if (!holds && (strict || i < parts.length - 1)) throw new Error(`template ${name}: "${key}" not defined in ${String(value)} (line ${path.line})`);
      value = holds ? (value as Record<string, unknown>)[key] : undefined;
    }
    return value;
  };
}
