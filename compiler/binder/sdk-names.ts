// The TypeScript names that a context's module of the generated SDK exports for each declaration
// (templates/*.hbs, compiler/emit/): a type, an enum, a command and an event give their own name;
// a command `C` also gives `CCommand`, an event `E` `EEvent`; an aggregate `A` gives `A`, `AState`,
// `AEvents`, `ADecision`, `AServiceTypes`, `AHandlers` and `defineA`; a saga `S` gives
// `SServiceTypes`, `SHandlers` and `defineS`; a service gives none. They share the module's one
// namespace, so two declarations that would give the same name are refused (WOW2012): the SDK would
// not compile (`enum OrderState` beside `aggregate Order`). test/emit/sdk-names.test.ts holds the
// generator to this table.
import type { Reporter } from "../diagnostics/reporter.js";
import { camelCase } from "../case.js";
import type { ContextScope, SymbolKind, WowSymbol } from "./symbols.js";

/** A name made from a declaration's: `${name}${affix}`, or `${affix}${name}` for a prefix. */
interface Derivation {
  readonly affix: string;
  readonly prefix: boolean;
  /** What it names, for messages: "the state" (of aggregate 'Order'). */
  readonly what: string;
}

const suffix = (affix: string, what: string): Derivation => ({ affix, prefix: false, what });
const handlerNames: readonly Derivation[] = [
  suffix("ServiceTypes", "the service types"),
  suffix("Handlers", "the handlers"),
  { affix: "define", prefix: true, what: "the `define` function" },
];

/** Whether a kind of declaration exports its own name, and the names it derives. */
const names: Readonly<Record<SymbolKind, { readonly own: boolean; readonly derived: readonly Derivation[] }>> = {
  Type: { own: true, derived: [] },
  Enum: { own: true, derived: [] },
  Service: { own: false, derived: [] },
  Command: { own: true, derived: [suffix("Command", "the typed message")] },
  Event: { own: true, derived: [suffix("Event", "the typed message")] },
  Aggregate: { own: true, derived: [suffix("State", "the state"), suffix("Events", "the events"), suffix("Decision", "the decisions"), ...handlerNames] },
  Saga: { own: false, derived: handlerNames },
};

/**
 * Every derivation once, by the last character of a name that carries its affix (a suffix), or its
 * first (a prefix): names are ASCII (grammar/tokens.ts), and most carry no affix, which one array
 * read tells.
 */
const byLast: (Derivation[] | undefined)[] = new Array<Derivation[] | undefined>(128).fill(undefined);
const byFirst: (Derivation[] | undefined)[] = new Array<Derivation[] | undefined>(128).fill(undefined);
for (const d of new Set(Object.values(names).flatMap((kind) => kind.derived))) {
  const [index, code] = d.prefix ? [byFirst, d.affix.charCodeAt(0)] : [byLast, d.affix.charCodeAt(d.affix.length - 1)];
  (index[code] ??= []).push(d);
}
const NONE: readonly Derivation[] = [];

export interface SdkName {
  readonly name: string;
  /** What it names, for messages: "enum 'OrderState'", "the state of aggregate 'Order'". */
  readonly what: string;
}

/** The names `symbol` gives its context's module, its own name first. */
export function sdkNames(symbol: WowSymbol): SdkName[] {
  const { own, derived } = names[symbol.kind];
  return [...(own ? [{ name: symbol.name, what: declaration(symbol) }] : []), ...derived.map((d) => ({ name: derive(symbol.name, d), what: derivedWhat(symbol, d) }))];
}

/**
 * Reports each name that two declarations of `scope` would give its module (WOW2012). It runs on
 * every build over every symbol, so it makes no name it does not need: a clash needs a declared
 * name that carries an affix (`OrderState`, `defineOrder`) over the name of a declaration that
 * derives with that affix (`Order`), or two derived names that meet, which only `define…` allows
 * (`defineOrder` + `Handlers`, `define` + `OrderHandlers`).
 */
export function checkSdkNames(scope: ContextScope, reporter: Reporter): void {
  for (const symbol of scope.symbols.values()) {
    const { name } = symbol;
    for (const d of byLast[name.charCodeAt(name.length - 1)] ?? NONE) checkAffix(scope, reporter, symbol, d);
    for (const d of byFirst[name.charCodeAt(0)] ?? NONE) checkAffix(scope, reporter, symbol, d);
  }
}

/** The clashes of `symbol`'s names when its name may carry the affix of `d`. */
function checkAffix(scope: ContextScope, reporter: Reporter, symbol: WowSymbol, d: Derivation): void {
  const { name } = symbol;
  const { symbols } = scope;
  const { affix } = d;
  if (name.length <= affix.length || !(d.prefix ? name.startsWith(affix) : name.endsWith(affix))) return;
  const base = d.prefix ? name.slice(affix.length) : name.slice(0, -affix.length);
  // `symbol`'s own name is one that `base` derives (reported at it: the name to change).
  const owner = symbols.get(base);
  if (names[symbol.kind].own && owner !== undefined && names[owner.kind].derived.includes(d)) {
    report(scope, reporter, symbol, name, declaration(symbol), derivedWhat(owner, d));
  }
  if (!d.prefix) return;
  // `define${base}` + a suffix of its own is `define` + `${base}${suffix}`: two derived names.
  for (const mine of names[symbol.kind].derived) {
    const other = mine.prefix ? undefined : symbols.get(base + mine.affix);
    if (other !== undefined && names[other.kind].derived.includes(d)) {
      report(scope, reporter, symbol, derive(name, mine), derivedWhat(symbol, mine), derivedWhat(other, d));
    }
  }
}

function report(scope: ContextScope, reporter: Reporter, at: WowSymbol, name: string, what: string, other: string): void {
  reporter.report("WOW2012", { name, context: scope.name, what, other, declaration: declaration(at) }, at.decl.name.loc);
}

function derive(name: string, d: Derivation): string {
  return d.prefix ? `${d.affix}${name}` : `${name}${d.affix}`;
}

/** "enum 'OrderState'". */
function declaration(symbol: WowSymbol): string {
  return `${symbol.kind.toLowerCase()} '${symbol.name}'`;
}

/** "the state of aggregate 'Order'". */
function derivedWhat(symbol: WowSymbol, d: Derivation): string {
  return `${d.what} of ${declaration(symbol)}`;
}

/**
 * Reports each context whose name gives the SDK the name of an earlier one (WOW3023), at its first
 * file's `context` clause. The SDK names a context in camelCase (the root module's `eshopOrder`,
 * the other modules' `$eshopOrder`), and names that differ only by a `-` before a digit meet there
 * (`order-2`, `order2`). `contexts` in the binder's order (by their first file).
 */
export function checkContextSdkNames(contexts: Iterable<ContextScope>, reporter: Reporter): void {
  const taken = new Map<string, string>();
  for (const scope of contexts) {
    const alias = camelCase(scope.name);
    const clause = scope.files[0]?.context;
    if (alias === "then") {
      // The root module exports each context as a namespace under this name: it would be a thenable.
      const exports = "The SDK's root module exports each context as a namespace, its name in camelCase";
      if (clause !== undefined) reporter.report("WOW3026", { name: scope.name, module: "the SDK's root module", exports, suggestion: "then-app" }, clause.name.loc);
      continue;
    }
    if (rootSdkNames.has(alias)) {
      if (clause !== undefined) reporter.report("WOW3025", { name: scope.name, alias }, clause.name.loc);
      continue;
    }
    const other = taken.get(alias);
    if (other === undefined) {
      taken.set(alias, scope.name);
      continue;
    }
    if (clause !== undefined) reporter.report("WOW3023", { name: scope.name, other, alias }, clause.name.loc);
  }
}

/**
 * The names the SDK's root module exports of its own (templates/sdk.ts.hbs, client.ts.hbs and config.ts.hbs), beside
 * one namespace per context. A context named like one of them (`load-config`) would take its place
 * without a word from TypeScript: a module's own `export * as loadConfig` hides what an
 * `export *` brings. WOW3025; test/emit/sdk-names.test.ts holds the templates to this list.
 */
export const rootSdkNames: ReadonlySet<string> = new Set([
  // sdk.ts
  "AggregateRef", "AggregateRegistration", "AggregateType", "Awaitable", "Command", "CommandMessage",
  "CommandRegistration", "CommandRejection", "DecideScope", "Decided", "Decision", "Event", "EventMessage", "JobCommand",
  "JobContext", "JsonSchema", "NotDeclared", "Produces", "SagaCancel", "SagaContext", "SagaOutput", "SagaRegistration", "SagaSchedule",
  "SagaSend", "ScheduleTick", "TargetRef", "aggregateType",
  // client.ts
  "Client", "ClientOptions", "CommandAccepted", "CommandOptions", "CommandRefused", "CommandReply", "CreateOptions", "createClient",
  // config.ts
  "JobName", "LoadConfigOptions", "configDefaults", "configEnvironment", "configSchema", "loadConfig",
]);
