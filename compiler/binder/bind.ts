// The binder: groups files by context and enters every declaration into its context's scope.
// Reports an invalid context name and names declared twice in one context.
import type { Declaration, MessageDeclaration, Name, WowFile } from "../ast.js";
import { Reporter, where } from "../checker/reporter.js";
import type { AggregateSymbol, BoundProgram, ContextScope, WowSymbol } from "./symbols.js";

const contextNamePattern = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

/** `files` must be sorted by path: the first declaration of a name is the one that counts. */
export function bind(files: readonly WowFile[], reporter: Reporter): BoundProgram {
  const contexts = new Map<string, ContextScope>();
  const bound: Array<{ file: WowFile; scope: ContextScope }> = [];
  for (const file of files) {
    const clause = file.context;
    // A file without a context clause has a syntax error (WOW1005): its declarations are not bound.
    if (clause === undefined || clause.name.text === "") continue;
    const name = clause.name.text;
    if (name === "wow" || name.startsWith("wow.")) reporter.report("WOW3003", { name }, clause.name.loc);
    else if (!contextNamePattern.test(name)) reporter.report("WOW3002", { name }, clause.name.loc);
    let scope = contexts.get(name);
    if (scope === undefined) {
      scope = { name, files: [], symbols: new Map() };
      contexts.set(name, scope);
    }
    scope.files.push(file);
    bound.push({ file, scope });
  }
  for (const { file, scope } of bound) {
    for (const decl of file.declarations) enterDeclaration(scope, decl, reporter);
  }
  return { contexts, files: bound };
}

function enterDeclaration(scope: ContextScope, decl: Declaration, reporter: Reporter): void {
  const base = { name: decl.name.text, context: scope.name, qualifiedName: `${scope.name}.${decl.name.text}` };
  let symbol: WowSymbol;
  switch (decl.kind) {
    case "Type":
      symbol = { ...base, kind: "Type", decl };
      break;
    case "Enum":
      symbol = { ...base, kind: "Enum", decl };
      break;
    case "Service":
      symbol = { ...base, kind: "Service", decl };
      break;
    case "Saga":
      symbol = { ...base, kind: "Saga", decl };
      break;
    case "Aggregate": {
      const aggregate: AggregateSymbol = { ...base, kind: "Aggregate", decl };
      enter(scope, aggregate, decl, reporter);
      for (const member of decl.members) {
        if (member.kind === "Command" || member.kind === "Event") enterMessage(scope, aggregate, member, reporter);
      }
      return;
    }
  }
  enter(scope, symbol, decl, reporter);
}

function enterMessage(scope: ContextScope, aggregate: AggregateSymbol, decl: MessageDeclaration, reporter: Reporter): void {
  const base = { name: decl.name.text, context: scope.name, qualifiedName: `${scope.name}.${decl.name.text}`, decl, aggregate };
  enter(scope, decl.kind === "Command" ? { ...base, kind: "Command" } : { ...base, kind: "Event" }, decl, reporter);
}

function enter(scope: ContextScope, symbol: WowSymbol, decl: { readonly name: Name }, reporter: Reporter): void {
  if (symbol.name === "") return; // a declaration the parser could only partly recover
  const existing = scope.symbols.get(symbol.name);
  if (existing !== undefined) {
    reporter.report("WOW2007", { name: symbol.name, context: scope.name, other: where(existing.decl.name.loc) }, decl.name.loc);
    return;
  }
  scope.symbols.set(symbol.name, symbol);
}
