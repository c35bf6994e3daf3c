// A diagnostic: a code from the table, its formatted message and hint, and where it points.
import type { Location } from "../ast.js";
import { messages, type DiagnosticArgs, type DiagnosticCode, type Severity } from "./messages.js";

export interface Diagnostic {
  readonly code: DiagnosticCode;
  readonly severity: Severity;
  readonly message: string;
  readonly hint?: string;
  /** Absent only for diagnostics about the build as a whole (no sources, unreadable directory). */
  readonly loc?: Location;
  /** Without `loc`: the file or directory (relative to the build root) the diagnostic is about, if any. */
  readonly path?: string;
  /** Other places the message names (the first declaration of a name declared twice…): editors link them. */
  readonly related?: readonly Location[];
}

function fill(template: string, args: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => (key in args ? String(args[key]) : whole));
}

export function createDiagnostic<C extends DiagnosticCode>(
  code: C,
  args: DiagnosticArgs<C>,
  loc?: Location,
  related?: readonly Location[],
): Diagnostic {
  const definition: { severity: Severity; message: string; hint?: string } = messages[code];
  const values = args as Readonly<Record<string, string | number>>;
  // A hint made only of arguments (`{advice}`) may have nothing to say: then there is none.
  const hint = definition.hint === undefined ? undefined : fill(definition.hint, values);
  return {
    code,
    severity: definition.severity,
    message: fill(definition.message, values),
    ...(hint === undefined || hint === "" ? {} : { hint }),
    // A plain copy: AST nodes can be their own location (see compiler/parse/source-name.ts), and a
    // diagnostic's `loc` holds the span only.
    ...(loc === undefined ? {} : { loc: { file: loc.file, start: loc.start, end: loc.end } }),
    ...(related === undefined ? {} : { related: related.map((r) => ({ file: r.file, start: r.start, end: r.end })) }),
  };
}
