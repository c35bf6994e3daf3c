// `GET /wow/overview`: what an operator looks at first, counted by the store for the credential's
// tenant (every tenant for an operator's): jobs enabled and paused, timers due within the hour, parked
// timers and events, job runs failed in the last 24 hours, and this host.
import type { Reply } from "./admin-handler.js";
import type { Principal } from "./auth.js";
import type { HttpHost } from "./host-api.js";
import { Query, timeFormat } from "./query.js";

const HOUR_MS = 3_600_000;

export async function overview(host: HttpHost, principal: Principal, url: string | undefined): Promise<Reply> {
  const time = timeFormat(new Query(url, ["times"]));
  const now = host.clock.now();
  const tenant = principal.tenant;
  const [jobs, backlog, failed] = await Promise.all([host.jobs.counts(tenant), host.backlog(now + HOUR_MS, tenant), host.ops.runs?.failedSince(now - 24 * HOUR_MS, tenant)]);
  return {
    status: 200,
    body: {
      now: time(now),
      ...(tenant === undefined ? {} : { tenant }),
      jobs,
      timers: { dueWithinHour: backlog.due, parked: backlog.parkedTimers },
      events: { parked: backlog.parkedEvents },
      ...(failed === undefined ? {} : { runs: { failedLast24h: failed } }),
      // One host, until a cluster lists its members: this one, with the journal's partitions and those it owns.
      hosts: [{ id: host.ops.host, store: host.storeKind, partitions: host.jobs.partitions, owned: host.jobs.ownedPartitions() }],
      metrics: host.ops.metrics !== undefined,
    },
  };
}
