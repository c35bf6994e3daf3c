// What other contexts can see of a context: the part of its symbols that the checker, the manifest
// and the generator read through a reference from another context — each symbol's kind, name and
// aggregate, and a service's doc comment (the generated service types carry it). When a context is
// re-bound with the same signature, the contexts that reference it keep their results: nothing they
// read has changed. Anything read through another context's symbol must be part of this.
import type { ContextScope } from "./symbols.js";

export function scopeSignature(scope: ContextScope): string {
  const parts: string[] = [];
  for (const symbol of scope.symbols.values()) {
    const owner = symbol.kind === "Command" || symbol.kind === "Event" ? symbol.aggregate.name : "";
    const doc = symbol.kind === "Service" && symbol.decl.doc !== undefined && symbol.decl.doc !== "" ? JSON.stringify(symbol.decl.doc) : '""';
    parts.push(`${symbol.kind} ${symbol.name} ${owner} ${doc}`);
  }
  return parts.join("\n");
}
