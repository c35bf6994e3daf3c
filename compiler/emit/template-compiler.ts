// The handlebars templates of templates/ compiled to plain closures. Handlebars parses each template
// (and removes its standalone block lines); the subset wowc's templates use — `{{{name}}}`,
// `{{{../name}}}`, `{{{this}}}`, `{{#each name}}`, `{{#if name}}`, `{{#unless name}}`, `{{else}}` and
// comments — is then rendered with handlebars' semantics (`noEscape`, `strict` values, no `@data`)
// without its run time: no helper calls, option objects or data frames per line. Anything else in
// a template is refused when it is compiled.
import type HandlebarsModule from "handlebars";

type Program = hbs.AST.Program;
type Statement = hbs.AST.Statement;
type PathExpression = hbs.AST.PathExpression;

/**
 * Renders against the stack of contexts, innermost last (what `../` climbs), appending its pieces
 * to `out`: a file is joined once at the end rather than concatenated piece by piece (one rope
 * cell per piece), and `{{#each}}` pushes and pops its item rather than copying the stack.
 */
type Part = (stack: unknown[], out: string[]) => void;
type Getter = (stack: readonly unknown[]) => unknown;

export function compileTemplate(handlebars: typeof HandlebarsModule, text: string, name: string): (view: object) => string {
  const render = program(handlebars.parse(text), name);
  return (view) => {
    const out: string[] = [];
    render([view], out);
    return out.join("");
  };
}

function program(node: Program | undefined, name: string): Part {
  const parts = (node?.body ?? []).map((statement) => part(statement, name));
  return (stack, out) => {
    for (const p of parts) p(stack, out);
  };
}

function part(statement: Statement, name: string): Part {
  switch (statement.type) {
    case "ContentStatement": {
      const value = (statement as hbs.AST.ContentStatement).value;
      return (_stack, out) => {
        out.push(value);
      };
    }
    case "CommentStatement":
      return () => undefined;
    case "MustacheStatement": {
      const mustache = statement as hbs.AST.MustacheStatement;
      const get = lookup(plainPath(mustache, name), true, name);
      return (stack, out) => {
        const value = get(stack);
        if (value !== undefined && value !== null) out.push(String(value));
      };
    }
    case "BlockStatement":
      return block(statement as hbs.AST.BlockStatement, name);
    default:
      throw unsupported(name, statement.type, statement);
  }
}

function block(node: hbs.AST.BlockStatement, name: string): Part {
  const helper = plainPath({ path: node.path, params: [], hash: undefined }, name).original;
  const [argument] = node.params;
  if (node.params.length !== 1 || node.hash !== undefined || argument?.type !== "PathExpression") throw unsupported(name, `{{#${helper}}} arguments`, node);
  const get = lookup(argument as PathExpression, false, name);
  const fn = program(node.program, name);
  const inverse = program(node.inverse, name);
  switch (helper) {
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
        for (const item of items) {
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
    default:
      throw unsupported(name, `helper '${helper}'`, node);
  }
}

/** Handlebars' `if`: false, "", 0, null, undefined and [] are empty. */
function isEmpty(value: unknown): boolean {
  return !value || (Array.isArray(value) && value.length === 0);
}

function plainPath(node: { path: hbs.AST.Expression; params: unknown[]; hash: unknown }, name: string): PathExpression {
  const path = node.path as PathExpression;
  if (path.type !== "PathExpression" || node.params.length !== 0 || node.hash !== undefined || path.data) throw unsupported(name, "an expression other than a name", node.path);
  return path;
}

/**
 * The value of `path` (`this`, `name`, `../name`) in the stack. `strict` (a `{{{name}}}`): a name its
 * context does not hold is an error, as with handlebars' `strict`; a block's argument may be missing.
 */
function lookup(path: PathExpression, strict: boolean, name: string): Getter {
  const { depth, parts } = path;
  return (stack) => {
    let value: unknown = stack[stack.length - 1 - depth];
    for (let i = 0; i < parts.length; i++) {
      const key = parts[i]!;
      const holds = typeof value === "object" && value !== null && key in value;
      if (!holds && (strict || i < parts.length - 1)) throw new Error(`template ${name}: "${key}" not defined in ${String(value)} (line ${path.loc.start.line})`);
      value = holds ? (value as Record<string, unknown>)[key] : undefined;
    }
    return value;
  };
}

function unsupported(name: string, what: string, node: hbs.AST.Node): Error {
  return new Error(`template ${name}: ${what} is not supported (line ${node.loc.start.line})`);
}
