// The view model of one aggregate's generated file: state, command and event types with their type
// names and factories, the typed decisions and scopes, the handler interface and `define…`.
import type { CommandSymbol, EventSymbol } from "../binder/symbols.js";
import type { JsonSchema } from "../manifest/body-schema.js";
import type { AggregateModel, CommandModel, EventModel, RetryModel, ScheduledCommand } from "../model.js";
import { docComment, identifier, jsonLiteral, methodKey, propertyAccess, stringArray, stringLiteral } from "./escape.js";
import { factoryView, fieldViews, type FieldView } from "./field-view.js";
import { declaredWhere } from "./declared-view.js";
import { aggregatesFile, type Imports } from "./imports.js";
import { serviceTypeViews, serviceViews, type ServiceView } from "./service-view.js";

export interface MessageView {
  readonly doc: string;
  /** The body interface and factory name (`CancelOrder`). */
  readonly name: string;
  /** The typed message alias (`CancelOrderCommand`, `OrderPaidEvent`). */
  readonly alias: string;
  /** The fully qualified type as a literal (`"eshop-order.CancelOrder"`). */
  readonly type: string;
  readonly fields: readonly FieldView[];
  /** False for a message without fields: its body type then refuses every property. */
  readonly hasFields: boolean;
  readonly parameters: string;
  readonly body: string;
  readonly kind: "Command" | "Event";
}

export interface CommandHandlerView {
  readonly doc: string;
  readonly method: string;
  readonly body: string;
  readonly type: string;
  /** The literal union of the events it may produce, or `never`. */
  readonly produces: string;
  readonly ownSchedules: string;
  readonly foreignSchedules: string;
  /** The declarations named by type errors: `"produces = [OrderPaid] of on PayOrder"`, `"schedules = [] of on PayOrder"`. */
  readonly producesWhere: string;
  readonly schedulesWhere: string;
  readonly services: readonly ServiceView[];
  readonly hasServices: boolean;
  /**
   * The registration's entries before `decide`: `create`, `delete` and `services` when they apply,
   * then what the declaration promises, for the runtime to hold each decision to — `produces` and
   * `schedules` (qualified types), `bodySchema` (manifest/body-schema.ts) — as literals.
   */
  readonly registration: readonly string[];
  /** `impl.onCreateOrder(state, command as …, scope…)` arguments after `command`. */
  readonly call: string;
}

export interface ApplyView {
  readonly key: string;
  readonly type: string;
  readonly body: string;
  readonly access: string;
  readonly doc: string;
}

export interface AggregateView {
  readonly doc: string;
  readonly context: string;
  readonly aggregate: string;
  readonly name: string;
  readonly state: string;
  /** The `state` block's doc comment, or a line naming the aggregate. */
  readonly stateDoc: string;
  readonly stateFields: readonly FieldView[];
  readonly commands: readonly MessageView[];
  readonly events: readonly MessageView[];
  readonly handlers: readonly CommandHandlerView[];
  readonly applies: readonly ApplyView[];
  readonly serviceTypes: readonly ServiceView[];
  /** `<$Svc extends OrderServiceTypes = OrderServiceTypes>` when its handlers ask for services, else "". */
  readonly serviceParameter: string;
  /** `<$Svc>` when its handlers ask for services, else "". */
  readonly serviceArgument: string;
  readonly hasCreateCommand: boolean;
}

/**
 * `imports`: those of the context's aggregates module, shared by its aggregates (read once all are
 * viewed); `bodySchemaOf`: each command's body schema.
 */
export function aggregateView(context: string, aggregate: AggregateModel, imports: Imports, bodySchemaOf: (command: CommandModel) => JsonSchema): AggregateView {
  const name = identifier(aggregate.name);
  const commandOf = (symbol: CommandSymbol): string => imports.ref({ context: symbol.context, file: aggregatesFile() }, `${symbol.name}Command`);
  const eventType = (symbol: EventSymbol): string => stringLiteral(symbol.qualifiedName);
  const handlers = aggregate.commands.flatMap((command) => (command.handler === undefined ? [] : [handlerView(context, command, imports, commandOf, eventType, bodySchemaOf(command))]));
  const allServices = aggregate.commands.flatMap((command) => command.handler?.services ?? []);
  return {
    doc: docComment(aggregate.decl.doc),
    context: stringLiteral(context),
    aggregate: stringLiteral(aggregate.name),
    name,
    state: `${name}State`,
    stateDoc: docComment(aggregate.decl.members.find((m) => m.kind === "State")?.doc ?? `The state of aggregate ${name}.`),
    stateFields: fieldViews(aggregate.state, imports, "  "),
    commands: aggregate.commands.map((command) => messageView(context, command, "Command", imports)),
    events: aggregate.events.map((event) => messageView(context, event, "Event", imports)),
    handlers,
    applies: aggregate.events.map((event) => applyView(context, event)),
    serviceTypes: serviceTypeViews(context, allServices),
    ...serviceTypeParameter(name, allServices.length > 0),
    hasCreateCommand: aggregate.commands.some((command) => command.create),
  };
}

function messageView(context: string, message: CommandModel | EventModel, kind: "Command" | "Event", imports: Imports): MessageView {
  const factory = factoryView(identifier(message.name), message.fields);
  return {
    doc: docComment(message.decl.doc),
    name: identifier(message.name),
    alias: `${identifier(message.name)}${kind}`,
    type: stringLiteral(`${context}.${message.name}`),
    fields: fieldViews(message.fields, imports, "  "),
    hasFields: message.fields.length > 0,
    parameters: factory.parameters,
    body: factory.body,
    kind,
  };
}

function handlerView(
  context: string,
  command: CommandModel,
  imports: Imports,
  commandOf: (symbol: CommandSymbol) => string,
  eventType: (symbol: EventSymbol) => string,
  bodySchema: JsonSchema,
): CommandHandlerView {
  const handler = command.handler!;
  const union = (items: readonly ScheduledCommand[]): string => unionOf(items.map((s) => commandOf(s.command)));
  const services = serviceViews(context, handler.services);
  // Pushed in order rather than spread from conditional lists: one per command of the program.
  const registration: string[] = [];
  if (command.create) registration.push("create: true");
  if (command.delete) registration.push("delete: true");
  if (services.length > 0) registration.push(`services: [${services.map((s) => s.qualified).join(", ")}]`);
  registration.push(`produces: ${stringArray(handler.produces.map((e) => e.qualifiedName))}`, `schedules: ${stringArray(handler.schedules.map((s) => s.command.qualifiedName))}`, `bodySchema: ${jsonLiteral(bodySchema)}`);
  if (handler.retry !== undefined) registration.push(`retry: ${retryLiteral(handler.retry)}`);
  const body = identifier(command.name);
  return {
    doc: docComment(joinDocs(command.decl.doc, handler.decl.doc), "  "),
    method: methodKey(handler.function),
    body,
    type: stringLiteral(`${context}.${command.name}`),
    produces: unionOf(handler.produces.map(eventType)),
    ownSchedules: union(handler.schedules.filter((s) => !s.targetRequired)),
    foreignSchedules: union(handler.schedules.filter((s) => s.targetRequired)),
    producesWhere: declaredWhere(context, "produces", handler.produces, `on ${command.name}`),
    schedulesWhere: declaredWhere(context, "schedules", handler.schedules.map((s) => s.command), `on ${command.name}`),
    services,
    hasServices: services.length > 0,
    registration,
    call: `${propertyAccess("impl", handler.function)}(state, command as $wow.CommandMessage<${body}>, scope${services.length > 0 ? `, { ${services.map((s) => `${s.parameter}: services[${s.qualified}] as $Svc[${s.typeKey}]`).join(", ")} }` : ""})`,
  };
}

function applyView(context: string, event: EventModel): ApplyView {
  return {
    key: methodKey(event.name),
    type: stringLiteral(`${context}.${event.name}`),
    body: identifier(event.name),
    access: propertyAccess("impl.apply", event.name),
    doc: docComment(event.decl.doc, "    "),
  };
}

function joinDocs(...docs: (string | undefined)[]): string | undefined {
  const present = docs.filter((d): d is string => d !== undefined && d.trim() !== "");
  return present.length === 0 ? undefined : present.join("\n\n");
}

/**
 * The type parameter of the handlers interface and `define…`, which the host narrows the service
 * types with: only when there are services (an unused one is an error under `noUnusedParameters`).
 */
export function serviceTypeParameter(name: string, hasServices: boolean): { serviceParameter: string; serviceArgument: string } {
  return hasServices ? { serviceParameter: `<$Svc extends ${name}ServiceTypes = ${name}ServiceTypes>`, serviceArgument: "<$Svc>" } : { serviceParameter: "", serviceArgument: "" };
}

export function unionOf(members: readonly string[]): string {
  const unique = [...new Set(members)];
  return unique.length === 0 ? "never" : unique.join(" | ");
}

/** `@Retry(…)` as an object literal: `{ maxAttempts: 3, backoff: "30s" }`. */
export function retryLiteral(retry: RetryModel): string {
  const entries = [
    ...(retry.maxAttempts === undefined ? [] : [`maxAttempts: ${retry.maxAttempts}`]),
    ...(retry.backoff === undefined ? [] : [`backoff: ${stringLiteral(retry.backoff)}`]),
    ...(retry.maxBackoff === undefined ? [] : [`maxBackoff: ${stringLiteral(retry.maxBackoff)}`]),
  ];
  return entries.length === 0 ? "{}" : `{ ${entries.join(", ")} }`;
}
