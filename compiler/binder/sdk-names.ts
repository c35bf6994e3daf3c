// The TypeScript names that a context's module of the generated SDK exports for each declaration
// (templates/*.hbs, compiler/emit/): a type, an enum, a command and an event give their own name;
// a command `C` also gives `CCommand`, an event `E` `EEvent`; an aggregate `A` gives `A`, `AState`,
// `AEvents`, `ADecision`, `AServiceTypes`, `AHandlers` and `defineA`; a saga `S` gives
// `SServiceTypes`, `SHandlers` and `defineS`; a service gives none. They share the module's one
// namespace, so two declarations that would give the same name are refused (WOW2012): the SDK would
// not compile (`enum OrderState` beside `aggregate Order`). test/emit/sdk-names.test.ts holds the
// generator to this list.
import type { Reporter } from "../checker/reporter.js";
import type { ContextScope, WowSymbol } from "./symbols.js";

export interface SdkName {
  readonly name: string;
  /** What it names, for messages: "enum 'OrderState'", "the state of aggregate 'Order'". */
  readonly what: string;
  /** Whether it is the declaration's own name (the one a user renames), not one derived from it. */
  readonly own: boolean;
}

/** The names `symbol` gives its context's module, its own name first. */
export function sdkNames(symbol: WowSymbol): SdkName[] {
  const { name } = symbol;
  const kind = symbol.kind.toLowerCase();
  const own: SdkName = { name, what: declaration(symbol), own: true };
  const derived = (suffixed: string, what: string): SdkName => ({ name: suffixed, what: `${what} of ${kind} '${name}'`, own: false });
  switch (symbol.kind) {
    case "Type":
    case "Enum":
      return [own];
    case "Service":
      return [];
    case "Command":
      return [own, derived(`${name}Command`, "the typed message")];
    case "Event":
      return [own, derived(`${name}Event`, "the typed message")];
    case "Aggregate":
      return [
        own,
        derived(`${name}State`, "the state"),
        derived(`${name}Events`, "the events"),
        derived(`${name}Decision`, "the decisions"),
        ...handlerNames(symbol.name, derived),
      ];
    case "Saga":
      return handlerNames(symbol.name, derived);
  }
}

/** "enum 'OrderState'". */
function declaration(symbol: WowSymbol): string {
  return `${symbol.kind.toLowerCase()} '${symbol.name}'`;
}

function handlerNames(name: string, derived: (suffixed: string, what: string) => SdkName): SdkName[] {
  return [derived(`${name}ServiceTypes`, "the service types"), derived(`${name}Handlers`, "the handlers"), derived(`define${name}`, "the `define` function")];
}

/**
 * Reports each name that two declarations of `scope` would give its module (WOW2012), at the
 * declaration whose own name it is when there is one (the name to change), else at the later one.
 */
export function checkSdkNames(scope: ContextScope, reporter: Reporter): void {
  const taken = new Map<string, { readonly symbol: WowSymbol; readonly given: SdkName }>();
  for (const symbol of scope.symbols.values()) {
    for (const given of sdkNames(symbol)) {
      const first = taken.get(given.name);
      if (first === undefined) {
        taken.set(given.name, { symbol, given });
        continue;
      }
      const [at, other] = first.given.own && !given.own ? [first, { symbol, given }] : [{ symbol, given }, first];
      const args = { name: given.name, context: scope.name, what: at.given.what, other: other.given.what, declaration: declaration(at.symbol) };
      reporter.report("WOW2012", args, at.symbol.decl.name.loc);
    }
  }
}
