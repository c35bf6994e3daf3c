// The binder: groups files by context and enters every declaration into its context's scope.
// Reports an invalid context name, names declared twice in one context, and names the generated SDK
// would give twice (sdk-names.ts).
import type { Declaration, Name, WowFile } from "../ast.js";
import { Reporter, where } from "../diagnostics/reporter.js";
import { checkContextSdkNames, checkSdkNames } from "./sdk-names.js";
import type { AggregateSymbol, BoundProgram, ContextScope, WowSymbol } from "./symbols.js";

const contextNamePattern = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

/**
 * The files of each context, by context name in the order their first file comes (files without a
 * context clause have a syntax error, WOW1005: their declarations are not bound).
 */
export function groupByContext(files: readonly WowFile[]): Map<string, WowFile[]> {
  const groups = new Map<string, WowFile[]>();
  for (const file of files) {
    const name = file.context?.name.text;
    if (name === undefined || name === "") continue;
    const group = groups.get(name);
    if (group === undefined) groups.set(name, [file]);
    else group.push(file);
  }
  return groups;
}

/**
 * One context's scope from its files (sorted by path). A context is bound on its own: the watcher
 * re-binds only the contexts whose files changed.
 */
export function bindContext(name: string, files: readonly WowFile[], reporter: Reporter): ContextScope {
  const scope: ContextScope = { name, files: [...files], symbols: new Map() };
  for (const file of files) {
    const clause = file.context!;
    if (name === "wow" || name.startsWith("wow.")) reporter.report("WOW3003", { name }, clause.name.loc);
    else if (!contextNamePattern.test(name)) reporter.report("WOW3002", { name }, clause.name.loc);
  }
  for (const file of files) {
    for (const decl of file.declarations) enterDeclaration(scope, decl, reporter);
  }
  checkSdkNames(scope, reporter);
  return scope;
}

function enterDeclaration(scope: ContextScope, decl: Declaration, reporter: Reporter): void {
  // Each symbol is one object literal of a fixed shape (no spreads): the binder makes ten thousand.
  const name = decl.name.text;
  const qualifiedName = `${scope.name}.${name}`;
  if (decl.kind !== "Aggregate") {
    enter(scope, { name, context: scope.name, qualifiedName, kind: decl.kind, decl } as WowSymbol, decl, reporter);
    return;
  }
  const aggregate: AggregateSymbol = { name, context: scope.name, qualifiedName, kind: "Aggregate", decl };
  enter(scope, aggregate, decl, reporter);
  for (const member of decl.members) {
    if (member.kind !== "Command" && member.kind !== "Event") continue;
    const memberName = member.name.text;
    enter(scope, { name: memberName, context: scope.name, qualifiedName: `${scope.name}.${memberName}`, kind: member.kind, decl: member, aggregate }, member, reporter);
  }
}

function enter(scope: ContextScope, symbol: WowSymbol, decl: { readonly name: Name }, reporter: Reporter): void {
  if (symbol.name === "") return; // a declaration the parser could only partly recover
  const existing = scope.symbols.get(symbol.name);
  if (existing !== undefined) {
    reporter.report("WOW2007", { name: symbol.name, context: scope.name, other: where(existing.decl.name.loc) }, decl.name.loc, [existing.decl.name.loc]);
    return;
  }
  scope.symbols.set(symbol.name, symbol);
}
