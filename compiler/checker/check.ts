// The checker: checks one bound context (every area of its files) into its model, and the checks
// that read every context's model at once. The program (program/incremental.ts) runs them.
import type { EnumDeclaration, ServiceDeclaration } from "../ast.js";
import type { BoundProgram, ContextScope } from "../binder/symbols.js";
import type { AggregateModel, ContextModel, ProgramModel, SagaModel, TypeModel } from "../model.js";
import { checkAggregate } from "./aggregates.js";
import { readAnnotations } from "./annotations.js";
import type { CheckContext } from "./context.js";
import { checkFields } from "./fields.js";
import { checkJobVariables } from "./job-variables.js";
import { ScheduleVerdicts } from "./schedule-verdicts.js";
import { checkDeclarationName } from "./names.js";
import type { Reporter } from "../diagnostics/reporter.js";
import { Resolver, type ResolvedReference } from "./resolve.js";
import { checkRoutes } from "./routes.js";
import { checkSaga } from "./sagas.js";
import { checkSubscriptions } from "./subscriptions.js";
import { exact } from "../parse/exact.js";

export interface CheckOptions {
  /**
   * False when some file has syntax errors: the checks that need the whole program (a command with
   * no handler, an event nobody produces, a rejection handler that never runs) are skipped, since
   * the missing piece may simply not have parsed.
   */
  readonly complete: boolean;
  /** The cron and zone verdicts of this build (a compile's contexts share one; default: one per call). */
  readonly verdicts?: ScheduleVerdicts;
  /** Record every name resolved (`ContextCheck.references`): for editors, off in a build. */
  readonly references?: boolean;
}

/** What checking one context gives: its model, and what the whole-program checks need from it. */
export interface ContextCheck {
  readonly model: ContextModel;
  /** Commands (qualified names) handled by an `on` in this context. */
  readonly handled: ReadonlyMap<string, unknown>;
  /** Events (qualified names) listed in some `produces` of this context. */
  readonly produced: ReadonlySet<string>;
  /**
   * The other contexts whose declarations this context's model and diagnostics depend on, or "all"
   * (a suggestion searched every context, or an unknown context was named).
   */
  readonly dependencies: ReadonlySet<string> | "all";
  /** With `CheckOptions.references`: every name of the context's files that names a declaration. */
  readonly references?: readonly ResolvedReference[];
}

/** The checks that read every context's model at once (a job's key, a subscription's name): redone on every compile. */
export function checkAcrossContexts(model: ProgramModel, reporter: Reporter): void {
  checkJobVariables(model, reporter);
  checkSubscriptions(model, reporter);
}

/** Context models in name order (the program model's order). */
export function sortedModels(models: ContextModel[]): ContextModel[] {
  return models.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * Checks one context against the bound program. Depends only on the scopes named by
 * `dependencies`, so the watcher re-checks a context only when one of those changed.
 */
export function checkContext(scope: ContextScope, program: BoundProgram, reporter: Reporter, options: CheckOptions): ContextCheck {
  const references: ResolvedReference[] | undefined = options.references === true ? [] : undefined;
  const resolver = new Resolver(program, reporter, references);
  const verdicts = options.verdicts ?? new ScheduleVerdicts();
  const cx: CheckContext = { program, reporter, resolver, handled: new Map(), produced: new Set(), jobNames: new Map(), verdicts };
  const types: TypeModel[] = [];
  const enums: EnumDeclaration[] = [];
  const services: ServiceDeclaration[] = [];
  const aggregates: AggregateModel[] = [];
  const sagas: SagaModel[] = [];
  const docs: string[] = [];
  for (const file of scope.files) {
    if (file.context?.doc !== undefined) docs.push(file.context.doc);
    for (const decl of file.declarations) {
      switch (decl.kind) {
        case "Type":
          checkDeclarationName(decl.name, reporter);
          readAnnotations(decl.annotations, "type", reporter);
          types.push({ decl, name: decl.name.text, fields: checkFields(decl.fields, `type '${decl.name.text}'`, scope, resolver, reporter) });
          break;
        case "Enum":
          checkDeclarationName(decl.name, reporter);
          readAnnotations(decl.annotations, "enum", reporter);
          checkEnumMembers(decl, reporter);
          enums.push(decl);
          break;
        case "Service":
          checkDeclarationName(decl.name, reporter);
          readAnnotations(decl.annotations, "service", reporter);
          services.push(decl);
          break;
        case "Aggregate":
          aggregates.push(checkAggregate(decl, scope, cx));
          break;
        case "Saga":
          sagas.push(checkSaga(decl, scope, cx, options.complete));
          break;
      }
    }
  }
  checkRoutes(scope.name, aggregates, reporter);
  const model: ContextModel = {
    name: scope.name,
    files: scope.files.map((f) => f.file.path),
    docs: exact(docs),
    types: exact(types),
    enums: exact(enums),
    services: exact(services),
    aggregates: exact(aggregates),
    sagas: exact(sagas),
  };
  return { model, handled: cx.handled, produced: cx.produced, dependencies: resolver.dependencies(), ...(references === undefined ? {} : { references }) };
}

function checkEnumMembers(decl: EnumDeclaration, reporter: Reporter): void {
  const seen = new Set<string>();
  for (const member of decl.members) {
    const name = member.name.text;
    if (name !== "" && seen.has(name)) reporter.report("WOW2009", { name, owner: decl.name.text }, member.name.loc);
    seen.add(name);
  }
}
