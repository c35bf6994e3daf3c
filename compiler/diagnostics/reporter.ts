// Collects diagnostics for one build.
import type { Location } from "../ast.js";
import { createDiagnostic, type Diagnostic } from "./diagnostic.js";
import { positionOf } from "./line-map.js";
import type { DiagnosticArgs, DiagnosticCode } from "./messages.js";

export class Reporter {
  readonly diagnostics: Diagnostic[] = [];

  /** `related`: the other places the message names (see `where`). */
  report<C extends DiagnosticCode>(code: C, args: DiagnosticArgs<C>, loc?: Location, related?: readonly Location[]): void {
    this.diagnostics.push(createDiagnostic(code, args, loc, related));
  }
}

/** `order.wow:12:3`: how a message points at another place. */
export function where(loc: Location): string {
  const { line, column } = positionOf(loc.file, loc.start);
  return `${loc.file.path}:${line}:${column}`;
}

/** Source order: by file path, then offset. */
export function compareLocations(a: Location, b: Location): number {
  return a.file.path < b.file.path ? -1 : a.file.path > b.file.path ? 1 : a.start - b.start;
}
