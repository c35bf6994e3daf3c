// `wowc check --host <tsconfig>`: the host's TypeScript against the `.wow` declarations, both ways.
// A handler that schedules (or, in a saga, sends) a command type its declaration does not list is an
// error at the call; a listed type that no implementation of the handler schedules (sends) is a
// warning at the list entry in the `.wow` file. An implementation object that cannot be followed is a
// warning at its `define…` call, never silence: its handlers went unchecked. Loaded lazily: only this
// command needs ts-morph.
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { Project } from "ts-morph";
import type { Location } from "../ast.js";
import { createDiagnostic, type Diagnostic } from "../diagnostics/diagnostic.js";
import type { ProgramModel } from "../model.js";
import { reasonOf } from "../diagnostics/reason.js";
import { commandCalls, type CommandCall, type SendMethod } from "./calls.js";
import { declarationsOf, type DeclaredCommand, type HandlerDeclarationInfo, type OwnerDeclaration } from "./declarations.js";
import { findImplementations, type Implementation } from "./implementations.js";
import { displayPath, HostLocations, where } from "./locations.js";

export interface HostCheckOptions {
  /** The build root: every path is reported relative to it. */
  readonly root: string;
  /** The generated SDK directory (`<root>/generated` by default). */
  readonly sdkDir: string;
  /** The host project's tsconfig.json. */
  readonly tsconfig: string;
  /** The checked program the SDK was generated from. */
  readonly model: ProgramModel;
  /** Told as each step starts (the CLI's progress line on a terminal): the reading of the project takes seconds. */
  readonly onStep?: (step: string) => void;
}

export function checkHost(options: HostCheckOptions): Diagnostic[] {
  const root = resolve(options.root);
  const tsconfig = resolve(options.tsconfig);
  const sdkDir = resolve(options.sdkDir).split("\\").join("/");
  const shown = displayPath(root, tsconfig);
  if (!existsSync(tsconfig)) return [createDiagnostic("WOW5006", { path: shown, reason: "no such file." })];
  let project: Project;
  options.onStep?.(`reading the TypeScript project ${shown}`);
  try {
    project = new Project({ tsConfigFilePath: tsconfig });
  } catch (error) {
    return [createDiagnostic("WOW5006", { path: shown, reason: reasonOf(error) })];
  }
  const owners = declarationsOf(options.model);
  options.onStep?.("finding the define… calls of the generated SDK");
  const implementations = findImplementations(project, owners, sdkDir);
  if (implementations.length === 0) {
    const example = owners[0] === undefined ? "defineOrder" : `define${owners[0].name}`;
    return [createDiagnostic("WOW5007", { path: shown, sdk: displayPath(root, sdkDir), example })];
  }
  options.onStep?.(`checking ${implementations.length} implementation${implementations.length === 1 ? "" : "s"} against the declarations`);
  return new HostChecker(new HostLocations(root), sdkDir).check(owners, implementations);
}

/** What one declared handler's implementations do, gathered over every `define…` call of its owner. */
interface HandlerUse {
  readonly sent: Record<SendMethod, Set<string>>;
  /** False when some implementation could not be read or a call's command type is unknown. */
  known: boolean;
  readonly sites: Location[];
}

class HostChecker {
  private readonly diagnostics: Diagnostic[] = [];
  private readonly reported = new Set<string>();

  constructor(
    private readonly locations: HostLocations,
    private readonly sdkDir: string,
  ) {}

  check(owners: readonly OwnerDeclaration[], implementations: readonly Implementation[]): Diagnostic[] {
    for (const implementation of implementations) {
      if (implementation.unread !== true) continue;
      const argument = implementation.call.getArguments()[0] ?? implementation.call;
      const where_ = where(this.locations.of(implementation.call));
      this.diagnostics.push(createDiagnostic("WOW5008", { define: implementation.owner.define, where: where_, owner: implementation.owner.name }, this.locations.of(argument)));
    }
    for (const owner of owners) {
      const mine = implementations.filter((i) => i.owner === owner);
      if (mine.length === 0) continue;
      for (const handler of owner.handlers) {
        const use: HandlerUse = { sent: { schedule: new Set(), command: new Set() }, known: true, sites: [] };
        for (const implementation of mine) this.checkImplementation(owner, handler, implementation, use);
        if (use.known && use.sites.length > 0) this.reportUnused(handler, use);
      }
    }
    return this.diagnostics;
  }

  private checkImplementation(owner: OwnerDeclaration, handler: HandlerDeclarationInfo, implementation: Implementation, use: HandlerUse): void {
    if (!implementation.complete) use.known = false;
    const found = implementation.handlers.get(handler.function);
    if (found === undefined) return;
    use.sites.push(this.locations.of(found.site));
    if (found.fn === undefined) {
      use.known = false;
      return;
    }
    for (const call of commandCalls(found.fn, handler.kind, this.sdkDir)) {
      if (!Array.isArray(call.types)) {
        use.known = false;
        this.report(call, handler, "WOW5005", () =>
          createDiagnostic("WOW5005", { method: call.method, type: (call.types as { undetermined: string }).undetermined, example: exampleFactory(handler, call.method), function: handler.function }, this.locations.of(call.argument)),
        );
        continue;
      }
      for (const type of call.types as readonly string[]) {
        use.sent[call.method].add(type);
        const declared = call.method === "schedule" ? handler.schedules : handler.commands;
        if (declared.some((d) => d.command.qualifiedName === type)) continue;
        const command = displayName(type, owner.context);
        const args = { command, annotation: handler.annotation, function: handler.function, declaration: handler.label, where: where(handler.loc) };
        const code = call.method === "schedule" ? "WOW5001" : "WOW5002";
        this.report(call, handler, `${code} ${type}`, () => createDiagnostic(code, args, this.locations.of(call.argument)));
      }
    }
  }

  private reportUnused(handler: HandlerDeclarationInfo, use: HandlerUse): void {
    const implementations = use.sites.map((site) => `${handler.function} (${where(site)})`).join(", ");
    const unused = (declared: readonly DeclaredCommand[], method: SendMethod): DeclaredCommand[] =>
      declared.filter((d) => !use.sent[method].has(d.command.qualifiedName));
    for (const d of unused(handler.schedules, "schedule")) {
      this.diagnostics.push(createDiagnostic("WOW5003", { command: d.command.name, declaration: handler.label, function: handler.function, implementations }, d.loc));
    }
    for (const d of unused(handler.commands, "command")) {
      this.diagnostics.push(createDiagnostic("WOW5004", { command: d.command.name, declaration: handler.label, function: handler.function, implementations }, d.loc));
    }
  }

  /** Once per call site, handler and finding (a helper shared by two handlers is reached twice). */
  private report(call: CommandCall, handler: HandlerDeclarationInfo, key: string, make: () => Diagnostic): void {
    const id = `${call.call.getSourceFile().getFilePath()}:${call.call.getStart()}:${handler.function}:${key}`;
    if (this.reported.has(id)) return;
    this.reported.add(id);
    this.diagnostics.push(make());
  }
}

/** `CancelOrder` within its own context, `eshop-order.CancelOrder` from another. */
function displayName(qualified: string, context: string): string {
  return qualified.startsWith(`${context}.`) ? qualified.slice(context.length + 1) : qualified;
}

function exampleFactory(handler: HandlerDeclarationInfo, method: SendMethod): string {
  const declared = method === "schedule" ? handler.schedules : handler.commands;
  return declared[0]?.command.name ?? "CancelOrder";
}
