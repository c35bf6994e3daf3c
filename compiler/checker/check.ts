// The checker: walks every bound file, runs the checks of each area and builds the program model.
import type { EnumDeclaration, ServiceDeclaration } from "../ast.js";
import type { BoundProgram } from "../binder/symbols.js";
import type { AggregateModel, ContextModel, ProgramModel, SagaModel, TypeModel } from "../model.js";
import { checkAggregate } from "./aggregates.js";
import { readAnnotations } from "./annotations.js";
import { checkCompleteness } from "./completeness.js";
import type { CheckContext } from "./context.js";
import { checkFields } from "./fields.js";
import { checkDeclarationName } from "./names.js";
import type { Reporter } from "./reporter.js";
import { Resolver } from "./resolve.js";
import { checkSaga } from "./sagas.js";

export interface CheckOptions {
  /**
   * False when some file has syntax errors: the checks that need the whole program (a command with
   * no handler, an event nobody produces, a rejection handler that never runs) are skipped, since
   * the missing piece may simply not have parsed.
   */
  readonly complete: boolean;
}

export function check(program: BoundProgram, reporter: Reporter, options: CheckOptions): ProgramModel {
  const cx: CheckContext = {
    program,
    reporter,
    resolver: new Resolver(program, reporter),
    handled: new Map(),
    produced: new Set(),
    jobNames: new Map(),
  };
  const contexts: ContextModel[] = [];
  for (const scope of program.contexts.values()) {
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
            types.push({ decl, name: decl.name.text, fields: checkFields(decl.fields, `type '${decl.name.text}'`, scope, cx.resolver, reporter) });
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
    contexts.push({
      name: scope.name,
      files: scope.files.map((f) => f.file.path),
      docs,
      types,
      enums,
      services,
      aggregates,
      sagas,
    });
  }
  if (options.complete) checkCompleteness(cx);
  contexts.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { contexts };
}

function checkEnumMembers(decl: EnumDeclaration, reporter: Reporter): void {
  const seen = new Set<string>();
  for (const member of decl.members) {
    const name = member.name.text;
    if (name !== "" && seen.has(name)) reporter.report("WOW2009", { name, owner: decl.name.text }, member.name.loc);
    seen.add(name);
  }
}
