// The manifest: a plain-data view of the checked program. Built only from an error-free model.
// Every object's keys are written in sorted order, as the canonical JSON prints them, so that
// canonicalJson has nothing to reorder (it would, at a cost, for a key out of order).
// It holds no source positions (a comment line would move them all): where each element is declared
// goes to the positions record instead, keyed by the element's JSON pointer in the manifest.
import type { Location } from "../ast.js";
import { positionOf } from "../diagnostics/line-map.js";
import {
  subscriptionName,
  type AggregateModel,
  type CommandModel,
  type ContextModel,
  type FieldModel,
  type JobModel,
  type RetryModel,
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
  type ManifestCommandHandler,
  type ManifestContext,
  type ManifestEvent,
  type ManifestField,
  type ManifestJob,
  type ManifestSaga,
  type ManifestSchedule,
  type ManifestServiceParameter,
} from "./types.js";
import { pointer, type PositionList } from "./positions.js";

/** Records where an element is declared, by its pointer in the manifest. */
type At = (path: string, loc: Location) => void;

/** The manifest around its contexts' fragments (the watcher keeps each fragment with its context's model). */
export function manifestOf(contexts: readonly ManifestContext[]): Manifest {
  return {
    $schema: MANIFEST_SCHEMA_ID,
    manifestVersion: MANIFEST_VERSION,
    contexts: byName([...contexts]),
  };
}

/**
 * One context's part of the manifest: it depends on that context's model alone. With `positions`,
 * where each of its elements is declared is recorded there (the context itself at its first file).
 */
export function manifestContext(context: ContextModel, positions?: PositionList): ManifestContext {
  const q = (name: string) => `${context.name}.${name}`;
  const base = pointer("contexts", context.name);
  const at: At = positions === undefined ? () => undefined : (path, loc) => positions.add(path, sourceOf(loc));
  const first = [...context.files].sort()[0];
  if (positions !== undefined && first !== undefined) positions.add(base, `${first}:1`);
  const jobs = context.sagas.flatMap((saga) => saga.jobs);
  return {
    aggregates: byName(context.aggregates.map((a) => aggregateOf(context.name, a, pointer(base, "aggregates", a.name), at))),
    ...doc(context.docs.length === 0 ? undefined : context.docs.join("\n\n")),
    enums: byName(
      context.enums.map((e) => {
        const path = pointer(base, "enums", e.name.text);
        at(path, e.loc);
        return {
          ...doc(e.doc),
          name: e.name.text,
          qualifiedName: q(e.name.text),
          values: e.members.map((m, i) => (at(pointer(path, "values", String(i)), m.loc), { ...doc(m.doc), name: m.name.text })),
        };
      }),
    ),
    jobs: byName(jobs.map((j) => jobOf(j, pointer(base, "jobs", j.name), at))),
    name: context.name,
    sagas: byName(context.sagas.map((s) => sagaOf(context.name, s, pointer(base, "sagas", s.name), at))),
    services: byName(
      context.services.map((s) => (at(pointer(base, "services", s.name.text), s.loc), { ...doc(s.doc), name: s.name.text, qualifiedName: q(s.name.text) })),
    ),
    types: byName(
      context.types.map((t) => {
        const path = pointer(base, "types", t.name);
        at(path, t.decl.loc);
        return { ...doc(t.decl.doc), fields: fieldsOf(t.fields, path, at), name: t.name, qualifiedName: q(t.name) };
      }),
    ),
  };
}

function aggregateOf(context: string, aggregate: AggregateModel, path: string, at: At): ManifestAggregate {
  at(path, aggregate.decl.loc);
  const producedBy = new Map<string, string[]>();
  for (const command of aggregate.commands) {
    for (const event of command.handler?.produces ?? []) {
      const list = producedBy.get(event.qualifiedName) ?? [];
      list.push(`${context}.${command.name}`);
      producedBy.set(event.qualifiedName, list);
    }
  }
  const events: ManifestEvent[] = aggregate.events.map((e) => {
    const eventPath = pointer(path, "events", e.name);
    at(eventPath, e.decl.loc);
    const event: Building<ManifestEvent> = {};
    if (present(e.decl.doc)) event.doc = e.decl.doc;
    event.fields = fieldsOf(e.fields, eventPath, at);
    event.name = e.name;
    event.producedBy = sorted(producedBy.get(`${context}.${e.name}`) ?? []);
    event.qualifiedName = `${context}.${e.name}`;
    return event as ManifestEvent;
  });
  return {
    commands: byName(aggregate.commands.map((c) => commandOf(context, aggregate.name, c, pointer(path, "commands", c.name), at))),
    ...doc(aggregate.decl.doc),
    events: byName(events),
    name: aggregate.name,
    qualifiedName: `${context}.${aggregate.name}`,
    state: fieldsOf(aggregate.state, path, at, "state"),
    ...stateDoc(aggregate),
  };
}

function commandOf(context: string, aggregate: string, command: CommandModel, path: string, at: At): ManifestCommand {
  const handler = command.handler;
  if (handler === undefined) throw new Error(`manifest built for command '${command.name}' without a handler`);
  at(path, command.decl.loc);
  at(pointer(path, "handler"), handler.decl.loc);
  const handled: Building<ManifestCommandHandler> = { blocking: handler.blocking };
  if (present(handler.decl.doc)) handled.doc = handler.decl.doc;
  handled.function = handler.function;
  handled.produces = sorted(handler.produces.map((e) => e.qualifiedName));
  if (handler.retry !== undefined) handled.retry = retryOf(handler.retry);
  handled.schedules = schedulesOf(handler.schedules);
  handled.services = handler.services.map(serviceOf);
  const out: Building<ManifestCommand> = { create: command.create, delete: command.delete };
  if (present(command.decl.doc)) out.doc = command.decl.doc;
  out.fields = fieldsOf(command.fields, path, at);
  out.handler = handled as ManifestCommandHandler;
  out.name = command.name;
  out.qualifiedName = `${context}.${command.name}`;
  out.route = commandRoute(context, aggregate, command.name, command);
  return out as ManifestCommand;
}

function sagaOf(context: string, saga: SagaModel, path: string, at: At): ManifestSaga {
  at(path, saga.decl.loc);
  return {
    ...doc(saga.decl.doc),
    eventHandlers: keyed(
      saga.eventHandlers.map((h) => (at(pointer(path, "eventHandlers", h.event.qualifiedName), h.decl.loc), {
        blocking: h.blocking,
        commands: sorted(h.commands.map((c) => c.qualifiedName)),
        ...doc(h.decl.doc),
        event: h.event.qualifiedName,
        function: h.function,
        schedules: schedulesOf(h.schedules),
        services: h.services.map(serviceOf),
        subscription: subscriptionName(saga.name, h.function),
      })),
      (h) => h.event,
    ),
    jobs: sorted(saga.jobs.map((j) => j.name)),
    name: saga.name,
    qualifiedName: `${context}.${saga.name}`,
    rejectionHandlers: keyed(
      saga.rejectionHandlers.map((h) => (at(pointer(path, "rejectionHandlers", h.command.qualifiedName), h.decl.loc), {
        blocking: h.blocking,
        command: h.command.qualifiedName,
        ...doc(h.decl.doc),
        function: h.function,
        services: h.services.map(serviceOf),
        subscription: subscriptionName(saga.name, h.function),
      })),
      (h) => h.command,
    ),
  };
}

/** The retry policy with its keys in order (the model holds them as declared). */
function retryOf(retry: RetryModel): RetryModel {
  return {
    ...(retry.backoff === undefined ? {} : { backoff: retry.backoff }),
    ...(retry.maxAttempts === undefined ? {} : { maxAttempts: retry.maxAttempts }),
    ...(retry.maxBackoff === undefined ? {} : { maxBackoff: retry.maxBackoff }),
  };
}

function jobOf(job: JobModel, path: string, at: At): ManifestJob {
  at(path, job.decl.loc);
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
    ...(job.retry === undefined ? {} : { retry: retryOf(job.retry) }),
    saga: job.saga,
    scope: job.scope,
    services: job.services.map(serviceOf),
    sharded: job.sharded,
    subscription: subscriptionName(job.saga, job.function),
    ...(job.timeout === undefined ? {} : { timeout: job.timeout }),
    zone: job.zone,
  };
}

/** Fields in declaration order, each recorded at `<path>/<key>/<index>`. */
function fieldsOf(fields: readonly FieldModel[], path: string, at: At, key = "fields"): ManifestField[] {
  return fields.map((field, i) => {
    const { kind, name, array, optional } = field.type;
    if (kind === "unresolved") throw new Error(`manifest built with the unresolved type '${name}'`);
    at(pointer(path, key, String(i)), field.decl.loc);
    const type = { array, kind, name, optional };
    return present(field.decl.doc) ? { doc: field.decl.doc, name: field.name, type } : { name: field.name, type };
  });
}

function serviceOf(parameter: ServiceParameter): ManifestServiceParameter {
  return { name: parameter.name, service: parameter.service.qualifiedName };
}

function schedulesOf(schedules: readonly ScheduledCommand[]): ManifestSchedule[] {
  return schedules
    .map((s) => ({ command: s.command.qualifiedName, targetRequired: s.targetRequired }))
    .sort((a, b) => compare(a.command, b.command));
}

function sourceOf(loc: Location): string {
  return `${loc.file.path}:${positionOf(loc.file, loc.start).line}`;
}

/** The doc comment of the aggregate's `state` block, as `stateDoc` (`state` is its list of fields). */
function stateDoc(aggregate: AggregateModel): { stateDoc?: string } {
  const block = aggregate.decl.members.find((m) => m.kind === "State");
  const text = doc(block?.doc).doc;
  return text === undefined ? {} : { stateDoc: text };
}

function doc(text: string | undefined): { doc?: string } {
  return present(text) ? { doc: text } : {};
}

function present(text: string | undefined): text is string {
  return text !== undefined && text !== "";
}

/**
 * An element being filled key by key in sorted order, its optional keys only when present: the
 * elements the manifest holds thousands of (commands, events, fields) are built without spreading
 * `doc(…)` into a copy, which cost a good part of the manifest's time.
 */
type Building<T> = { -readonly [K in keyof T]?: T[K] };

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
