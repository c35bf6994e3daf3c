// The manifest: a plain-data view of the checked program. Built only from an error-free model.
// Every object's keys are written in sorted order, as the canonical JSON prints them, so that
// canonicalJson has nothing to reorder (it would, at a cost, for a key out of order).
import type { Location } from "../ast.js";
import { positionOf } from "../diagnostics/line-map.js";
import {
  subscriptionName,
  type AggregateModel,
  type CommandModel,
  type ContextModel,
  type FieldModel,
  type JobModel,
  type SagaModel,
  type ScheduledCommand,
  type ServiceParameter,
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

/** The manifest around its contexts' fragments (the watcher keeps each fragment with its context's model). */
export function manifestOf(contexts: readonly ManifestContext[]): Manifest {
  return {
    $schema: MANIFEST_SCHEMA_ID,
    manifestVersion: MANIFEST_VERSION,
    contexts: byName([...contexts]),
  };
}

/** One context's part of the manifest: it depends on that context's model alone. */
export function manifestContext(context: ContextModel): ManifestContext {
  const q = (name: string) => `${context.name}.${name}`;
  const jobs = context.sagas.flatMap((saga) => saga.jobs);
  return {
    aggregates: byName(context.aggregates.map((a) => aggregateOf(context.name, a))),
    ...doc(context.docs.length === 0 ? undefined : context.docs.join("\n\n")),
    enums: byName(
      context.enums.map((e) => ({
        ...doc(e.doc),
        name: e.name.text,
        qualifiedName: q(e.name.text),
        source: sourceOf(e.loc),
        values: e.members.map((m) => ({ ...doc(m.doc), name: m.name.text, source: sourceOf(m.loc) })),
      })),
    ),
    jobs: byName(jobs.map(jobOf)),
    name: context.name,
    sagas: byName(context.sagas.map((s) => sagaOf(context.name, s))),
    services: byName(context.services.map((s) => ({ ...doc(s.doc), name: s.name.text, qualifiedName: q(s.name.text), source: sourceOf(s.loc) }))),
    sources: [...context.files].sort(),
    types: byName(
      context.types.map((t) => ({ ...doc(t.decl.doc), fields: t.fields.map(fieldOf), name: t.name, qualifiedName: q(t.name), source: sourceOf(t.decl.loc) })),
    ),
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
    ...doc(e.decl.doc),
    fields: e.fields.map(fieldOf),
    name: e.name,
    producedBy: sorted(producedBy.get(`${context}.${e.name}`) ?? []),
    qualifiedName: `${context}.${e.name}`,
    source: sourceOf(e.decl.loc),
  }));
  return {
    commands: byName(aggregate.commands.map((c) => commandOf(context, aggregate.name, c))),
    ...doc(aggregate.decl.doc),
    events: byName(events),
    name: aggregate.name,
    qualifiedName: `${context}.${aggregate.name}`,
    source: sourceOf(aggregate.decl.loc),
    state: aggregate.state.map(fieldOf),
    ...stateDoc(aggregate),
  };
}

function commandOf(context: string, aggregate: string, command: CommandModel): ManifestCommand {
  const handler = command.handler;
  if (handler === undefined) throw new Error(`manifest built for command '${command.name}' without a handler`);
  return {
    create: command.create,
    delete: command.delete,
    ...doc(command.decl.doc),
    fields: command.fields.map(fieldOf),
    handler: {
      blocking: handler.blocking,
      ...doc(handler.decl.doc),
      function: handler.function,
      produces: sorted(handler.produces.map((e) => e.qualifiedName)),
      ...(handler.retry === undefined ? {} : { retry: handler.retry }),
      schedules: schedulesOf(handler.schedules),
      services: handler.services.map(serviceOf),
      source: sourceOf(handler.decl.loc),
    },
    name: command.name,
    qualifiedName: `${context}.${command.name}`,
    route: commandRoute(context, aggregate, command.name, command),
    source: sourceOf(command.decl.loc),
  };
}

function sagaOf(context: string, saga: SagaModel): ManifestSaga {
  return {
    ...doc(saga.decl.doc),
    eventHandlers: keyed(
      saga.eventHandlers.map((h) => ({
        blocking: h.blocking,
        commands: sorted(h.commands.map((c) => c.qualifiedName)),
        ...doc(h.decl.doc),
        event: h.event.qualifiedName,
        function: h.function,
        schedules: schedulesOf(h.schedules),
        services: h.services.map(serviceOf),
        source: sourceOf(h.decl.loc),
        subscription: subscriptionName(saga.name, h.function),
      })),
      (h) => h.event,
    ),
    jobs: sorted(saga.jobs.map((j) => j.name)),
    name: saga.name,
    qualifiedName: `${context}.${saga.name}`,
    rejectionHandlers: keyed(
      saga.rejectionHandlers.map((h) => ({
        blocking: h.blocking,
        command: h.command.qualifiedName,
        ...doc(h.decl.doc),
        function: h.function,
        services: h.services.map(serviceOf),
        source: sourceOf(h.decl.loc),
        subscription: subscriptionName(saga.name, h.function),
      })),
      (h) => h.command,
    ),
    source: sourceOf(saga.decl.loc),
  };
}

function jobOf(job: JobModel): ManifestJob {
  return {
    blocking: job.blocking,
    commands: sorted(job.commands.map((c) => c.qualifiedName)),
    cron: job.cron,
    ...doc(job.decl.doc),
    function: job.function,
    ...(job.jitter === undefined ? {} : { jitter: job.jitter }),
    misfire: job.misfire,
    name: job.name,
    overlap: job.overlap,
    ...(job.retry === undefined ? {} : { retry: job.retry }),
    saga: job.saga,
    scope: job.scope,
    services: job.services.map(serviceOf),
    sharded: job.sharded,
    source: sourceOf(job.decl.loc),
    subscription: subscriptionName(job.saga, job.function),
    ...(job.timeout === undefined ? {} : { timeout: job.timeout }),
    zone: job.zone,
  };
}

function fieldOf(field: FieldModel): ManifestField {
  const { kind, name, array, optional } = field.type;
  if (kind === "unresolved") throw new Error(`manifest built with the unresolved type '${name}'`);
  return { ...doc(field.decl.doc), name: field.name, source: sourceOf(field.decl.loc), type: { array, kind, name, optional } };
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

/** The doc comment of the aggregate's `state` block, as `stateDoc` (`state` is its list of fields). */
function stateDoc(aggregate: AggregateModel): { stateDoc?: string } {
  const block = aggregate.decl.members.find((m) => m.kind === "State");
  const text = doc(block?.doc).doc;
  return text === undefined ? {} : { stateDoc: text };
}

function doc(text: string | undefined): { doc?: string } {
  return text === undefined || text === "" ? {} : { doc: text };
}

function byName<T extends { readonly name: string }>(items: readonly T[]): Record<string, T> {
  return keyed(items, (item) => item.name);
}

/**
 * Items by key, in key order (the first of equal keys kept). The record is made without a prototype:
 * V8 then keeps its names in a dictionary from the start, rather than deriving a new hidden class for
 * every declared name it adds (which cost a third of the manifest's time on a large project).
 */
function keyed<T>(items: readonly T[], key: (item: T) => string): Record<string, T> {
  const result: Record<string, T> = Object.create(null) as Record<string, T>;
  const keys = items.map(key);
  const order = keys.map((_, i) => i).sort((a, b) => compare(keys[a]!, keys[b]!));
  for (const i of order) if (!(keys[i]! in result)) result[keys[i]!] = items[i]!;
  return result;
}

function sorted(items: readonly string[]): string[] {
  return [...items].sort(compare);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
