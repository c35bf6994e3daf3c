// The operators' API: job instances, pending timers, parked items and their re-drive, and the
// schedule commands `POST /{context}/schedule/{id}/wow.schedule.{enable|reschedule|disable|trigger}`.
import type { TimerRow } from "../store/timer-store.js";
import { DEFAULT_TENANT, type AggregateRef } from "../model/aggregate-ref.js";
import { ErrorCodes } from "../model/errors.js";
import { commandMessage } from "../model/messages.js";
import { JOB_VERBS, parseInstanceId, SCHEDULE_AGGREGATE } from "../jobs/job-messages.js";
import type { HttpHost } from "./host-api.js";
import { requireTenant, type Principal } from "./auth.js";
import { checkId, wowResult } from "./command-handler.js";
import { HttpError } from "./http-error.js";

export interface Reply {
  readonly status: number;
  readonly body: unknown;
  readonly errorCode?: string;
}

const LIST_LIMIT = 500;

/**
 * A stored error as a caller may see it: operators get it whole (with its stack, for debugging); a
 * tenant's caller gets its first line, the message, and never the host's file paths.
 */
function errorView(principal: Principal, error: string): string {
  return principal.tenant === undefined ? error : error.split("\n")[0]!;
}

function timerView(principal: Principal, t: TimerRow) {
  return {
    id: t.id,
    owner: t.owner,
    key: t.key,
    target: t.target,
    command: t.command.type,
    rule: t.rule,
    slot: t.slot,
    due: new Date(t.due).toISOString(),
    status: t.status,
    attempts: t.attempts,
    ...(t.lastError ? { lastError: errorView(principal, t.lastError) } : {}),
    ...(t.parkedAt ? { parkedAt: new Date(t.parkedAt).toISOString() } : {}),
  };
}

export async function listJobs(host: HttpHost, principal: Principal): Promise<Reply> {
  const jobs = await host.jobs.list(principal.tenant);
  return {
    status: 200,
    body: {
      jobs: jobs.map((j) => ({
        ...j,
        nextFireTimes: j.nextFireTimes.map((t) => new Date(t).toISOString()),
        lastRuns: j.lastRuns.map((r) => ({ ...r, due: new Date(r.due).toISOString(), at: new Date(r.at).toISOString() })),
      })),
    },
  };
}

export async function listTimers(host: HttpHost, principal: Principal): Promise<Reply> {
  // A tenant's caller gets its tenant's rows from the store: filtered after the limit, its list could come back empty.
  const timers = await host.pendingTimers(LIST_LIMIT, principal.tenant);
  return { status: 200, body: { timers: timers.map((t) => timerView(principal, t)) } };
}

export async function listParked(host: HttpHost, principal: Principal): Promise<Reply> {
  const { timers, events } = await host.parked(LIST_LIMIT, principal.tenant);
  return {
    status: 200,
    body: {
      timers: timers.map((t) => timerView(principal, t)),
      events: events.map((e) => ({ id: e.id, subscription: e.subscription, position: e.position, eventType: e.event.type, aggregate: e.event.aggregate, attempts: e.attempts, error: errorView(principal, e.error), parkedAt: new Date(e.parkedAt).toISOString() })),
    },
  };
}

export async function redriveTimer(host: HttpHost, principal: Principal, id: string): Promise<Reply> {
  const timer = await host.timer(id);
  if (!timer || timer.status !== "parked") throw new HttpError(404, ErrorCodes.NotFound, `no parked timer ${id}`);
  requireTenant(principal, timer.owner.tenantId);
  const ok = await host.redriveTimer(id);
  if (!ok) throw new HttpError(404, ErrorCodes.NotFound, `no parked timer ${id}`);
  return { status: 200, body: { id, redriven: true } };
}

export async function redriveEvent(host: HttpHost, principal: Principal, id: string): Promise<Reply> {
  const entry = await host.parkedEvent(id);
  if (!entry) throw new HttpError(404, ErrorCodes.NotFound, `no parked event ${id}`);
  requireTenant(principal, entry.event.aggregate.tenantId);
  const outcome = await host.redriveEvent(id);
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
  if (type === undefined) throw new HttpError(404, ErrorCodes.NotFound, `unknown schedule command ${JSON.stringify(command.slice(0, 60))}: use wow.schedule.enable, reschedule, disable or trigger`);
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
  const allowed = ["expression", "zone", "misfire"];
  for (const [key, value] of Object.entries(body)) {
    if (!allowed.includes(key)) throw new HttpError(400, ErrorCodes.CommandValidation, `unknown field ${JSON.stringify(key.slice(0, 60))}: expected ${allowed.join(", ")}`);
    if (typeof value !== "string") throw new HttpError(400, ErrorCodes.CommandValidation, `${key} must be a string`);
  }
  if ((type === JOB_VERBS.disable || type === JOB_VERBS.trigger) && Object.keys(body).length > 0) {
    throw new HttpError(400, ErrorCodes.CommandValidation, `wow.schedule.${verb} takes no fields`);
  }
  const ref: AggregateRef = { context, aggregate: SCHEDULE_AGGREGATE, tenantId, id };
  const result = await host.send(commandMessage(type, body, ref));
  const status = result.outcome === "decided" ? 200 : result.errorCode === ErrorCodes.NotFound ? 404 : 400;
  return { status, body: wowResult(result), errorCode: result.errorCode };
}
