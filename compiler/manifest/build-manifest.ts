// The manifest: a plain-data view of the checked program. Built only from an error-free model.
import type { Location } from "../ast.js";
import { positionOf } from "../diagnostics/line-map.js";
import type {
  AggregateModel,
  CommandModel,
  ContextModel,
  FieldModel,
  JobModel,
  ProgramModel,
  SagaModel,
  ScheduledCommand,
  ServiceParameter,
} from "../model.js";
import { commandRoute } from "./routes.js";
import {
  MANIFEST_SCHEMA_ID,
  MANIFEST_VERSION,
  type Manifest,
  type ManifestAggregate,
  type ManifestCommand,
  type ManifestContext,
  type ManifestEvent,
  type ManifestField,
  type ManifestJob,
  type ManifestSaga,
  type ManifestSchedule,
  type ManifestServiceParameter,
  type ManifestSource,
} from "./types.js";

export function buildManifest(program: ProgramModel): Manifest {
  return {
    $schema: MANIFEST_SCHEMA_ID,
    manifestVersion: MANIFEST_VERSION,
    contexts: byName(program.contexts.map(contextOf)),
  };
}

function contextOf(context: ContextModel): ManifestContext {
  const q = (name: string) => `${context.name}.${name}`;
  const jobs = context.sagas.flatMap((saga) => saga.jobs);
  return {
    name: context.name,
    ...doc(context.docs.length === 0 ? undefined : context.docs.join("\n\n")),
    sources: [...context.files].sort(),
    types: byName(
      context.types.map((t) => ({ name: t.name, qualifiedName: q(t.name), ...doc(t.decl.doc), fields: t.fields.map(fieldOf), source: sourceOf(t.decl.loc) })),
    ),
    enums: byName(
      context.enums.map((e) => ({
        name: e.name.text,
        qualifiedName: q(e.name.text),
        ...doc(e.doc),
        values: e.members.map((m) => ({ name: m.name.text, ...doc(m.doc), source: sourceOf(m.loc) })),
        source: sourceOf(e.loc),
      })),
    ),
    services: byName(context.services.map((s) => ({ name: s.name.text, qualifiedName: q(s.name.text), ...doc(s.doc), source: sourceOf(s.loc) }))),
    aggregates: byName(context.aggregates.map((a) => aggregateOf(context.name, a))),
    sagas: byName(context.sagas.map((s) => sagaOf(context.name, s))),
    jobs: byName(jobs.map(jobOf)),
  };
}

function aggregateOf(context: string, aggregate: AggregateModel): ManifestAggregate {
  const producedBy = new Map<string, string[]>();
  for (const command of aggregate.commands) {
    for (const event of command.handler?.produces ?? []) {
      const list = producedBy.get(event.qualifiedName) ?? [];
      list.push(`${context}.${command.name}`);
      producedBy.set(event.qualifiedName, list);
    }
  }
  const events: ManifestEvent[] = aggregate.events.map((e) => ({
    name: e.name,
    qualifiedName: `${context}.${e.name}`,
    ...doc(e.decl.doc),
    fields: e.fields.map(fieldOf),
    producedBy: sorted(producedBy.get(`${context}.${e.name}`) ?? []),
    source: sourceOf(e.decl.loc),
  }));
  return {
    name: aggregate.name,
    qualifiedName: `${context}.${aggregate.name}`,
    ...doc(aggregate.decl.doc),
    state: aggregate.state.map(fieldOf),
    commands: byName(aggregate.commands.map((c) => commandOf(context, aggregate.name, c))),
    events: byName(events),
    source: sourceOf(aggregate.decl.loc),
  };
}

function commandOf(context: string, aggregate: string, command: CommandModel): ManifestCommand {
  const handler = command.handler;
  if (handler === undefined) throw new Error(`manifest built for command '${command.name}' without a handler`);
  return {
    name: command.name,
    qualifiedName: `${context}.${command.name}`,
    ...doc(command.decl.doc),
    fields: command.fields.map(fieldOf),
    create: command.create,
    delete: command.delete,
    route: commandRoute(context, aggregate, command.name, command),
    handler: {
      function: handler.function,
      services: handler.services.map(serviceOf),
      produces: sorted(handler.produces.map((e) => e.qualifiedName)),
      schedules: schedulesOf(handler.schedules),
      blocking: handler.blocking,
      source: sourceOf(handler.decl.loc),
    },
    source: sourceOf(command.decl.loc),
  };
}

function sagaOf(context: string, saga: SagaModel): ManifestSaga {
  return {
    name: saga.name,
    qualifiedName: `${context}.${saga.name}`,
    ...doc(saga.decl.doc),
    eventHandlers: keyed(
      saga.eventHandlers.map((h) => ({
        event: h.event.qualifiedName,
        function: h.function,
        subscription: `${saga.name}.${h.function}`,
        services: h.services.map(serviceOf),
        commands: sorted(h.commands.map((c) => c.qualifiedName)),
        schedules: schedulesOf(h.schedules),
        blocking: h.blocking,
        source: sourceOf(h.decl.loc),
      })),
      (h) => h.event,
    ),
    rejectionHandlers: keyed(
      saga.rejectionHandlers.map((h) => ({
        command: h.command.qualifiedName,
        function: h.function,
        subscription: `${saga.name}.${h.function}`,
        services: h.services.map(serviceOf),
        blocking: h.blocking,
        source: sourceOf(h.decl.loc),
      })),
      (h) => h.command,
    ),
    jobs: sorted(saga.jobs.map((j) => j.name)),
    source: sourceOf(saga.decl.loc),
  };
}

function jobOf(job: JobModel): ManifestJob {
  return {
    name: job.name,
    ...doc(job.decl.doc),
    saga: job.saga,
    function: job.function,
    subscription: `${job.saga}.${job.function}`,
    cron: job.cron,
    zone: job.zone,
    scope: job.scope,
    sharded: job.sharded,
    misfire: job.misfire,
    commands: sorted(job.commands.map((c) => c.qualifiedName)),
    services: job.services.map(serviceOf),
    blocking: job.blocking,
    source: sourceOf(job.decl.loc),
  };
}

function fieldOf(field: FieldModel): ManifestField {
  const { kind, name, array, optional } = field.type;
  if (kind === "unresolved") throw new Error(`manifest built with the unresolved type '${name}'`);
  return { name: field.name, type: { kind, name, array, optional }, ...doc(field.decl.doc), source: sourceOf(field.decl.loc) };
}

function serviceOf(parameter: ServiceParameter): ManifestServiceParameter {
  return { name: parameter.name, service: parameter.service.qualifiedName };
}

function schedulesOf(schedules: readonly ScheduledCommand[]): ManifestSchedule[] {
  return schedules
    .map((s) => ({ command: s.command.qualifiedName, targetRequired: s.targetRequired }))
    .sort((a, b) => compare(a.command, b.command));
}

function sourceOf(loc: Location): ManifestSource {
  return `${loc.file.path}:${positionOf(loc.file, loc.start).line}`;
}

function doc(text: string | undefined): { doc?: string } {
  return text === undefined || text === "" ? {} : { doc: text };
}

function byName<T extends { readonly name: string }>(items: readonly T[]): Record<string, T> {
  return keyed(items, (item) => item.name);
}

function keyed<T>(items: readonly T[], key: (item: T) => string): Record<string, T> {
  const result: Record<string, T> = {};
  for (const item of [...items].sort((a, b) => compare(key(a), key(b)))) {
    if (!Object.hasOwn(result, key(item))) result[key(item)] = item;
  }
  return result;
}

function sorted(items: readonly string[]): string[] {
  return [...items].sort(compare);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
