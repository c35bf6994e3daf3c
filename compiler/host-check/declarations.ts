// What the `.wow` declarations promise, per handler function: the command types it may `schedule`
// and (sagas) send with `command`, each with the location of its entry in the annotation's list.
import type { Annotation, AnnotationValue, Location } from "../ast.js";
import type { CommandSymbol } from "../binder/symbols.js";
import { identifier } from "../emit/escape.js";
import { aggregatesFile, contextFolder, sagasFile } from "../emit/imports.js";
import type { ProgramModel } from "../model.js";

/** Which generated context object the handler receives: decides the methods and argument positions. */
export type HandlerKind = "aggregate" | "saga-event" | "job";

/** One command type a handler declares, and where the declaration names it. */
export interface DeclaredCommand {
  readonly command: CommandSymbol;
  /** The list entry (`CancelOrder` in `schedules = [CancelOrder]`), or the handler when not found. */
  readonly loc: Location;
}

export interface HandlerDeclarationInfo {
  readonly kind: HandlerKind;
  /** The implementation's property name: `onConfirmOrderStock`, `receiveDeliveries`. */
  readonly function: string;
  /** How the user recognises it: `@OnCommand on ConfirmOrderStock`. */
  readonly label: string;
  /** The annotation as the hint names it: `@OnCommand(schedules = [...])`. */
  readonly annotation: string;
  /** The handler's annotation (where the lists are), else the handler. */
  readonly loc: Location;
  readonly schedules: readonly DeclaredCommand[];
  /** Saga event handlers and jobs; empty for aggregates. */
  readonly commands: readonly DeclaredCommand[];
}

/** An aggregate or saga: its generated `define…` function and the handlers an implementation has. */
export interface OwnerDeclaration {
  readonly kind: "aggregate" | "saga";
  /** `Order`, `StockSaga`. */
  readonly name: string;
  readonly context: string;
  /** The generated file that declares `define…`, relative to the SDK directory, without extension. */
  readonly sdkFile: string;
  /** `defineOrder`: the generated function that turns an implementation into a registration. */
  readonly define: string;
  readonly handlers: readonly HandlerDeclarationInfo[];
}

export function declarationsOf(model: ProgramModel): OwnerDeclaration[] {
  const owners: OwnerDeclaration[] = [];
  for (const context of model.contexts) {
    const folder = contextFolder(context.name);
    for (const aggregate of context.aggregates) {
      const handlers = aggregate.commands.flatMap((command): HandlerDeclarationInfo[] => {
        const handler = command.handler;
        if (handler === undefined) return [];
        const annotation = findAnnotation(handler.decl.annotations, "OnCommand");
        return [{
          kind: "aggregate",
          function: handler.function,
          label: `on ${command.name}`,
          annotation: "@OnCommand",
          loc: annotation?.loc ?? handler.decl.loc,
          schedules: listed(annotation, "schedules", handler.schedules.map((s) => s.command), context.name, handler.decl.loc),
          commands: [],
        }];
      });
      owners.push({ kind: "aggregate", name: aggregate.name, context: context.name, sdkFile: `${folder}/${aggregatesFile()}`, define: `define${identifier(aggregate.name)}`, handlers });
    }
    for (const saga of context.sagas) {
      const events = saga.eventHandlers.map((handler): HandlerDeclarationInfo => {
        const annotation = findAnnotation(handler.decl.annotations, "OnEvent");
        return {
          kind: "saga-event",
          function: handler.function,
          label: `on ${handler.decl.target.text}`,
          annotation: "@OnEvent",
          loc: annotation?.loc ?? handler.decl.loc,
          schedules: listed(annotation, "schedules", handler.schedules.map((s) => s.command), context.name, handler.decl.loc),
          commands: listed(annotation, "commands", handler.commands, context.name, handler.decl.loc),
        };
      });
      const jobs = saga.jobs.map((job): HandlerDeclarationInfo => {
        const annotation = findAnnotation(job.decl.annotations, "OnSchedule");
        return {
          kind: "job",
          function: job.function,
          label: `job ${job.function}`,
          annotation: "@OnSchedule",
          loc: annotation?.loc ?? job.decl.loc,
          schedules: [],
          commands: listed(annotation, "commands", job.commands, context.name, job.decl.loc),
        };
      });
      owners.push({ kind: "saga", name: saga.name, context: context.name, sdkFile: `${folder}/${sagasFile()}`, define: `define${identifier(saga.name)}`, handlers: [...events, ...jobs] });
    }
  }
  return owners;
}

function findAnnotation(annotations: readonly Annotation[], name: string): Annotation | undefined {
  return annotations.find((a) => a.name.text === name);
}

/** Each command with the location of its entry in `argument = [...]` (the handler when not written there). */
function listed(
  annotation: Annotation | undefined,
  argument: string,
  commands: readonly CommandSymbol[],
  context: string,
  fallback: Location,
): DeclaredCommand[] {
  const value = annotation?.args.find((a) => a.name.text === argument)?.value;
  const items: readonly AnnotationValue[] = value?.kind === "List" ? value.items : [];
  return commands.map((command) => {
    const item = items.find(
      (i) => i.kind === "Reference" && i.name.name.text === command.name && (i.name.context?.text ?? context) === command.context,
    );
    return { command, loc: item?.loc ?? fallback };
  });
}
