// Aggregates: state, commands (create/delete), events and command handlers (`@OnCommand`).
import type { AggregateDeclaration, Field, HandlerDeclaration, Location, MessageDeclaration } from "../ast.js";
import type { CommandSymbol, ContextScope, EventSymbol } from "../binder/symbols.js";
import type { AggregateModel, CommandHandlerModel, CommandModel, EventModel, FieldModel } from "../model.js";
import { readAnnotations } from "./annotations.js";
import { checkRetry } from "./run-policy.js";
import type { CheckContext } from "./context.js";
import { checkFields } from "./fields.js";
import { checkDeclarationName } from "./names.js";
import { commandIn, producedEvents, resolveList, resolveServices, scheduledCommands } from "./references.js";
import { where } from "../diagnostics/reporter.js";

const handledCommand = {
  ...commandIn("an aggregate's `on`"),
  advice: "An aggregate handles its own commands; to react to an event, write `@OnEvent on EventName` in a saga.",
};

export function checkAggregate(decl: AggregateDeclaration, scope: ContextScope, cx: CheckContext): AggregateModel {
  const { reporter, resolver } = cx;
  checkDeclarationName(decl.name, reporter);
  readAnnotations(decl.annotations, "aggregate", reporter);
  const aggregateName = decl.name.text;

  let state: FieldModel[] = [];
  let stateLoc: Location | undefined;
  const stateFields: Field[] = [];
  const commandDecls: MessageDeclaration[] = [];
  const eventDecls: MessageDeclaration[] = [];
  const handlerDecls: HandlerDeclaration[] = [];
  for (const member of decl.members) {
    switch (member.kind) {
      case "State":
        if (stateLoc !== undefined) reporter.report("WOW3022", { name: aggregateName }, member.loc);
        else stateLoc = member.loc;
        stateFields.push(...member.fields);
        break;
      case "Command":
        commandDecls.push(member);
        break;
      case "Event":
        eventDecls.push(member);
        break;
      case "Handler":
        handlerDecls.push(member);
        break;
    }
  }
  state = checkFields(stateFields, `the state of aggregate '${aggregateName}'`, scope, resolver, reporter);

  const events: EventModel[] = eventDecls.map((event) => {
    checkDeclarationName(event.name, reporter);
    readAnnotations(event.annotations, "event", reporter);
    return { decl: event, name: event.name.text, fields: checkFields(event.fields, `event '${event.name.text}'`, scope, resolver, reporter) };
  });

  const handlers = new Map<string, CommandHandlerModel>();
  for (const handler of handlerDecls) {
    const checked = checkCommandHandler(handler, decl, scope, cx);
    if (checked !== undefined && !handlers.has(checked.command)) handlers.set(checked.command, checked.model);
  }

  const commands: CommandModel[] = commandDecls.map((command) => {
    checkDeclarationName(command.name, reporter);
    const annotations = readAnnotations(command.annotations, "command", reporter);
    const create = annotations.has("CreateAggregate");
    const remove = annotations.has("DeleteAggregate");
    if (create && remove) reporter.report("WOW3017", { name: command.name.text }, annotations.get("DeleteAggregate")!.loc);
    const handler = handlers.get(`${scope.name}.${command.name.text}`);
    const model: { -readonly [K in keyof CommandModel]: CommandModel[K] } = {
      decl: command,
      name: command.name.text,
      fields: checkFields(command.fields, `command '${command.name.text}'`, scope, resolver, reporter),
      create,
      delete: remove && !create,
    };
    // Set when there is one, rather than spread from a conditional object (one per command).
    if (handler !== undefined) model.handler = handler;
    return model;
  });

  return { decl, name: aggregateName, state, ...(stateLoc === undefined ? {} : { stateLoc }), commands, events };
}

/**
 * Whether a command or event belongs to `self`. Decided by the declaration, not the name: an
 * aggregate named like an earlier declaration (WOW2007) is not in its context's scope, and its
 * checks must not run against that other declaration.
 */
function belongsTo(message: CommandSymbol | EventSymbol, self: AggregateDeclaration): boolean {
  return message.aggregate.decl === self;
}

/**
 * Whether `self` declares a command or event of this name that lost its name to an earlier
 * declaration (WOW2007): a reference to it finds that other one, and the duplicate-name error says all.
 */
function declaresShadowed(message: CommandSymbol | EventSymbol, self: AggregateDeclaration, scope: ContextScope): boolean {
  return message.context === scope.name && self.members.some((m) => m.kind === message.kind && m.name.text === message.name);
}

function checkCommandHandler(
  handler: HandlerDeclaration,
  self: AggregateDeclaration,
  scope: ContextScope,
  cx: CheckContext,
): { command: string; model: CommandHandlerModel } | undefined {
  const { reporter, resolver } = cx;
  const aggregateName = self.name.text;
  const annotations = readAnnotations(handler.annotations, "aggregate handler", reporter);
  const blocking = annotations.get("Blocking");
  if (blocking !== undefined) reporter.report("WOW4015", {}, blocking.name.loc);
  const retry = checkRetry(annotations, cx);
  const services = resolveServices(handler.params, scope, resolver, reporter);
  const produceRefs = annotations.names("OnCommand", "produces");
  const produces = resolveList(produceRefs, scope, producedEvents, resolver, reporter);
  for (const event of produces) {
    cx.produced.add(event.qualifiedName);
    if (!belongsTo(event, self) && !declaresShadowed(event, self, scope)) {
      const ref = produceRefs.find((r) => r.name.text === event.name && (r.context?.text ?? scope.name) === event.context);
      reporter.report("WOW3009", { event: event.name, owner: event.aggregate.name, aggregate: aggregateName }, (ref ?? handler.target).loc);
    }
  }
  const schedules = resolveList(annotations.names("OnCommand", "schedules"), scope, scheduledCommands, resolver, reporter).map(
    (command) => ({ command, targetRequired: !belongsTo(command, self) }),
  );

  const command = resolver.resolve(handler.target, scope, handledCommand);
  if (command === undefined) return undefined;
  if (!belongsTo(command, self)) {
    if (!declaresShadowed(command, self, scope)) {
      reporter.report("WOW3005", { aggregate: aggregateName, command: handler.target.text, owner: command.aggregate.name }, handler.target.loc);
    }
    return undefined;
  }
  const first = cx.handled.get(command.qualifiedName);
  if (first !== undefined) {
    reporter.report("WOW3006", { name: handler.target.text, other: where(first) }, handler.target.loc, [first]);
    return undefined;
  }
  cx.handled.set(command.qualifiedName, handler.target.loc);
  const model: { -readonly [K in keyof CommandHandlerModel]: CommandHandlerModel[K] } = { decl: handler, function: `on${command.name}`, services, produces, schedules, blocking: blocking !== undefined };
  if (retry !== undefined && retry !== null) model.retry = retry; // a wrong @Retry is reported; the handler stands
  return { command: command.qualifiedName, model };
}
