// TypeScript nodes as compiler locations: one `SourceFile` per host file (path relative to the
// build root, like the `.wow` sources), so the diagnostics machinery prints them like any other.
import { relative, sep } from "node:path";
import type { Node, SourceFile as TsSourceFile } from "ts-morph";
import type { Location, SourceFile } from "../ast.js";
import { spanOf } from "../diagnostics/line-map.js";

export class HostLocations {
  private readonly files = new Map<string, SourceFile>();

  constructor(private readonly root: string) {}

  of(node: Node): Location {
    return { file: this.file(node.getSourceFile()), start: node.getStart(), end: node.getEnd() };
  }

  private file(source: TsSourceFile): SourceFile {
    const absolute = source.getFilePath();
    let file = this.files.get(absolute);
    if (file === undefined) {
      file = { path: displayPath(this.root, absolute), text: source.getFullText() };
      this.files.set(absolute, file);
    }
    return file;
  }
}

/** `src/order.ts`: relative to the build root with `/`, absolute when outside it. */
export function displayPath(root: string, absolute: string): string {
  const rel = relative(root, absolute).split(sep).join("/");
  return rel.startsWith("../") || rel === ".." ? absolute.split(sep).join("/") : rel;
}

/** `order.wow:41` (or `src/order.ts:36:3` with the column): where to look, for hints. */
export function where(loc: Location, column = false): string {
  const start = spanOf(loc).start;
  return column ? `${loc.file.path}:${start.line}:${start.column}` : `${loc.file.path}:${start.line}`;
}
