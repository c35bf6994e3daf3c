// The references handlers and jobs make: lists of commands or events, and service parameters.
import type { Parameter, QualifiedName } from "../ast.js";
import type { ContextScope, SymbolKind } from "../binder/symbols.js";
import type { ServiceParameter } from "../model.js";
import type { Reporter } from "./reporter.js";
import type { Expectation, Resolver, SymbolOf } from "./resolve.js";
import { exact } from "../parse/exact.js";

export const commandIn = (place: string): Expectation<"Command"> => ({
  kinds: ["Command"],
  unknown: "WOW2002",
  place,
  expected: "a command",
  advice: "Only commands can be sent or scheduled; events are produced by command handlers (`produces`), and a saga reacts to them with `on EventName`.",
});

export const eventIn = (place: string): Expectation<"Event"> => ({
  kinds: ["Event"],
  unknown: "WOW2003",
  place,
  expected: "an event",
  advice: "List the events the handler's decision emits; a command is sent by a saga (`commands`) or scheduled (`schedules`).",
});

const serviceParameter: Expectation<"Service"> = {
  kinds: ["Service"],
  unknown: "WOW2004",
  place: "a handler parameter",
  expected: "a service",
  advice: "Handlers receive the command or event itself; extra parameters are host dependencies declared with `service Name`.",
};

/** Resolves each name of a list, reporting unknown names and repeated entries; keeps the resolved ones once. */
export function resolveList<K extends SymbolKind>(
  names: readonly QualifiedName[],
  scope: ContextScope,
  expectation: Expectation<K>,
  resolver: Resolver,
  reporter: Reporter,
): SymbolOf<K>[] {
  const result: SymbolOf<K>[] = [];
  const seen = new Set<string>();
  for (const name of names) {
    const symbol = resolver.resolve(name, scope, expectation);
    if (symbol === undefined) continue;
    if (seen.has(symbol.qualifiedName)) {
      reporter.report("WOW3021", { name: name.text }, name.loc);
      continue;
    }
    seen.add(symbol.qualifiedName);
    result.push(symbol);
  }
  return exact(result);
}

export function resolveServices(params: readonly Parameter[], scope: ContextScope, resolver: Resolver, reporter: Reporter): ServiceParameter[] {
  const result: ServiceParameter[] = [];
  const seen = new Set<string>();
  for (const param of params) {
    const name = param.name.text;
    if (name !== "" && seen.has(name)) reporter.report("WOW2010", { name }, param.name.loc);
    seen.add(name);
    const service = resolver.resolve(param.type, scope, serviceParameter);
    if (service !== undefined) result.push({ decl: param, name, service });
  }
  return exact(result);
}
