// The references handlers and jobs make: lists of commands or events, and service parameters.
import type { Parameter, QualifiedName } from "../ast.js";
import type { ContextScope, SymbolKind } from "../binder/symbols.js";
import type { ServiceParameter } from "../model.js";
import type { Reporter } from "../diagnostics/reporter.js";
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

// The expectations of the lists of annotations, made once (the checker reads a list per handler).
export const producedEvents = eventIn("`produces`");
export const sentCommands = commandIn("`commands`");
export const scheduledCommands = commandIn("`schedules`");

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
): readonly SymbolOf<K>[] {
  const result: SymbolOf<K>[] = [];
  for (const name of names) {
    const symbol = resolver.resolve(name, scope, expectation);
    if (symbol === undefined) continue;
    // Lists are short: a scan of what was kept, no set per list.
    if (result.some((kept) => kept.qualifiedName === symbol.qualifiedName)) {
      reporter.report("WOW3021", { name: name.text }, name.loc);
      continue;
    }
    result.push(symbol);
  }
  return exact(result);
}

function declaredBefore(params: readonly Parameter[], index: number, name: string): boolean {
  for (let j = 0; j < index; j++) if (params[j]!.name.text === name) return true;
  return false;
}

export function resolveServices(params: readonly Parameter[], scope: ContextScope, resolver: Resolver, reporter: Reporter): readonly ServiceParameter[] {
  const result: ServiceParameter[] = [];
  for (let i = 0; i < params.length; i++) {
    const param = params[i]!;
    const name = param.name.text;
    // Parameter lists are short: a scan of the earlier names, no set per list.
    if (name !== "" && declaredBefore(params, i, name)) reporter.report("WOW2010", { name }, param.name.loc);
    const service = resolver.resolve(param.type, scope, serviceParameter);
    if (service !== undefined) result.push({ decl: param, name, service });
  }
  return exact(result);
}
