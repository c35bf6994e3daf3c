// Comparing two manifests element by element. Elements are matched by name; a removed element and
// an added one of the same shape under the same parent are reported as one rename. Inside a removed
// element nothing more is reported (the one change says it all); a renamed context, aggregate, job
// or saga is also compared with its old self, so a change inside it is not hidden by the rename.
// Docs are not compared. Where a change is (`file:line`) comes from each side's positions
// (`wow-manifest.sources.json`, or a build of the sources), found by the element compared.
import type {
  Manifest,
  ManifestAggregate,
  ManifestCommand,
  ManifestContext,
  ManifestEvent,
  ManifestField,
  ManifestJob,
  ManifestRetry,
  ManifestSaga,
  ManifestServiceParameter,
  ManifestTypeRef,
} from "../manifest/types.js";
import { snakeCase } from "../manifest/routes.js";
import { positionsByElement, type ManifestPositions } from "../manifest/positions.js";
import type { Change } from "./change.js";
import { rules, type RuleId } from "./rules.js";

/** An element of either manifest: where it is declared is looked up by the object itself. */
type Named = object;
interface Emit {
  (rule: RuleId, element: string, message: string, at: Named | undefined, side?: "previous" | "current"): void;
  /** `file:line` of each element (a copy made while comparing carries its original's). */
  readonly where: WeakMap<object, string>;
}

/** Where each side's elements are declared, by JSON pointer (`wow-manifest.sources.json`). */
export interface SidePositions {
  readonly previous?: ManifestPositions | undefined;
  readonly current?: ManifestPositions | undefined;
}

/** Every change from `previous` to `current`, unsorted and not yet accepted. */
export function compareManifests(previous: Manifest, current: Manifest, positions: SidePositions = {}): Change[] {
  const changes: Change[] = [];
  let context = "";
  const where = new WeakMap<object, string>();
  for (const [manifest, side] of [[previous, positions.previous], [current, positions.current]] as const) {
    if (side === undefined) continue;
    const found = positionsByElement(manifest, side);
    for (const element of allObjects(manifest)) {
      const at = found.get(element);
      if (at !== undefined) where.set(element, at);
    }
  }
  const emit: Emit = Object.assign(
    (rule: RuleId, element: string, message: string, at: Named | undefined, side: "previous" | "current" = "current") => {
      const source = at === undefined ? undefined : where.get(at);
      changes.push({ rule, category: rules[rule].category, context, element, message, ...(source === undefined ? {} : { source }), side, accepted: false });
    },
    { where },
  );
  const contextSource = (c: ManifestContext): Named => c;
  // A renamed context is compared with its old self under the new name: the qualified names and
  // routes the rename itself changes (here and in other contexts) are not reported again.
  const contextRenames = new Map(pairRecords(previous.contexts, current.contexts, sameContextShape).renamed.map(([a, b]) => [a.name, b.name]));
  const before = contextRenames.size === 0 ? previous.contexts : renameContexts(previous.contexts, contextRenames, where);
  const old = (c: ManifestContext) => before[c.name]!;
  // Types carried by a command or an event, in either version (under the new context names).
  const wire = new Set([...wireTypes(before), ...wireTypes(current.contexts)]);
  matchRecords(previous.contexts, current.contexts, sameContextShape, {
    removed: (c) => ((context = c.name), emit("CONTEXT_NO_DELETE", c.name, `Context ${c.name} was removed.`, contextSource(c), "previous")),
    renamed: (a, b) => {
      context = b.name;
      emit("CONTEXT_NO_RENAME", a.name, `Context ${a.name} was renamed to ${b.name}.`, contextSource(b));
      compareContext(old(a), b, emit, wire);
    },
    added: (c) => ((context = c.name), emit("CONTEXT_ADDED", c.name, `Context ${c.name} was added.`, contextSource(c))),
    both: (a, b) => {
      context = b.name;
      compareContext(old(a), b, emit, wire);
    },
  });
  return changes;
}

interface Matchers<T> {
  removed(a: T): void;
  renamed(a: T, b: T): void;
  added(b: T): void;
  both(a: T, b: T): void;
}

interface Pairs<T> {
  readonly both: Array<[T, T]>;
  readonly renamed: Array<[T, T]>;
  readonly removed: T[];
  readonly added: T[];
}

/** Pairs two records by key; a removed and an added value of the same shape are a rename. */
function pairRecords<T>(a: Readonly<Record<string, T>>, b: Readonly<Record<string, T>>, sameShape: ((x: T, y: T) => boolean) | undefined): Pairs<T> {
  const pairs: Pairs<T> = { both: [], renamed: [], removed: [], added: [] };
  const removed = Object.keys(a).filter((k) => !(k in b)).sort();
  const added = new Set(Object.keys(b).filter((k) => !(k in a)).sort());
  for (const key of Object.keys(a).sort()) if (key in b) pairs.both.push([a[key]!, b[key]!]);
  for (const key of removed) {
    const twin = sameShape === undefined ? undefined : [...added].find((k) => sameShape(a[key]!, b[k]!));
    if (twin !== undefined) {
      added.delete(twin);
      pairs.renamed.push([a[key]!, b[twin]!]);
    } else pairs.removed.push(a[key]!);
  }
  for (const key of added) pairs.added.push(b[key]!);
  return pairs;
}

function matchRecords<T>(a: Readonly<Record<string, T>>, b: Readonly<Record<string, T>>, sameShape: ((x: T, y: T) => boolean) | undefined, on: Matchers<T>): void {
  const pairs = pairRecords(a, b, sameShape);
  for (const [x, y] of pairs.both) on.both(x, y);
  for (const [x, y] of pairs.renamed) on.renamed(x, y);
  for (const x of pairs.removed) on.removed(x);
  for (const y of pairs.added) on.added(y);
}

/**
 * The contexts with the renamed ones' names replaced (`old.Name` → `new.Name`, `/old/tenant/…` →
 * `/new/tenant/…`) in every qualified name, key and route: what they would be after the rename
 * alone. The records stay keyed by their old context names.
 */
function renameContexts(contexts: Readonly<Record<string, ManifestContext>>, renames: ReadonlyMap<string, string>, where: WeakMap<object, string>): Readonly<Record<string, ManifestContext>> {
  const rename = (s: string): string => {
    for (const [from, to] of renames) {
      if (s.startsWith(`${from}.`)) return `${to}${s.slice(from.length)}`;
      if (s.startsWith(`/${from}/`)) return `/${to}${s.slice(from.length + 1)}`;
    }
    return s;
  };
  const walk = (value: unknown): unknown => {
    if (typeof value === "string") return rename(value);
    if (Array.isArray(value)) return value.map(walk);
    if (value === null || typeof value !== "object") return value;
    // Docs are text, not names.
    const copy = Object.fromEntries(Object.entries(value).map(([k, v]) => [rename(k), k === "doc" || k === "stateDoc" ? v : walk(v)]));
    return carry(where, value, copy);
  };
  return Object.fromEntries(Object.entries(contexts).map(([name, c]) => [name, walk(c) as ManifestContext]));
}

/** An aggregate's commands with the routes they would have after a rename of the aggregate alone. */
function renameAggregate(a: ManifestAggregate, to: string, where: WeakMap<object, string>): ManifestAggregate {
  const from = `/tenant/{tenantId}/${snakeCase(a.name)}/`;
  const commands = Object.fromEntries(
    Object.entries(a.commands).map(([k, c]) => [k, carry(where, c, { ...c, route: { ...c.route, path: c.route.path.replace(from, `/tenant/{tenantId}/${snakeCase(to)}/`) } })]),
  );
  return carry(where, a, { ...a, commands });
}

/** `copy`, with the position of `original`. */
function carry<T extends object>(where: WeakMap<object, string>, original: object, copy: T): T {
  const at = where.get(original);
  if (at !== undefined) where.set(copy, at);
  return copy;
}

/** Every object in a manifest. */
function allObjects(value: unknown, out: object[] = []): object[] {
  if (value === null || typeof value !== "object") return out;
  out.push(value);
  for (const item of Array.isArray(value) ? value : Object.values(value)) allObjects(item, out);
  return out;
}

const keys = (record: Readonly<Record<string, unknown>>) => Object.keys(record).sort().join(",");
const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);
const typeText = (t: ManifestTypeRef) => `${t.name}${t.array ? "[]" : ""}${t.optional ? "?" : ""}`;
const fieldsText = (fields: readonly ManifestField[]) => fields.map((f) => `${f.name}:${typeText(f.type)}`).join(",");
const list = (items: readonly string[]) => (items.length === 0 ? "[]" : `[${items.join(", ")}]`);

function sameContextShape(a: ManifestContext, b: ManifestContext): boolean {
  return Object.keys(a.aggregates).length > 0 && keys(a.aggregates) === keys(b.aggregates);
}

/**
 * The qualified names of the types that commands and events carry, directly or through other types:
 * what senders and stored events hold. Other types are used only in state (or nowhere).
 */
function wireTypes(contexts: Readonly<Record<string, ManifestContext>>): Set<string> {
  const types = new Map(Object.values(contexts).flatMap((c) => Object.values(c.types).map((t) => [t.qualifiedName, t] as const)));
  const found = new Set<string>();
  const visit = (fields: readonly ManifestField[]): void => {
    for (const f of fields) {
      if (f.type.kind !== "type" || found.has(f.type.name)) continue;
      found.add(f.type.name);
      visit(types.get(f.type.name)?.fields ?? []);
    }
  };
  for (const c of Object.values(contexts)) {
    for (const aggregate of Object.values(c.aggregates)) {
      for (const x of [...Object.values(aggregate.commands), ...Object.values(aggregate.events)]) visit(x.fields);
    }
  }
  return found;
}

function compareContext(a: ManifestContext, b: ManifestContext, emit: Emit, wire: ReadonlySet<string>): void {
  const q = (name: string) => `${b.name}.${name}`;
  matchRecords(a.aggregates, b.aggregates, (x, y) => keys(x.commands) === keys(y.commands) && keys(x.events) === keys(y.events), {
    removed: (x) => emit("AGGREGATE_NO_DELETE", q(x.name), `Aggregate ${x.name} was removed.`, x, "previous"),
    renamed: (x, y) => {
      emit("AGGREGATE_NO_RENAME", q(x.name), `Aggregate ${x.name} was renamed to ${y.name}.`, y);
      compareAggregate(q(y.name), renameAggregate(x, y.name, emit.where), y, emit);
    },
    added: (y) => emit("AGGREGATE_ADDED", q(y.name), `Aggregate ${y.name} was added.`, y),
    both: (x, y) => compareAggregate(q(y.name), x, y, emit),
  });
  // The fields of a type no command or event carries are state only: their changes are state changes.
  matchRecords(a.types, b.types, undefined, {
    // Removing a type only state held drops no sender's or stored event's data: state is rebuilt from events.
    removed: (x) =>
      wire.has(q(x.name))
        ? emit("TYPE_NO_DELETE", q(x.name), `Type ${x.name} was removed.`, x, "previous")
        : emit("STATE_CHANGED", q(x.name), `Type ${x.name}, which no command or event carried, was removed.`, x, "previous"),
    renamed: () => undefined,
    added: (y) => emit("TYPE_ADDED", q(y.name), `Type ${y.name} was added.`, y),
    both: (x, y) =>
      wire.has(q(y.name))
        ? compareFields(q(y.name), `type ${y.name}`, x.fields, y.fields, emit, true)
        : compareStateFields(q(y.name), `type ${y.name} (which no command or event carries)`, x.fields, y.fields, emit),
  });
  matchRecords(a.enums, b.enums, undefined, {
    removed: (x) => emit("ENUM_NO_DELETE", q(x.name), `Enum ${x.name} was removed.`, x, "previous"),
    renamed: () => undefined,
    added: (y) => emit("ENUM_ADDED", q(y.name), `Enum ${y.name} was added.`, y),
    both: (x, y) => {
      const before = new Map(x.values.map((v) => [v.name, v]));
      const after = new Map(y.values.map((v) => [v.name, v]));
      for (const [name, v] of before) if (!after.has(name)) emit("ENUM_VALUE_NO_DELETE", `${q(y.name)}.${name}`, `Value ${name} was removed from enum ${y.name}.`, v, "previous");
      for (const [name, v] of after) if (!before.has(name)) emit("ENUM_VALUE_ADDED", `${q(y.name)}.${name}`, `Value ${name} was added to enum ${y.name}.`, v);
    },
  });
  matchRecords(a.services, b.services, undefined, {
    removed: (x) => emit("SERVICE_REMOVED", q(x.name), `Service ${x.name} was removed.`, x, "previous"),
    renamed: () => undefined,
    added: (y) => emit("SERVICE_ADDED", q(y.name), `Service ${y.name} was added.`, y),
    both: () => undefined,
  });
  // A saga with the same handlers and jobs under another name: its handlers are compared (their
  // subscriptions, `<saga>.<function>`, change with the name).
  const handled = (x: ManifestSaga) => `${keys(x.eventHandlers)};${keys(x.rejectionHandlers)};${[...x.jobs].sort().join(",")}`;
  matchRecords(a.sagas, b.sagas, (x, y) => handled(x) !== ";;" && handled(x) === handled(y), {
    removed: (x) => emit("SAGA_REMOVED", q(x.name), `Saga ${x.name} was removed.`, x, "previous"),
    renamed: (x, y) => compareSaga(q(y.name), x, y, emit),
    added: (y) => emit("SAGA_ADDED", q(y.name), `Saga ${y.name} was added.`, y),
    both: (x, y) => compareSaga(q(y.name), x, y, emit),
  });
  matchRecords(a.jobs, b.jobs, (x, y) => x.subscription === y.subscription, {
    removed: (x) => emit("JOB_NO_DELETE", q(x.name), `Job ${x.name} was removed: its schedule stops.`, x, "previous"),
    renamed: (x, y) => {
      emit("JOB_NO_RENAME", q(x.name), `Job ${x.name} was renamed to ${y.name}: its schedule instance starts over.`, y);
      compareJob(q(y.name), x, y, emit);
    },
    added: (y) => emit("JOB_ADDED", q(y.name), `Job ${y.name} was added (${y.cron} ${y.zone}).`, y),
    both: (x, y) => compareJob(q(y.name), x, y, emit),
  });
}

function compareAggregate(element: string, a: ManifestAggregate, b: ManifestAggregate, emit: Emit): void {
  compareState(element, b.name, a.state, b.state, emit);
  const sameFields = (x: { fields: readonly ManifestField[] }, y: { fields: readonly ManifestField[] }) => fieldsText(x.fields) === fieldsText(y.fields);
  matchRecords<ManifestCommand>(a.commands, b.commands, sameFields, {
    removed: (x) => emit("COMMAND_NO_DELETE", `${element}.${x.name}`, `Command ${x.name} was removed.`, x, "previous"),
    renamed: (x, y) => emit("COMMAND_NO_RENAME", `${element}.${x.name}`, `Command ${x.name} was renamed to ${y.name}.`, y),
    added: (y) => emit("COMMAND_ADDED", `${element}.${y.name}`, `Command ${y.name} was added (${y.route.method} ${y.route.path}).`, y),
    both: (x, y) => compareCommand(`${element}.${y.name}`, x, y, emit),
  });
  matchRecords<ManifestEvent>(a.events, b.events, sameFields, {
    removed: (x) => emit("EVENT_NO_DELETE", `${element}.${x.name}`, `Event ${x.name} was removed.`, x, "previous"),
    renamed: (x, y) => emit("EVENT_NO_RENAME", `${element}.${x.name}`, `Event ${x.name} was renamed to ${y.name}.`, y),
    added: (y) => emit("EVENT_ADDED", `${element}.${y.name}`, `Event ${y.name} was added.`, y),
    both: (x, y) => compareFields(`${element}.${y.name}`, `event ${y.name}`, x.fields, y.fields, emit, true),
  });
}

function compareCommand(element: string, a: ManifestCommand, b: ManifestCommand, emit: Emit): void {
  compareFields(element, `command ${b.name}`, a.fields, b.fields, emit, true);
  if (a.route.method !== b.route.method || a.route.path !== b.route.path) {
    emit("ROUTE_SAME", element, `The route of ${b.name} changed from ${a.route.method} ${a.route.path} to ${b.route.method} ${b.route.path}.`, b);
  }
  const what = `The handler of ${b.name}`;
  if (!sameList(a.handler.produces, b.handler.produces)) {
    emit("PRODUCES_CHANGED", element, `${what} produces ${list(b.handler.produces)} (was ${list(a.handler.produces)}).`, b.handler);
  }
  compareHandlerCommon(element, what, a.handler, b.handler, emit);
  compareRetry(element, what, a.handler.retry, b.handler.retry, emit, b.handler);
}

/** `@Retry` as one line: `maxAttempts = 5, backoff = "10s"`, or "the host's default". */
function retryText(retry: ManifestRetry | undefined): string {
  if (retry === undefined) return "the host's default";
  const parts = [
    retry.maxAttempts === undefined ? undefined : `maxAttempts = ${retry.maxAttempts}`,
    retry.backoff === undefined ? undefined : `backoff = "${retry.backoff}"`,
    retry.maxBackoff === undefined ? undefined : `maxBackoff = "${retry.maxBackoff}"`,
  ].filter((p) => p !== undefined);
  return parts.length === 0 ? "the host's default" : `@Retry(${parts.join(", ")})`;
}

function compareRetry(element: string, what: string, a: ManifestRetry | undefined, b: ManifestRetry | undefined, emit: Emit, at: Named): void {
  const before = retryText(a);
  const after = retryText(b);
  if (before !== after) emit("RETRY_CHANGED", element, `${what} retries with ${after} (was ${before}).`, at);
}

interface HandlerLike {
  readonly schedules?: ReadonlyArray<{ readonly command: string }>;
  readonly services: readonly ManifestServiceParameter[];
  readonly blocking: boolean;
}

/** `at`: the element the changes are reported at (default `b`). */
function compareHandlerCommon(element: string, what: string, a: HandlerLike, b: HandlerLike, emit: Emit, at: Named = b): void {
  const schedules = (h: HandlerLike) => (h.schedules ?? []).map((s) => s.command);
  if (!sameList(schedules(a), schedules(b))) emit("SCHEDULES_CHANGED", element, `${what} schedules ${list(schedules(b))} (was ${list(schedules(a))}).`, at);
  const services = (h: HandlerLike) => h.services.map((s) => `${s.name}: ${s.service}`);
  if (!sameList(services(a), services(b))) emit("HANDLER_SERVICES_CHANGED", element, `${what} asks for ${list(services(b))} (was ${list(services(a))}).`, at);
  if (a.blocking !== b.blocking) emit("HANDLER_BLOCKING_CHANGED", element, `${what} is ${b.blocking ? "now" : "no longer"} @Blocking.`, at);
}

function compareSaga(element: string, a: ManifestSaga, b: ManifestSaga, emit: Emit): void {
  matchRecords(a.eventHandlers, b.eventHandlers, undefined, {
    removed: (x) => emit("EVENT_HANDLER_REMOVED", `${element}.${x.function}`, `${b.name} no longer handles ${x.event}.`, x, "previous"),
    renamed: () => undefined,
    added: (y) => emit("EVENT_HANDLER_ADDED", `${element}.${y.function}`, `${b.name} now handles ${y.event}.`, y),
    both: (x, y) => {
      const what = `The handler of ${y.event} in ${b.name}`;
      compareSubscription(`${element}.${y.function}`, what, x.subscription, y.subscription, "events", emit, y);
      if (!sameList(x.commands, y.commands)) emit("SAGA_COMMANDS_CHANGED", `${element}.${y.function}`, `${what} sends ${list(y.commands)} (was ${list(x.commands)}).`, y);
      compareHandlerCommon(`${element}.${y.function}`, what, x, y, emit);
    },
  });
  matchRecords(a.rejectionHandlers, b.rejectionHandlers, undefined, {
    removed: (x) => emit("REJECTION_HANDLER_REMOVED", `${element}.${x.function}`, `${b.name} no longer handles rejections of ${x.command}.`, x, "previous"),
    renamed: () => undefined,
    added: (y) => emit("REJECTION_HANDLER_ADDED", `${element}.${y.function}`, `${b.name} now handles rejections of ${y.command}.`, y),
    both: (x, y) => {
      const what = `The rejection handler of ${y.command} in ${b.name}`;
      compareSubscription(`${element}.${y.function}`, what, x.subscription, y.subscription, "rejections", emit, y);
      compareHandlerCommon(`${element}.${y.function}`, what, x, y, emit);
    },
  });
}

function compareJob(element: string, a: ManifestJob, b: ManifestJob, emit: Emit): void {
  const job = `Job ${b.name}`;
  // A sharded job reads one subscription per partition: `<saga>.<function>#<partition>`.
  const subscription = (j: ManifestJob) => (j.sharded ? `${j.subscription}#<partition>` : j.subscription);
  compareSubscription(element, job, subscription(a), subscription(b), "ticks", emit, b);
  if (a.cron !== b.cron) emit("JOB_CRON_CHANGED", element, `${job} fires on "${b.cron}" (was "${a.cron}").`, b);
  if (a.zone !== b.zone) emit("JOB_ZONE_CHANGED", element, `${job} runs in ${b.zone} (was ${a.zone}).`, b);
  if (a.misfire !== b.misfire) emit("JOB_MISFIRE_CHANGED", element, `${job} misfire policy is ${b.misfire} (was ${a.misfire}).`, b);
  if (a.scope !== b.scope || a.sharded !== b.sharded) {
    const scope = (j: ManifestJob) => `${j.scope}${j.sharded ? ", sharded" : ""}`;
    emit("JOB_SCOPE_CHANGED", element, `${job} scope is ${scope(b)} (was ${scope(a)}).`, b);
  }
  if (!sameList(a.commands, b.commands)) emit("JOB_COMMANDS_CHANGED", element, `${job} sends ${list(b.commands)} (was ${list(a.commands)}).`, b);
  compareHandlerCommon(element, job, { ...a, schedules: [] }, { ...b, schedules: [] }, emit, b);
  const runs = (j: ManifestJob) => `overlap ${j.overlap ?? "BUFFER_ALL"}, timeout ${j.timeout ?? "none"}, jitter ${j.jitter ?? "none"}`;
  if (runs(a) !== runs(b)) emit("JOB_RUNS_CHANGED", element, `${job} runs with ${runs(b)} (was ${runs(a)}).`, b);
  compareRetry(element, job, a.retry, b.retry, emit, b);
}

/** A handler's durable subscription: a new name has no checkpoint, so it starts over at the beginning. */
function compareSubscription(element: string, what: string, a: string, b: string, items: string, emit: Emit, at: Named): void {
  if (a === b) return;
  emit("SUBSCRIPTION_NO_RENAME", element, `${what} is delivered by subscription ${b} (was ${a}): it starts at the beginning, so past ${items} are handled again.`, at);
}

/** State fields: any change is STATE_CHANGED, one per field (snapshots are rebuilt from events). */
function compareState(element: string, aggregate: string, a: readonly ManifestField[], b: readonly ManifestField[], emit: Emit): void {
  const after = new Map(b.map((f) => [f.name, f]));
  const before = new Map(a.map((f) => [f.name, f]));
  for (const f of a) {
    const g = after.get(f.name);
    if (g === undefined) emit("STATE_CHANGED", `${element}.state.${f.name}`, `State field ${f.name} of ${aggregate} was removed.`, f, "previous");
    else if (typeText(f.type) !== typeText(g.type)) emit("STATE_CHANGED", `${element}.state.${f.name}`, `State field ${f.name} of ${aggregate} changed type from ${typeText(f.type)} to ${typeText(g.type)}.`, g);
  }
  for (const g of b) if (!before.has(g.name)) emit("STATE_CHANGED", `${element}.state.${g.name}`, `State field ${g.name}: ${typeText(g.type)} was added to ${aggregate}.`, g);
}

/** The fields of a type only state holds: like state fields, any change is STATE_CHANGED. */
function compareStateFields(element: string, owner: string, a: readonly ManifestField[], b: readonly ManifestField[], emit: Emit): void {
  const after = new Map(b.map((f) => [f.name, f]));
  const before = new Map(a.map((f) => [f.name, f]));
  for (const f of a) {
    const g = after.get(f.name);
    if (g === undefined) emit("STATE_CHANGED", `${element}.${f.name}`, `Field ${f.name} was removed from ${owner}.`, f, "previous");
    else if (typeText(f.type) !== typeText(g.type)) emit("STATE_CHANGED", `${element}.${f.name}`, `Field ${f.name} of ${owner} changed type from ${typeText(f.type)} to ${typeText(g.type)}.`, g);
  }
  for (const g of b) if (!before.has(g.name)) emit("STATE_CHANGED", `${element}.${g.name}`, `Field ${g.name}: ${typeText(g.type)} was added to ${owner}.`, g);
}

/**
 * Fields of a command, event or type (`wire`: what senders and stored events carry); a removed and
 * an added field at the same position with the same type are a rename.
 */
function compareFields(element: string, owner: string, a: readonly ManifestField[], b: readonly ManifestField[], emit: Emit, wire: boolean): void {
  const before = new Map(a.map((f) => [f.name, f]));
  const after = new Map(b.map((f) => [f.name, f]));
  const renamedTo = new Map<string, ManifestField>();
  a.forEach((f, index) => {
    const twin = b[index];
    if (!after.has(f.name) && twin !== undefined && !before.has(twin.name) && typeText(twin.type) === typeText(f.type)) renamedTo.set(f.name, twin);
  });
  const renamedFrom = new Set([...renamedTo.values()].map((f) => f.name));
  for (const f of a) {
    const at = `${element}.${f.name}`;
    const g = after.get(f.name);
    const twin = renamedTo.get(f.name);
    if (twin !== undefined) emit("FIELD_NO_RENAME", at, `Field ${f.name} of ${owner} was renamed to ${twin.name}.`, twin);
    else if (g === undefined) emit("FIELD_NO_DELETE", at, `Field ${f.name} was removed from ${owner}.`, f, "previous");
    else if (g.type.name !== f.type.name || g.type.array !== f.type.array || g.type.kind !== f.type.kind) {
      emit("FIELD_SAME_TYPE", at, `Field ${f.name} of ${owner} changed type from ${typeText(f.type)} to ${typeText(g.type)}.`, g);
    } else if (f.type.optional && !g.type.optional) {
      emit("FIELD_NO_OPTIONAL_TO_REQUIRED", at, `Field ${f.name} of ${owner} became required (${typeText(f.type)} → ${typeText(g.type)}).`, g);
    } else if (!f.type.optional && g.type.optional) {
      emit("FIELD_REQUIRED_TO_OPTIONAL", at, `Field ${f.name} of ${owner} became optional.`, g);
    }
  }
  for (const g of b) {
    if (before.has(g.name) || renamedFrom.has(g.name)) continue;
    const at = `${element}.${g.name}`;
    if (wire && !g.type.optional) emit("FIELD_NO_ADD_REQUIRED", at, `Required field ${g.name}: ${typeText(g.type)} was added to ${owner}.`, g);
    else emit("FIELD_ADDED", at, `Field ${g.name}: ${typeText(g.type)} was added to ${owner}.`, g);
  }
}
