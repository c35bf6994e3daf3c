// The operations routes: health and readiness (no credential, nothing revealed but the verdict),
// metrics (an operator's credential), a job instance's run log and a timer's delivery attempts.
import { DEFAULT_TENANT, type AggregateRef } from "../model/aggregate-ref.js";
import { ErrorCodes } from "../model/errors.js";
import { parseInstanceId, SCHEDULE_AGGREGATE } from "../jobs/job-messages.js";
import type { RunOutcome, RunKind } from "../store/run-store.js";
import type { HttpHost } from "./host-api.js";
import type { Principal } from "./auth.js";
import { errorView, jobView, runView, type Reply } from "./admin-handler.js";
import { checkId } from "./command-handler.js";
import { HttpError } from "./http-error.js";
import { Query, timeFormat } from "./query.js";

/** A reply whose body is text, not JSON (the metrics). */
export interface TextReply {
  readonly status: number;
  readonly contentType: string;
  readonly text: string;
}

const RUN_FILTERS: readonly (RunOutcome | RunKind)[] = ["succeeded", "failed", "retrying", "parked", "skipped", "scheduled", "manual", "backfill"];
const PAGE_DEFAULT = 50;
const PAGE_MAX = 500;

export function health(): Reply {
  return { status: 200, body: { status: "serving" } };
}

export async function ready(host: HttpHost): Promise<Reply> {
  const verdict = await host.readiness();
  return verdict.ready ? { status: 200, body: { ready: true } } : { status: 503, body: { ready: false, reason: verdict.reason }, errorCode: "NotReady" };
}

function requireOperator(principal: Principal, what: string): void {
  if (principal.tenant !== undefined) throw new HttpError(403, "Forbidden", `${what} covers every tenant: it needs a credential bound to no tenant`);
}

export async function metrics(host: HttpHost, principal: Principal, url: string | undefined): Promise<TextReply> {
  new Query(url, []);
  requireOperator(principal, "the metrics");
  const registry = host.ops.metrics;
  if (registry === undefined) throw new HttpError(404, ErrorCodes.NotFound, "metrics are off on this host (wow.metrics.enabled is false)");
  const { contentType, text } = await registry.scrape();
  return { status: 200, contentType, text };
}

export function latenessMinutes(host: HttpHost, principal: Principal, url: string | undefined): Reply {
  const query = new Query(url, ["minutes", "times"]);
  requireOperator(principal, "delivery lateness");
  const registry = host.ops.metrics;
  if (registry === undefined) throw new HttpError(404, ErrorCodes.NotFound, "metrics are off on this host (wow.metrics.enabled is false)");
  const time = timeFormat(query);
  const minutes = registry.latenessMinutes(query.integer("minutes", 1, 1440) ?? 60);
  return { status: 200, body: { minutes: minutes.map((m) => ({ ...m, at: time(m.at) })) } };
}

/** The hosts sharing the store: members, their partitions, clock offsets and heartbeats (an operator's credential). */
export async function hosts(host: HttpHost, principal: Principal, url: string | undefined): Promise<Reply> {
  const time = timeFormat(new Query(url, ["times"]));
  requireOperator(principal, "the list of hosts");
  if (host.hosts === undefined) throw new HttpError(404, ErrorCodes.NotFound, "this host does not list hosts");
  const view = await host.hosts();
  return {
    status: 200,
    body: {
      clustered: view.clustered,
      partitions: view.partitions,
      hosts: view.hosts.map((h) => ({ ...h, startedAt: time(h.startedAt), lastHeartbeat: time(h.lastHeartbeat), leaseUntil: time(h.leaseUntil) })),
      unowned: view.unowned,
    },
  };
}

/**
 * The job instance a runs URL names: `{instance}` with `?context=` (needed only when several contexts
 * declare the job) and `?tenant=` (a TENANT job's; default the credential's). Another tenant's
 * instance is not found, as one that does not exist.
 */
function instanceRef(host: HttpHost, principal: Principal, instance: string, query: Query): AggregateRef {
  const { job: name } = parseInstanceId(instance);
  checkId("job instance id", name);
  const contexts = host.jobs.contextsOf(name);
  const context = query.string("context", 120) ?? (contexts.length === 1 ? contexts[0] : undefined);
  if (contexts.length === 0 || (context !== undefined && !contexts.includes(context))) throw new HttpError(404, ErrorCodes.NotFound, `no job ${JSON.stringify(name.slice(0, 80))}${context === undefined ? "" : ` in context ${context}`}`);
  if (context === undefined) throw new HttpError(400, ErrorCodes.IllegalArgument, `job ${name} is declared in contexts ${contexts.join(", ")}: name one with ?context=`);
  const job = host.jobs.job(context, name)!;
  const asked = query.string("tenant", 120);
  const tenantId = job.scope === "SYSTEM" ? DEFAULT_TENANT : (asked ?? principal.tenant ?? DEFAULT_TENANT);
  if (asked !== undefined) checkId("tenant", asked);
  if (principal.tenant !== undefined && principal.tenant !== tenantId) throw new HttpError(404, ErrorCodes.NotFound, `no job instance ${JSON.stringify(instance.slice(0, 80))} in your tenant`);
  return { context, aggregate: SCHEDULE_AGGREGATE, tenantId, id: instance };
}

/** `GET /wow/jobs/{instance}`: one instance as the list shows it, with `?fires=` next fire times (default 5). */
export async function jobDetail(host: HttpHost, principal: Principal, instance: string, url: string | undefined): Promise<Reply> {
  const query = new Query(url, ["context", "tenant", "fires", "times"]);
  const ref = instanceRef(host, principal, instance, query);
  const time = timeFormat(query);
  const view = await host.jobs.view(ref, query.integer("fires", 1, 20) ?? 5);
  // An instance of a TENANT job exists once enabled in its tenant: before, it is not found.
  if (view === undefined || (view.scope === "TENANT" && !(await isKnown(host, ref)))) {
    throw new HttpError(404, ErrorCodes.NotFound, `no job instance ${JSON.stringify(instance.slice(0, 80))} in tenant ${ref.tenantId}`);
  }
  return { status: 200, body: { job: jobView(principal, view, time) } };
}

async function isKnown(host: HttpHost, ref: AggregateRef): Promise<boolean> {
  return (await host.stream(ref)).version > 0;
}

export async function jobRuns(host: HttpHost, principal: Principal, instance: string, url: string | undefined): Promise<Reply> {
  const query = new Query(url, ["context", "tenant", "outcome", "from", "to", "cursor", "limit", "times"]);
  const ref = instanceRef(host, principal, instance, query);
  const time = timeFormat(query);
  const view = await host.jobs.view(ref);
  if (view === undefined) throw new HttpError(404, ErrorCodes.NotFound, `no job instance ${JSON.stringify(instance.slice(0, 80))}`);
  const runs = host.ops.runs;
  if (runs === undefined) throw new HttpError(404, ErrorCodes.NotFound, "the run log is off on this host (wow.runs.enabled is false)");
  const outcome = query.oneOf("outcome", RUN_FILTERS);
  const from = query.instant("from");
  const to = query.instant("to");
  const cursor = query.string("cursor", 400);
  let page;
  try {
    page = await runs.runs({
      context: ref.context,
      instance: ref.id,
      tenantId: ref.tenantId,
      limit: query.integer("limit", 1, PAGE_MAX) ?? PAGE_DEFAULT,
      ...(outcome === undefined ? {} : { outcome }),
      ...(from === undefined ? {} : { from }),
      ...(to === undefined ? {} : { to }),
      ...(cursor === undefined ? {} : { cursor }),
    });
  } catch (error) {
    if (error instanceof RangeError) throw new HttpError(400, ErrorCodes.IllegalArgument, "query parameter cursor: not a cursor of this list (take it from a page's next)");
    throw error;
  }
  return {
    status: 200,
    body: {
      context: ref.context,
      instance: ref.id,
      tenantId: ref.tenantId,
      enabled: view.enabled,
      ...(view.paused === undefined ? {} : { paused: { note: view.paused.note, at: time(view.paused.at) } }),
      runs: page.items.map((run) => runView(principal, run, time)),
      ...(page.next === undefined ? {} : { next: page.next }),
    },
  };
}

export async function timerAttempts(host: HttpHost, principal: Principal, id: string, url: string | undefined): Promise<Reply> {
  const query = new Query(url, ["cursor", "limit", "times"]);
  const time = timeFormat(query);
  const runs = host.ops.runs;
  if (runs === undefined) throw new HttpError(404, ErrorCodes.NotFound, "the run log is off on this host (wow.runs.enabled is false)");
  const cursor = query.string("cursor", 400);
  let page;
  try {
    page = await runs.attempts(id, { limit: query.integer("limit", 1, PAGE_MAX) ?? PAGE_DEFAULT, ...(cursor === undefined ? {} : { cursor }) });
  } catch (error) {
    if (error instanceof RangeError) throw new HttpError(400, ErrorCodes.IllegalArgument, "query parameter cursor: not a cursor of this list (take it from a page's next)");
    throw error;
  }
  // A timer of another tenant is not found, as one without attempts.
  const tenant = page.items[0]?.tenantId ?? (await host.timer(id))?.owner.tenantId;
  if (tenant === undefined || (principal.tenant !== undefined && principal.tenant !== tenant)) throw new HttpError(404, ErrorCodes.NotFound, `no attempts of timer ${JSON.stringify(id.slice(0, 80))}`);
  return {
    status: 200,
    body: {
      timer: id,
      attempts: page.items.map((a) => ({ ...a, due: time(a.due), at: time(a.at), ...(a.error === undefined ? {} : { error: errorView(principal, a.error) }) })),
      ...(page.next === undefined ? {} : { next: page.next }),
    },
  };
}
