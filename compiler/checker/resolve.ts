// Reference resolution: `Name` within the context, `context-name.Name` across contexts. An unknown
// name or context is reported with the nearest declared name; a name of the wrong kind says what it is.
import type { QualifiedName } from "../ast.js";
import type { BoundProgram, ContextScope, SymbolKind, WowSymbol } from "../binder/symbols.js";
import { describeKind } from "../binder/symbols.js";
import type { Reporter } from "../diagnostics/reporter.js";
import { Candidates, didYouMean, nearest } from "../diagnostics/suggest.js";

export interface Expectation<K extends SymbolKind> {
  readonly kinds: readonly K[];
  /** Reported when the name is not declared at all. */
  readonly unknown: "WOW2001" | "WOW2002" | "WOW2003" | "WOW2004";
  /** Where the reference stands, for WOW2006: "`produces`", "a handler parameter". */
  readonly place: string;
  /** What that place needs: "an event", "a service". */
  readonly expected: string;
  /** What to do when the name is of the wrong kind and nothing near fits. */
  readonly advice: string;
  /** Names that are not declarations but may be meant (the built-in types). */
  readonly builtins?: readonly string[];
}

export type SymbolOf<K extends SymbolKind> = Extract<WowSymbol, { kind: K }>;

/**
 * A name the checker looked up and found (of the expected kind or not): where it is written, and the
 * qualified name of the declaration it names. By name, not by symbol: a context that is not
 * re-checked keeps its references, and they must lead to the declaration as it is now.
 */
export interface ResolvedReference {
  readonly ref: QualifiedName;
  readonly target: string;
}

export class Resolver {
  private readonly looked = new Set<string>();
  private searchedAll = false;
  /** Suggestions made so far, by what decides them: a misspelt name is often used many times. */
  private readonly suggestions = new Map<string, string | undefined>();
  private readonly elsewhere = new Map<string, { readonly byName: ReadonlyMap<string, string>; readonly names: Candidates }>();
  private readonly local = new Map<string, Candidates>();

  /**
   * `references`: when given, every name found is recorded there (an editor's definitions,
   * references and renames); a build does without.
   */
  constructor(
    private readonly program: BoundProgram,
    private readonly reporter: Reporter,
    private readonly references?: ResolvedReference[],
  ) {}

  /** The contexts other than the caller's that resolutions read so far, or "all" (see ContextCheck). */
  dependencies(): ReadonlySet<string> | "all" {
    return this.searchedAll ? "all" : this.looked;
  }

  /** The symbol `ref` names from `scope`, or undefined (reported) when it names nothing of the kinds expected. */
  resolve<K extends SymbolKind>(ref: QualifiedName, scope: ContextScope, expectation: Expectation<K>): SymbolOf<K> | undefined {
    const target = this.scopeOf(ref, scope);
    if (target === undefined) return undefined;
    const symbol = target.symbols.get(ref.name.text);
    if (symbol !== undefined) this.references?.push({ ref, target: symbol.qualifiedName });
    if (symbol === undefined) {
      const suggestion =
        (ref.context === undefined ? nearest(ref.name.text, expectation.builtins ?? []) : undefined) ??
        this.suggest(ref, scope, target, expectation.kinds);
      // WOW2001–WOW2004 take the same arguments: the hint speaks of the simple name, in the context looked in.
      const where = ref.context === undefined ? "this context" : `context '${target.name}'`;
      this.reporter.report(expectation.unknown as "WOW2001", { name: ref.text, simple: ref.name.text, where, suggestion: didYouMean(suggestion) }, ref.loc);
      return undefined;
    }
    if (!(expectation.kinds as readonly SymbolKind[]).includes(symbol.kind)) {
      const suggestion = this.suggest(ref, scope, target, expectation.kinds);
      this.reporter.report(
        "WOW2006",
        {
          name: ref.text,
          actual: describeKind(symbol.kind),
          place: expectation.place,
          expected: expectation.expected,
          suggestion: suggestion === undefined ? expectation.advice : didYouMean(suggestion) + expectation.advice,
        },
        ref.loc,
      );
      return undefined;
    }
    return symbol as SymbolOf<K>;
  }

  /** The scope a reference looks in; reports an unknown context. */
  scopeOf(ref: QualifiedName, scope: ContextScope): ContextScope | undefined {
    if (ref.context === undefined) return scope;
    const target = this.program.contexts.get(ref.context.text);
    if (target !== undefined) this.looked.add(target.name);
    else {
      this.searchedAll = true; // declaring that context (or a near name) changes this result
      const suggestion = nearest(ref.context.text, this.program.contexts.keys());
      this.reporter.report("WOW2005", { name: ref.context.text, suggestion: didYouMean(suggestion) }, ref.context.loc);
    }
    return target;
  }

  /**
   * The nearest name of the expected kinds: in the context looked in first; for an unqualified
   * name, then the same name in another context, then the nearest name of any context.
   */
  private suggest(ref: QualifiedName, from: ContextScope, target: ContextScope, kinds: readonly SymbolKind[]): string | undefined {
    // (A search that reads every context sets searchedAll, which stays set: a hit needs not repeat it.)
    const key = `${from.name} ${ref.context === undefined ? "" : target.name}.${ref.name.text} ${kinds.join(",")}`;
    if (this.suggestions.has(key)) return this.suggestions.get(key);
    const suggestion = this.search(ref, from, target, kinds);
    this.suggestions.set(key, suggestion);
    return suggestion;
  }

  private search(ref: QualifiedName, from: ContextScope, target: ContextScope, kinds: readonly SymbolKind[]): string | undefined {
    const name = ref.name.text;
    const prefix = ref.context === undefined ? "" : `${target.name}.`;
    const local = this.candidates(target, kinds).nearest(name);
    if (local !== undefined) return prefix + local;
    if (ref.context !== undefined) return undefined;
    this.searchedAll = true;
    const elsewhere: string[] = [];
    for (const scope of this.program.contexts.values()) {
      if (scope === from) continue;
      const symbol = scope.symbols.get(name);
      if (symbol !== undefined && kinds.includes(symbol.kind)) elsewhere.push(symbol.qualifiedName);
    }
    if (elsewhere.length > 0) return elsewhere.sort()[0];
    const { byName, names } = this.namesElsewhere(from, kinds);
    const best = names.nearest(name);
    return best === undefined ? undefined : byName.get(best);
  }

  /** The names of `scope`'s symbols of `kinds`, prepared for suggestions once per scope and kinds. */
  private candidates(scope: ContextScope, kinds: readonly SymbolKind[]): Candidates {
    const key = `${scope.name} ${kinds.join(",")}`;
    let found = this.local.get(key);
    if (found === undefined) {
      found = new Candidates(namesOf(scope, kinds));
      this.local.set(key, found);
    }
    return found;
  }

  /** The names of the other contexts' symbols of `kinds`, sorted, each with a qualified name: made once per search kind. */
  private namesElsewhere(from: ContextScope, kinds: readonly SymbolKind[]): { readonly byName: ReadonlyMap<string, string>; readonly names: Candidates } {
    const key = `${from.name} ${kinds.join(",")}`;
    let found = this.elsewhere.get(key);
    if (found === undefined) {
      const byName = new Map<string, string>();
      for (const scope of this.program.contexts.values()) {
        if (scope === from) continue;
        for (const candidate of namesOf(scope, kinds)) byName.set(candidate, `${scope.name}.${candidate}`);
      }
      found = { byName, names: new Candidates([...byName.keys()].sort()) };
      this.elsewhere.set(key, found);
    }
    return found;
  }
}

function* namesOf(scope: ContextScope, kinds: readonly SymbolKind[]): Iterable<string> {
  for (const symbol of scope.symbols.values()) if (kinds.includes(symbol.kind)) yield symbol.name;
}
