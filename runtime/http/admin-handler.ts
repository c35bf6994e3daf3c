// The operators' API: job instances, pending timers, parked items and their re-drive, and the
// schedule commands `POST /{context}/schedule/{id}/wow.schedule.{enable|reschedule|disable|trigger}`.
import { timerOrderKey, type TimerRow } from "../store/timer-store.js";
import { cursorOf, readCursor } from "../store/run-store.js";
import { describeCron } from "../cron/cron-words.js";
import type { JobSort, JobState } from "../jobs/job-listing.js";
import { DEFAULT_TENANT, type AggregateRef } from "../model/aggregate-ref.js";
import { ErrorCodes } from "../model/errors.js";
import { commandMessage } from "../model/messages.js";
import { JOB_VERBS, parseInstanceId, SCHEDULE_AGGREGATE } from "../jobs/job-messages.js";
import type { HttpHost } from "./host-api.js";
import { requireTenant, type Principal } from "./auth.js";
import { checkId, wowResult } from "./command-handler.js";
import { HttpError } from "./http-error.js";
import type { JobInstanceView } from "../jobs/job-manager.js";
import type { JobRun } from "../store/run-store.js";
import { Query, timeFormat, type TimeFormat } from "./query.js";
import type { ScheduleRule } from "../model/schedule-rule.js";

export interface Reply {
  readonly status: number;
  readonly body: unknown;
  readonly errorCode?: string;
}

const LIST_LIMIT = 500;
const PAGE_MAX = 1000;

/**
 * A stored error as a caller may see it: operators get it whole (with its stack, for debugging); a
 * tenant's caller gets its first line, the message, and never the host's file paths.
 */
export function errorView(principal: Principal, error: string): string {
  return principal.tenant === undefined ? error : error.split("\n")[0]!;
}

function ruleView(rule: ScheduleRule, time: TimeFormat) {
  return rule.kind === "at" ? { ...rule, at: time(rule.at) } : rule;
}

export function timerView(principal: Principal, t: TimerRow, time: TimeFormat) {
  return {
    id: t.id,
    owner: t.owner,
    key: t.key,
    target: t.target,
    command: t.command.type,
    rule: ruleView(t.rule, time),
    slot: t.slot,
    due: time(t.due),
    fireAt: time(t.fireAt),
    status: t.status,
    attempts: t.attempts,
    ...(t.lastError ? { lastError: errorView(principal, t.lastError) } : {}),
    ...(t.parkedAt ? { parkedAt: time(t.parkedAt) } : {}),
  };
}

export function runView(principal: Principal, run: JobRun, time: TimeFormat) {
  return {
    ...run,
    due: time(run.due),
    started: time(run.started),
    finished: time(run.finished),
    durationMs: run.finished - run.started,
    ...(run.error === undefined ? {} : { error: errorView(principal, run.error) }),
  };
}

export function jobView(principal: Principal, j: JobInstanceView, time: TimeFormat) {
  const { lastRun, paused, timer, ...rest } = j;
  return {
    ...rest,
    ruleWords: describeCron(j.rule.expression) ?? j.rule.expression,
    nextFireTimes: j.nextFireTimes.map(time),
    ...(paused === undefined ? {} : { paused: { note: paused.note, at: time(paused.at) } }),
    ...(lastRun === undefined ? {} : { lastRun: runView(principal, lastRun, time) }),
    ...(timer === undefined ? {} : { timer: { ...timer, due: time(timer.due), ...(timer.lastError ? { lastError: errorView(principal, timer.lastError) } : {}) } }),
  };
}

/** The tenant a listing covers: the one asked for (`?tenant=`), which a tenant's credential may only name as its own. */
function listedTenant(principal: Principal, query: Query): string | undefined {
  const asked = query.string("tenant", 120);
  if (asked !== undefined) {
    checkId("tenant", asked);
    requireTenant(principal, asked);
  }
  return asked ?? principal.tenant;
}

/** The page size a listing asks for (`?limit=`). */
function pageLimit(query: Query): number {
  return query.integer("limit", 1, PAGE_MAX) ?? LIST_LIMIT;
}

/** A list cursor's keys (`?cursor=`): a 400 for text that is not one. */
function listCursor(query: Query): readonly [number, string] | undefined {
  const cursor = query.string("cursor", 400);
  const keys = readCursor(cursor);
  if (cursor !== undefined && keys === undefined) throw badCursor();
  return keys;
}

function badCursor(): HttpError {
  return new HttpError(400, ErrorCodes.IllegalArgument, "query parameter cursor: not a cursor of this list (take it from a page's next)");
}

/** `limit + 1` rows read: the page, and the next page's cursor when there was more. */
function pageOf<T>(rows: readonly T[], limit: number, keys: (row: T) => readonly [number, string]): { items: readonly T[]; next?: string } {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return rows.length > limit && last !== undefined ? { items, next: cursorOf(...keys(last)) } : { items };
}

const JOB_SORTS: readonly JobSort[] = ["context", "job", "tenant"];
const JOB_STATES: readonly JobState[] = ["enabled", "paused", "disabled"];

/** `GET /wow/jobs`: a page of job instances, filtered and sorted by the server. */
export async function listJobs(host: HttpHost, principal: Principal, url: string | undefined): Promise<Reply> {
  const query = new Query(url, ["times", "context", "job", "tenant", "state", "q", "sort", "order", "cursor", "limit", "fires"]);
  const time = timeFormat(query);
  const tenantId = listedTenant(principal, query);
  const context = query.string("context", 120);
  const job = query.string("job", 120);
  const search = query.string("q", 120);
  const state = query.oneOf("state", JOB_STATES);
  const sort = query.oneOf("sort", JOB_SORTS);
  const order = query.oneOf("order", ["asc", "desc"]);
  const cursor = query.string("cursor", 2000);
  let page;
  try {
    page = await host.jobs.page({
      limit: pageLimit(query),
      fireTimes: query.integer("fires", 1, 20) ?? 3,
      ...(tenantId === undefined ? {} : { tenantId }),
      ...(context === undefined ? {} : { context }),
      ...(job === undefined ? {} : { job }),
      ...(search === undefined ? {} : { search }),
      ...(state === undefined ? {} : { state }),
      ...(sort === undefined ? {} : { sort }),
      ...(order === "desc" ? { descending: true } : {}),
      ...(cursor === undefined ? {} : { cursor }),
    });
  } catch (error) {
    if (error instanceof RangeError) throw badCursor();
    throw error;
  }
  return { status: 200, body: { jobs: page.items.map((j) => jobView(principal, j, time)), ...(page.next === undefined ? {} : { next: page.next }) } };
}

/** `GET /wow/timers`: pending timers earliest due first, searchable by tenant, aggregate id, key and command type. */
export async function listTimers(host: HttpHost, principal: Principal, url: string | undefined): Promise<Reply> {
  const query = new Query(url, ["times", "tenant", "aggregate", "key", "command", "cursor", "limit"]);
  const time = timeFormat(query);
  const tenantId = listedTenant(principal, query);
  const aggregateId = query.string("aggregate", 400);
  const key = query.string("key", 400);
  const command = query.string("command", 200);
  const after = listCursor(query);
  const limit = pageLimit(query);
  // The tenant goes to the store: filtered after the limit, a tenant's page could come back empty.
  const rows = await host.timers({
    status: "pending",
    limit: limit + 1,
    ...(tenantId === undefined ? {} : { tenantId }),
    ...(aggregateId === undefined ? {} : { aggregateId }),
    ...(key === undefined ? {} : { key }),
    ...(command === undefined ? {} : { command }),
    ...(after === undefined ? {} : { after }),
  });
  const page = pageOf(rows, limit, timerOrderKey);
  return { status: 200, body: { timers: page.items.map((t) => timerView(principal, t, time)), ...(page.next === undefined ? {} : { next: page.next }) } };
}

/** `GET /wow/parked`: parked timers and events, each list a page; `?kind=` pages through one of them. */
export async function listParked(host: HttpHost, principal: Principal, url: string | undefined): Promise<Reply> {
  const query = new Query(url, ["times", "tenant", "kind", "cursor", "limit"]);
  const time = timeFormat(query);
  const tenantId = listedTenant(principal, query);
  const kind = query.oneOf("kind", ["timers", "events"]);
  const after = listCursor(query);
  if (after !== undefined && kind === undefined) throw new HttpError(400, ErrorCodes.IllegalArgument, "query parameter cursor: name the list it pages with kind=timers or kind=events");
  const limit = pageLimit(query);
  const body: Record<string, unknown> = {};
  const next: Record<string, string> = {};
  if (kind !== "events") {
    const rows = await host.timers({ status: "parked", limit: limit + 1, ...(tenantId === undefined ? {} : { tenantId }), ...(after === undefined ? {} : { after }) });
    const page = pageOf(rows, limit, timerOrderKey);
    body.timers = page.items.map((t) => timerView(principal, t, time));
    if (page.next !== undefined) next.timers = page.next;
  }
  if (kind !== "timers") {
    const rows = await host.parkedEvents(limit + 1, tenantId, after);
    const page = pageOf(rows, limit, (e) => [e.parkedAt, e.id]);
    body.events = page.items.map((e) => ({ id: e.id, subscription: e.subscription, position: e.position, eventType: e.event.type, aggregate: e.event.aggregate, attempts: e.attempts, error: errorView(principal, e.error), parkedAt: time(e.parkedAt) }));
    if (page.next !== undefined) next.events = page.next;
  }
  if (kind !== undefined && next[kind] !== undefined) body.next = next[kind];
  else if (kind === undefined && Object.keys(next).length > 0) body.next = next;
  return { status: 200, body };
}

export async function redriveTimer(host: HttpHost, principal: Principal, id: string): Promise<Reply> {
  const timer = await host.timer(id);
  if (!timer || timer.status !== "parked") throw new HttpError(404, ErrorCodes.NotFound, `no parked timer ${id}`);
  requireTenant(principal, timer.owner.tenantId);
  const ok = await host.redriveTimer(id);
  host.ops.log.info({ event: "admin.redrive", kind: "timer", id, ok, by: principal.name, ...(principal.tenant === undefined ? {} : { credentialTenant: principal.tenant }) }, `timer ${id} re-driven by ${principal.name}`);
  if (!ok) throw new HttpError(404, ErrorCodes.NotFound, `no parked timer ${id}`);
  return { status: 200, body: { id, redriven: true } };
}

export async function redriveEvent(host: HttpHost, principal: Principal, id: string): Promise<Reply> {
  const entry = await host.parkedEvent(id);
  if (!entry) throw new HttpError(404, ErrorCodes.NotFound, `no parked event ${id}`);
  requireTenant(principal, entry.event.aggregate.tenantId);
  const outcome = await host.redriveEvent(id);
  host.ops.log.info({ event: "admin.redrive", kind: "event", id, ok: outcome.ok, by: principal.name, ...(principal.tenant === undefined ? {} : { credentialTenant: principal.tenant }) }, `parked event ${id} re-driven by ${principal.name}`);
  if (!outcome.found) throw new HttpError(404, ErrorCodes.NotFound, `no parked event ${id}`);
  return { status: 200, body: { id, redriven: outcome.ok, ...(outcome.error ? { error: outcome.error.split("\n")[0] } : {}) } };
}

/** `wow.schedule.<verb>` on an instance: the tenant is the header's (or the credential's), default `(0)`. */
export async function scheduleCommand(
  host: HttpHost,
  principal: Principal,
  context: string,
  id: string,
  command: string,
  tenantHeader: string | undefined,
  body: Record<string, unknown>,
): Promise<Reply> {
  const verb = command.startsWith("wow.schedule.") ? command.slice("wow.schedule.".length) : "";
  // Own keys only: `wow.schedule.constructor` must not find Object.prototype's.
  const type = Object.hasOwn(JOB_VERBS, verb) ? JOB_VERBS[verb] : undefined;
  if (type === undefined) throw new HttpError(404, ErrorCodes.NotFound, `unknown schedule command ${JSON.stringify(command.slice(0, 60))}: use wow.schedule.enable, reschedule, disable, trigger or backfill`);
  const { job: name, partition } = parseInstanceId(id);
  checkId("job instance id", name);
  const job = host.jobs.job(context, name);
  if (!job) throw new HttpError(404, ErrorCodes.NotFound, `no job ${JSON.stringify(id.slice(0, 80))} in context ${context}`);
  // A sharded job's instances are `<job>#<partition>` (`%23` in a URL); another job has one instance.
  if (job.sharded === true && (partition === undefined || partition >= host.jobs.partitions)) {
    const last = host.jobs.partitions - 1;
    const instances = last === 0 ? `its instance ${name}#0` : `an instance, ${name}#0 to ${name}#${last}`;
    throw new HttpError(404, ErrorCodes.NotFound, `job ${name} is sharded: name ${instances} (${name}%230 in a URL)`);
  }
  if (job.sharded !== true && id !== name) throw new HttpError(404, ErrorCodes.NotFound, `job ${name} is not sharded: its instance is ${name}`);
  // A SYSTEM job's instances live in the default tenant: a tenant's credential never reaches them.
  const tenantId = job.scope === "SYSTEM" ? DEFAULT_TENANT : (tenantHeader ?? principal.tenant ?? DEFAULT_TENANT);
  requireTenant(principal, tenantId);
  const allowed = VERB_FIELDS[verb] ?? [];
  for (const [key, value] of Object.entries(body)) {
    if (!allowed.includes(key)) {
      throw new HttpError(400, ErrorCodes.CommandValidation, allowed.length === 0 ? `wow.schedule.${verb} takes no fields` : `unknown field ${JSON.stringify(key.slice(0, 60))}: expected ${allowed.join(", ")}`);
    }
    if (typeof value !== "string" && !(verb === "backfill" && typeof value === "number")) throw new HttpError(400, ErrorCodes.CommandValidation, `${key} must be a string`);
  }
  if (verb === "backfill") for (const field of ["from", "to"]) if (!(field in body)) throw new HttpError(400, ErrorCodes.CommandValidation, `${field} is required: an ISO-8601 instant such as 2026-11-30T00:00:00Z`);
  const ref: AggregateRef = { context, aggregate: SCHEDULE_AGGREGATE, tenantId, id };
  const result = await host.send(commandMessage(type, body, ref));
  host.ops.log.info(
    { event: "admin.schedule", command: type, context, instance: id, tenantId, by: principal.name, outcome: result.outcome, errorCode: result.errorCode, commandId: result.commandId, requestId: result.requestId },
    `${type} on ${context}.schedule ${id} by ${principal.name}: ${result.outcome}`,
  );
  const status = result.outcome === "decided" ? 200 : result.errorCode === ErrorCodes.NotFound ? 404 : 400;
  return { status, body: wowResult(result), errorCode: result.errorCode };
}

/** The fields each schedule verb takes. */
const VERB_FIELDS: Readonly<Record<string, readonly string[]>> = {
  enable: ["expression", "zone", "misfire"],
  reschedule: ["expression", "zone", "misfire"],
  disable: ["note"],
  trigger: [],
  backfill: ["from", "to"],
};
