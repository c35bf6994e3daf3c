// The import graph of the repository's TypeScript, read with the TypeScript parser (no type check):
// every module a file names — `import`, `import type`, `export … from`, `import("…")` in code and in
// types — resolved to a repository file (NodeNext: `./a.js` is `./a.ts`) or kept as a package name.
// Then the checks the architecture test runs on it: the edges that break a rule, and the circles.
import { readdirSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, normalize, sep } from "node:path";
import ts from "typescript";

/** What a file imports: repository files (relative to the root, `/`-separated), packages, and imports the parser cannot follow. */
export interface FileImports {
  readonly files: readonly string[];
  /** Bare specifiers by package (`chevrotain`, `node:fs`; `ajv/dist/2020.js` is `ajv`). */
  readonly packages: readonly string[];
  /** `import(x)` with a computed `x`, as written. */
  readonly computed: readonly string[];
}

export type ImportGraph = ReadonlyMap<string, FileImports>;

/** The `.ts` files under `dirs` (relative to `root`), sorted. */
export function tsFiles(root: string, dirs: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts")) out.push(path);
    }
  };
  for (const dir of dirs) walk(dir);
  return out.sort();
}

/** The graph of `files` (relative to `root`), each read from disk unless `texts` holds it. */
export function importGraph(root: string, files: readonly string[], texts: ReadonlyMap<string, string> = new Map()): ImportGraph {
  const graph = new Map<string, FileImports>();
  for (const file of files) graph.set(file, importsOf(file, texts.get(file) ?? readFileSync(join(root, file), "utf8")));
  return graph;
}

/** What `file` (relative to the root) imports, from its text. */
export function importsOf(file: string, text: string): FileImports {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const files = new Set<string>();
  const packages = new Set<string>();
  const computed: string[] = [];
  const add = (specifier: string): void => {
    if (specifier.startsWith(".")) files.add(resolveRelative(file, specifier));
    else packages.add(packageOf(specifier));
  };
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier !== undefined && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      if (argument !== undefined && ts.isStringLiteralLike(argument)) add(argument.text);
      else computed.push(argument === undefined ? "" : argument.getText(source));
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      add(node.argument.literal.text);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference) && ts.isStringLiteral(node.moduleReference.expression)) {
      add(node.moduleReference.expression.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { files: [...files].sort(), packages: [...packages].sort(), computed };
}

/** `../ast.js` from `compiler/parse/x.ts` → `compiler/ast.ts` (a `.js` specifier names the `.ts` file). */
function resolveRelative(from: string, specifier: string): string {
  const path = normalize(join(dirname(from), specifier)).split(sep).join("/");
  return path.endsWith(".js") ? `${path.slice(0, -3)}.ts` : path;
}

const builtins = new Set(builtinModules);

/** The package a bare specifier names: `node:fs` (a built-in, with or without `node:`), `chevrotain`, `@scope/name`. */
function packageOf(specifier: string): string {
  if (specifier.startsWith("node:")) return specifier;
  const parts = specifier.split("/");
  const name = specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
  return builtins.has(name) ? `node:${name}` : name;
}

/** An import that breaks a rule, as `from → to: why`. */
export interface Violation {
  readonly from: string;
  readonly to: string;
  readonly why: string;
}

export function describeViolation(v: Violation): string {
  return `${v.from} → ${v.to}: ${v.why}`;
}

/**
 * The circles among `files` (file-level, type-only imports included: they tie the modules as much),
 * one per strongly connected component, as the shortest way round from its first file
 * (`a.ts → b.ts → a.ts`), followed by the component's other files when it has more.
 */
export function circles(graph: ImportGraph, files: readonly string[]): string[] {
  const inside = new Set(files);
  const next = (file: string): string[] => (graph.get(file)?.files ?? []).filter((to) => inside.has(to));
  // Tarjan's strongly connected components, iteratively (no recursion limit on a long chain).
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  for (const start of [...inside].sort()) {
    if (indices.has(start)) continue;
    const work: { file: string; edges: string[]; at: number }[] = [];
    const open = (file: string): void => {
      indices.set(file, index);
      low.set(file, index++);
      stack.push(file);
      onStack.add(file);
      work.push({ file, edges: next(file), at: 0 });
    };
    open(start);
    while (work.length > 0) {
      const top = work[work.length - 1]!;
      if (top.at < top.edges.length) {
        const to = top.edges[top.at++]!;
        if (!indices.has(to)) open(to);
        else if (onStack.has(to)) low.set(top.file, Math.min(low.get(top.file)!, indices.get(to)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent !== undefined) low.set(parent.file, Math.min(low.get(parent.file)!, low.get(top.file)!));
      if (low.get(top.file) !== indices.get(top.file)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== top.file);
      if (component.length > 1 || next(top.file).includes(top.file)) components.push(component.sort());
    }
  }
  return components
    .map((component) => {
      const path = circlePath(component, next);
      const others = component.filter((file) => !path.includes(file));
      const way = path.join(" → ");
      return others.length === 0 ? way : `${way} (tied in the same circles: ${others.join(", ")})`;
    })
    .sort();
}

/** A shortest way round a component, from its first file back to it. */
function circlePath(component: readonly string[], next: (file: string) => string[]): string[] {
  const members = new Set(component);
  const start = component[0]!;
  const cameFrom = new Map<string, string>();
  const queue = [start];
  search: while (queue.length > 0) {
    const file = queue.shift()!;
    for (const to of next(file)) {
      if (!members.has(to) || cameFrom.has(to)) continue;
      cameFrom.set(to, file);
      if (to === start) break search;
      queue.push(to);
    }
  }
  const path: string[] = [];
  for (let at = cameFrom.get(start)!; at !== start; at = cameFrom.get(at)!) path.unshift(at);
  return [start, ...path, start];
}
