// A compiler diagnostic as the protocol carries it: the message with its hint on a second line,
// the code, the severity, and the other places the message names as related information. The hint
// also travels in `data`, for the quick fixes (code-actions.ts).
import { DiagnosticSeverity, type Diagnostic as LspDiagnostic } from "vscode-languageserver";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { toRange } from "./positions.js";

export interface DiagnosticData {
  readonly hint?: string;
}

/** `uriOf`: the URI of a file of the build, by its path relative to the build root. */
export function toLspDiagnostic(diagnostic: Diagnostic, uriOf: (path: string) => string): LspDiagnostic {
  const range = diagnostic.loc === undefined ? { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } : toRange(diagnostic.loc);
  const related = diagnostic.related?.map((loc) => ({ location: { uri: uriOf(loc.file.path), range: toRange(loc) }, message: "the earlier one" }));
  return {
    range,
    severity: diagnostic.severity === "error" ? DiagnosticSeverity.Error : DiagnosticSeverity.Warning,
    code: diagnostic.code,
    source: "wowc",
    message: diagnostic.hint === undefined ? diagnostic.message : `${diagnostic.message}\nhint: ${diagnostic.hint}`,
    ...(related === undefined || related.length === 0 ? {} : { relatedInformation: related }),
    data: { ...(diagnostic.hint === undefined ? {} : { hint: diagnostic.hint }) } satisfies DiagnosticData,
  };
}
