// Whole-program checks: every command is handled (error), every event is produced (warning).
import type { CheckContext } from "./context.js";

export function checkCompleteness(cx: CheckContext): void {
  for (const scope of cx.program.contexts.values()) {
    for (const symbol of scope.symbols.values()) {
      if (symbol.kind === "Command" && !cx.handled.has(symbol.qualifiedName)) {
        cx.reporter.report("WOW3007", { name: symbol.name, aggregate: symbol.aggregate.name }, symbol.decl.name.loc);
      } else if (symbol.kind === "Event" && !cx.produced.has(symbol.qualifiedName)) {
        cx.reporter.report("WOW3008", { name: symbol.name, aggregate: symbol.aggregate.name }, symbol.decl.name.loc);
      }
    }
  }
}
