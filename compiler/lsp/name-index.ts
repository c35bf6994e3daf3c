// Every name of a build that names something, with what it names: each declaration's own name, each
// reference the checker resolved (compiler/checker/resolve.ts records them), and context names (a
// file's `context` clause, the `ctx.` of a qualified name). Definitions, references, highlights and
// renames read it. A target is a symbol's qualified name (`eshop-order.Order`) or a context's name
// (`eshop-order`: declared names have no dot).
import type { Declaration, Location, Name, WowFile } from "../ast.js";
import type { ContextScope } from "../binder/symbols.js";
import type { ResolvedReference } from "../checker/resolve.js";

export interface Occurrence {
  readonly loc: Location;
  readonly target: string;
  /** The name of a declaration (or a `context` clause), not a reference to one. */
  readonly declaration: boolean;
}

export interface IndexInput {
  readonly files: readonly WowFile[];
  readonly scopes: ReadonlyMap<string, ContextScope>;
  readonly references?: ReadonlyMap<string, readonly ResolvedReference[]>;
}

export class NameIndex {
  /** By file path, sorted by offset. */
  private readonly byFile = new Map<string, Occurrence[]>();
  private readonly byTarget = new Map<string, Occurrence[]>();

  constructor(input: IndexInput) {
    for (const file of input.files) {
      const context = file.context?.name;
      if (context === undefined || context.text === "") continue;
      this.add({ loc: context.loc, target: context.text, declaration: true });
      const scope = input.scopes.get(context.text);
      if (scope !== undefined) for (const decl of file.declarations) this.addDeclaration(scope, decl);
    }
    for (const references of input.references?.values() ?? []) {
      for (const { ref, target } of references) {
        if (ref.context !== undefined) this.add({ loc: ref.context.loc, target: ref.context.text, declaration: false });
        this.add({ loc: ref.name.loc, target, declaration: false });
      }
    }
    for (const list of this.byFile.values()) list.sort((a, b) => a.loc.start - b.loc.start);
  }

  /** The name at `offset` of file `path` (the cursor may stand just after it). */
  at(path: string, offset: number): Occurrence | undefined {
    const list = this.byFile.get(path);
    if (list === undefined) return undefined;
    let low = 0;
    let high = list.length - 1;
    let found: Occurrence | undefined;
    while (low <= high) {
      const mid = (low + high) >> 1;
      const o = list[mid]!;
      if (o.loc.start > offset) high = mid - 1;
      else {
        if (offset <= o.loc.end) found = o;
        low = mid + 1;
      }
    }
    return found;
  }

  /** Every occurrence of `target`, declarations first, then by file and offset. */
  of(target: string): readonly Occurrence[] {
    return this.byTarget.get(target) ?? [];
  }

  inFile(path: string): readonly Occurrence[] {
    return this.byFile.get(path) ?? [];
  }

  private addDeclaration(scope: ContextScope, decl: Declaration): void {
    // Only the declaration that holds the name (a second one is WOW2007 and names nothing).
    const own = (name: Name, node: object): void => {
      const symbol = scope.symbols.get(name.text);
      if (symbol !== undefined && symbol.decl === node) this.add({ loc: name.loc, target: symbol.qualifiedName, declaration: true });
    };
    own(decl.name, decl);
    if (decl.kind === "Aggregate") for (const member of decl.members) if (member.kind === "Command" || member.kind === "Event") own(member.name, member);
  }

  private add(occurrence: Occurrence): void {
    const loc = occurrence.loc;
    const plain: Occurrence = { loc: { file: loc.file, start: loc.start, end: loc.end }, target: occurrence.target, declaration: occurrence.declaration };
    push(this.byFile, loc.file.path, plain);
    push(this.byTarget, occurrence.target, plain);
  }
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

/** Occurrences in the order a user reads them: declarations first, then by file and offset. */
export function inReadingOrder(list: readonly Occurrence[]): Occurrence[] {
  return [...list].sort((a, b) =>
    a.declaration !== b.declaration ? (a.declaration ? -1 : 1) : a.loc.file.path < b.loc.file.path ? -1 : a.loc.file.path > b.loc.file.path ? 1 : a.loc.start - b.loc.start,
  );
}
