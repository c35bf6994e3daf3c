// The view model of one saga's generated file: event handlers typed to their `commands` and
// `schedules`, rejection handlers, jobs (`ScheduleTick` → commands with full refs) and `define…`.
import type { CommandSymbol, EventSymbol } from "../binder/symbols.js";
import type { JobModel, SagaModel, ServiceParameter } from "../model.js";
import { retryLiteral, serviceTypeParameter, unionOf } from "./aggregate-view.js";
import { configKeyExpression } from "./config-view.js";
import { docComment, identifier, methodKey, propertyAccess, stringArray, stringLiteral } from "./escape.js";
import { declaredWhere, writtenName } from "./declared-view.js";
import { aggregatesFile, type Imports } from "./imports.js";
import { serviceTypeViews, serviceViews, type ServiceView } from "./service-view.js";

interface SagaFunctionView {
  readonly doc: string;
  readonly method: string;
  readonly function: string;
  readonly subscription: string;
  readonly services: readonly ServiceView[];
  readonly hasServices: boolean;
  /** The registration's `services: [...]` entry (with its trailing `, `), or "". */
  readonly servicesEntry: string;
  /** The object literal of typed services passed to the implementation, or "". */
  readonly servicesArgument: string;
  readonly blocking: boolean;
}

export interface SagaEventHandlerView extends SagaFunctionView {
  readonly event: string;
  readonly body: string;
  readonly commands: string;
  readonly schedules: string;
  readonly commandTypes: string;
  readonly scheduleTypes: string;
  /** The declarations named by type errors: `"commands = [ReserveStock] of on eshop-order.OrderCreated"`. */
  readonly commandsWhere: string;
  readonly schedulesWhere: string;
}

export interface SagaRejectionView extends SagaFunctionView {
  readonly command: string;
  readonly body: string;
}

export interface JobView extends SagaFunctionView {
  readonly name: string;
  readonly cron: string;
  readonly zone: string;
  readonly scope: string;
  readonly sharded: boolean;
  readonly misfire: string;
  readonly commands: string;
  readonly commandTypes: string;
  /** The declaration named by type errors: `"commands = [ReceiveStock] of job receiveDeliveries"`. */
  readonly commandsWhere: string;
  /** Its key under `wow.schedules`, read from config.ts: `$jobConfigKeys["eshop-inventory"]["receive-deliveries"]`. */
  readonly configKey: string;
  /** A readable summary for the TSDoc: `@OnSchedule(name = …, cron = …)`. */
  readonly summary: string;
  /** `overlap: "SKIP", timeout: "5m", jitter: …, retry: { … }, ` — the declared run policy, each entry only when declared. */
  readonly policyEntries: string;
}

export interface SagaView {
  readonly doc: string;
  readonly context: string;
  readonly saga: string;
  readonly name: string;
  readonly serviceTypes: readonly ServiceView[];
  /** `<$Svc extends …ServiceTypes = …ServiceTypes>` when its handlers ask for services, else "". */
  readonly serviceParameter: string;
  /** `<$Svc>` when its handlers ask for services, else "". */
  readonly serviceArgument: string;
  readonly eventHandlers: readonly SagaEventHandlerView[];
  readonly rejectionHandlers: readonly SagaRejectionView[];
  readonly jobs: readonly JobView[];
}

/** `imports`: those of the context's sagas module, shared by its sagas (read once all are viewed). */
export function sagaView(context: string, saga: SagaModel, imports: Imports): SagaView {
  const commandOf = (symbol: CommandSymbol): string => imports.ref({ context: symbol.context, file: aggregatesFile() }, `${symbol.name}Command`);
  const bodyOf = (symbol: CommandSymbol | EventSymbol): string => imports.ref({ context: symbol.context, file: aggregatesFile() }, symbol.name);
  const fn = (name: string, doc: string | undefined, services: readonly ServiceParameter[], blocking: boolean): SagaFunctionView => {
    const views = serviceViews(context, services);
    return {
      doc: docComment(doc, "  "),
      method: methodKey(name),
      function: stringLiteral(name),
      subscription: stringLiteral(`${saga.name}.${name}`),
      services: views,
      hasServices: views.length > 0,
      servicesEntry: views.length > 0 ? `services: [${views.map((s) => s.qualified).join(", ")}], ` : "",
      servicesArgument: views.length > 0 ? `{ ${views.map((s) => `${s.parameter}: services[${s.qualified}] as $Svc[${s.typeKey}]`).join(", ")} }` : "",
      blocking,
    };
  };
  const call = (name: string): string => propertyAccess("impl", name);
  const services = [...saga.eventHandlers.flatMap((h) => h.services), ...saga.rejectionHandlers.flatMap((h) => h.services), ...saga.jobs.flatMap((j) => j.services)];
  return {
    doc: docComment(saga.decl.doc),
    context: stringLiteral(context),
    saga: stringLiteral(saga.name),
    name: identifier(saga.name),
    serviceTypes: serviceTypeViews(context, services),
    ...serviceTypeParameter(identifier(saga.name), services.length > 0),
    // Each view is the function's view with its own entries added (no spread: these are many).
    eventHandlers: saga.eventHandlers.map((h) => Object.assign(fn(h.function, h.decl.doc, h.services, h.blocking), {
      call: call(h.function),
      event: stringLiteral(h.event.qualifiedName),
      body: bodyOf(h.event),
      commands: unionOf(h.commands.map(commandOf)),
      schedules: unionOf(h.schedules.map((s) => commandOf(s.command))),
      commandTypes: stringArray(h.commands.map((c) => c.qualifiedName)),
      scheduleTypes: stringArray(h.schedules.map((s) => s.command.qualifiedName)),
      commandsWhere: declaredWhere(context, "commands", h.commands, `on ${writtenName(context, h.event)}`),
      schedulesWhere: declaredWhere(context, "schedules", h.schedules.map((s) => s.command), `on ${writtenName(context, h.event)}`),
    })),
    rejectionHandlers: saga.rejectionHandlers.map((h) => Object.assign(fn(h.function, h.decl.doc, h.services, h.blocking), {
      call: call(h.function),
      command: stringLiteral(h.command.qualifiedName),
      body: bodyOf(h.command),
    })),
    jobs: saga.jobs.map((job) => jobView(context, job, fn(job.function, job.decl.doc, job.services, job.blocking), commandOf, call(job.function))),
  };
}

function jobView(context: string, job: JobModel, base: SagaFunctionView, commandOf: (symbol: CommandSymbol) => string, call: string): JobView & { call: string } {
  const summary = `@OnSchedule(name = ${JSON.stringify(job.name)}, cron = ${JSON.stringify(job.cron)}, zone = ${JSON.stringify(job.zone)}, scope = ${job.scope}, sharded = ${job.sharded}, misfire = ${job.misfire})`;
  const doc = [job.decl.doc, summary].filter((d) => d !== undefined && d.trim() !== "").join("\n\n");
  return Object.assign(base, {
    doc: docComment(doc, "  "),
    call,
    name: stringLiteral(job.name),
    cron: stringLiteral(job.cron),
    zone: stringLiteral(job.zone),
    scope: stringLiteral(job.scope),
    sharded: job.sharded,
    misfire: stringLiteral(job.misfire),
    commands: unionOf(job.commands.map(commandOf)),
    commandTypes: stringArray(job.commands.map((c) => c.qualifiedName)),
    commandsWhere: declaredWhere(context, "commands", job.commands, `job ${job.function}`),
    configKey: configKeyExpression(context, job.name),
    summary,
    policyEntries: [
      ...(job.overlap === "BUFFER_ALL" ? [] : [`overlap: ${stringLiteral(job.overlap)}`]),
      ...(job.timeout === undefined ? [] : [`timeout: ${stringLiteral(job.timeout)}`]),
      ...(job.jitter === undefined ? [] : [`jitter: ${stringLiteral(job.jitter)}`]),
      ...(job.retry === undefined ? [] : [`retry: ${retryLiteral(job.retry)}`]),
    ]
      .map((entry) => `${entry}, `)
      .join(""),
  });
}
