// Whole-program checks, per context: every command is handled (error), every event is produced by
// some `produces` of the program (warning).
import type { ContextScope } from "../binder/symbols.js";
import type { Reporter } from "../diagnostics/reporter.js";

export function checkCompleteness(scope: ContextScope, handled: { has(command: string): boolean }, produced: { has(event: string): boolean }, reporter: Reporter): void {
  for (const symbol of scope.symbols.values()) {
    if (symbol.kind === "Command" && !handled.has(symbol.qualifiedName)) {
      reporter.report("WOW3007", { name: symbol.name, aggregate: symbol.aggregate.name }, symbol.decl.name.loc);
    } else if (symbol.kind === "Event" && !produced.has(symbol.qualifiedName)) {
      reporter.report("WOW3008", { name: symbol.name, aggregate: symbol.aggregate.name }, symbol.decl.name.loc);
    }
  }
}
