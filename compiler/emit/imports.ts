// Where each generated declaration lives, and the import lines a generated file needs to name the
// declarations of its siblings: `import type { OrderItem } from "./types.js"` within a context,
// `import type * as $eshopOrder from "../eshop-order/index.js"` across contexts.
import { camelCase } from "../case.js";
import { identifier } from "./escape.js";

/** The file (relative to the context folder, without `.ts`) that declares a symbol of the model. */
export type SymbolHome = { readonly context: string; readonly file: string };

export function typesFile(): string {
  return "types";
}

/** Every aggregate of a context is declared in one module, as every saga is in another: a context is the unit of the SDK. */
export function aggregatesFile(): string {
  return "aggregates";
}

export function sagasFile(): string {
  return "sagas";
}

/** The folder of a context's files: its name (lower-case words and `-`, safe on every file system). */
export function contextFolder(context: string): string {
  return context.replace(/[^a-z0-9-]/g, "_");
}

/** `$eshopOrder`: `.wow` names hold no `$`, so the alias cannot meet a declared name. */
export function contextAlias(context: string): string {
  return `$${camelCase(context)}`;
}

export class Imports {
  private readonly named = new Map<string, Set<string>>();
  private readonly namespaces = new Map<string, string>();

  constructor(
    private readonly context: string,
    private readonly file: string,
  ) {}

  /** The TypeScript text naming `name` (already an identifier) declared at `home`, recording the import. */
  ref(home: SymbolHome, name: string): string {
    const id = identifier(name);
    if (home.context !== this.context) {
      const alias = contextAlias(home.context);
      this.namespaces.set(alias, `../${contextFolder(home.context)}/index.js`);
      return `${alias}.${id}`;
    }
    if (home.file === this.file) return id;
    const names = this.named.get(home.file) ?? new Set<string>();
    names.add(id);
    this.named.set(home.file, names);
    return id;
  }

  /** The import lines, sorted: namespaces of other contexts first, then sibling files. */
  lines(): string[] {
    const out: string[] = [];
    for (const [alias, path] of [...this.namespaces].sort(([a], [b]) => compare(a, b))) {
      out.push(`import type * as ${alias} from "${path}";`);
    }
    for (const [file, names] of [...this.named].sort(([a], [b]) => compare(a, b))) {
      out.push(`import type { ${[...names].sort(compare).join(", ")} } from "./${file}.js";`);
    }
    return out;
  }
}

export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The root barrel's name for a context: `eshop-order` → `eshopOrder`. */
export function camelAlias(context: string): string {
  return identifier(camelCase(context));
}
