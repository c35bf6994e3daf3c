// What bench:cluster (and its profile) ask the database while hosts work: cheap questions (index seeks),
// asked no more often than needed, so that measuring does not slow what is measured.
import { sleep, type ClusterRun } from "../cluster/support.js";

/**
 * Waits until no seeded timer is left pending, looking every 100 ms along the pending timers' index by
 * fire_at to the first seeded one (that walk forced: with the statistics of a freshly seeded table the
 * planner reads every pending row). A full count every 20 ms kept a core of the server busy, slowing the
 * hosts it measured.
 */
export async function drained(run: ClusterRun, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  const first = `BEGIN; SET LOCAL enable_bitmapscan = off; SET LOCAL enable_seqscan = off;
    SELECT key FROM "${run.schema}".wow_timers WHERE status = 0 AND key ~ '^t[0-9]+$' ORDER BY fire_at LIMIT 1; COMMIT`;
  // Several statements in one query: one result each, the SELECT's fourth.
  const left = async () => ((await run.query(first)) as unknown as { rows: unknown[] }[])[3]!.rows.length > 0;
  while (await left()) {
    if (Date.now() > until) throw new Error("the backlog was not drained");
    await sleep(100);
  }
}

/** The slots a host holds claimed now: each one's target stream and request id (`timer#slot`). */
export async function claimsOf(run: ClusterRun, host: string): Promise<{ stream: string; request: string }[]> {
  const { rows } = await run.query<{ stream: string; request: string }>(
    `SELECT coalesce(target, owner) AS stream, id || '#' || slot AS request FROM "${run.schema}".wow_timers WHERE claimed_by = $1 AND status = 0`,
    [host],
  );
  return rows;
}

/** Whether one of the slots was decided (its request recorded on its stream: a primary key seek each). */
export async function anyDecided(run: ClusterRun, slots: readonly { stream: string; request: string }[]): Promise<boolean> {
  const { rows } = await run.query<{ decided: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM unnest($1::text[], $2::text[]) AS k(stream, request_id) JOIN "${run.schema}".wow_requests AS r ON r.stream = k.stream AND r.request_id = k.request_id) AS decided`,
    [slots.map((s) => s.stream), slots.map((s) => s.request)],
  );
  return rows[0]!.decided;
}
