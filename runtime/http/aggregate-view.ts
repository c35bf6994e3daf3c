// `GET /wow/aggregates/{context}/{aggregate}/{tenant}/{id}`: an aggregate's stream, newest first a page
// at a time, with its `wow.ScheduleSet` and `wow.ScheduleCancelled` events read as the schedules they
// set and cancel, and the timers it owns now. Another tenant's aggregate is not found, as one that
// does not exist.
import type { AggregateRef } from "../model/aggregate-ref.js";
import { ErrorCodes } from "../model/errors.js";
import type { EventMessage } from "../model/messages.js";
import { SystemEvents, type ScheduleCancelledBody, type ScheduleSetBody } from "../model/system-events.js";
import { cursorOf, readCursor } from "../store/run-store.js";
import { timerView, type Reply } from "./admin-handler.js";
import type { Principal } from "./auth.js";
import { checkId } from "./command-handler.js";
import type { HttpHost } from "./host-api.js";
import { HttpError } from "./http-error.js";
import { Query, timeFormat, type TimeFormat } from "./query.js";

const PAGE_DEFAULT = 100;

function eventView(event: EventMessage, time: TimeFormat) {
  const base = { position: event.position, version: event.version, sequence: event.sequence, type: event.type, eventId: event.eventId, createdAt: time(event.createdAt), commandId: event.commandId };
  if (event.type === SystemEvents.ScheduleSet) {
    const b = event.body as ScheduleSetBody;
    return { ...base, schedule: { set: b.key, timer: b.timer, command: b.command.type, rule: b.rule.kind === "at" ? { ...b.rule, at: time(b.rule.at) } : b.rule, target: b.target, due: time(b.due) } };
  }
  if (event.type === SystemEvents.ScheduleCancelled) return { ...base, schedule: { cancelled: (event.body as ScheduleCancelledBody).key } };
  return { ...base, body: event.body };
}

export async function aggregateView(host: HttpHost, principal: Principal, segments: readonly string[], url: string | undefined): Promise<Reply> {
  const query = new Query(url, ["times", "cursor", "limit"]);
  const time = timeFormat(query);
  const [context, aggregate, tenantId, id] = segments.map((s, i) => checkId(["context", "aggregate", "tenant", "aggregate id"][i]!, s));
  const ref: AggregateRef = { context: context!, aggregate: aggregate!, tenantId: tenantId!, id: id! };
  const name = `${ref.context}.${ref.aggregate}`;
  if (!host.aggregates.some((a) => a.context === ref.context && a.aggregate === ref.aggregate)) throw new HttpError(404, ErrorCodes.NotFound, `no aggregate type ${JSON.stringify(name.slice(0, 120))} on this host`);
  if (principal.tenant !== undefined && principal.tenant !== ref.tenantId) throw new HttpError(404, ErrorCodes.NotFound, `no ${name} ${JSON.stringify(ref.id)} in your tenant`);
  const cursor = query.string("cursor", 400);
  const before = readCursor(cursor);
  if (cursor !== undefined && before === undefined) throw new HttpError(400, ErrorCodes.IllegalArgument, "query parameter cursor: not a cursor of this list (take it from a page's next)");
  const limit = query.integer("limit", 1, 1000) ?? PAGE_DEFAULT;
  const [stream, timers] = await Promise.all([host.stream(ref), host.timersOf(ref)]);
  if (stream.version === 0 && timers.length === 0) throw new HttpError(404, ErrorCodes.NotFound, `no ${name} ${JSON.stringify(ref.id)} in tenant ${ref.tenantId}`);
  // Newest first; a page ends at an event, the cursor is its (version, sequence).
  const order = (e: EventMessage) => e.version * 1_000_000 + e.sequence;
  const newest = [...stream.events].reverse().filter((e) => before === undefined || order(e) < before[0]);
  const page = newest.slice(0, limit);
  const last = page[page.length - 1];
  return {
    status: 200,
    body: {
      aggregate: ref,
      version: stream.version,
      deleted: stream.deleted,
      events: page.map((e) => eventView(e, time)),
      ...(newest.length > limit && last !== undefined ? { next: cursorOf(order(last), last.eventId) } : {}),
      timers: timers.map((t) => timerView(principal, t, time)),
    },
  };
}
