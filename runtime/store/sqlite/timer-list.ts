// The SELECT of an operators' timer listing: one statement per combination of filters, built here and
// prepared once. Each filter's expression is the one an index (schema versions 7 to 9) is built on, so the
// page is an index seek and a short walk in list order, however many timers the store holds.
import type { TimerQuery } from "../timer-store.js";
import { TIMER_COLUMNS } from "./statements.js";

/** The filters a listing statement takes, in parameter order: each adds `<expression> = ?`. */
const FILTERS = [
  ["tenantId", "t.tenant_id"],
  ["aggregateId", "t.aggregate_id"],
  ["key", "t.key"],
  ["command", "t.command_type"],
] as const;

/** The statement's text, and its parameters for `query` (filters, the cursor's keys, the limit). */
export function timerListStatement(query: TimerQuery, limit: number): { readonly sql: string; readonly params: readonly (string | number)[] } {
  const order = query.status === "pending" ? "t.due" : "t.parked_at";
  const where = [`t.status = ${query.status === "pending" ? 0 : 1}`];
  const params: (string | number)[] = [];
  for (const [field, expression] of FILTERS) {
    const value = query[field];
    if (value === undefined) continue;
    where.push(`${expression} = ?`);
    params.push(value);
  }
  if (query.after !== undefined) {
    where.push(`(${order}, t.id) > (?, ?)`);
    params.push(...query.after);
  }
  params.push(limit);
  return { sql: `SELECT ${TIMER_COLUMNS} FROM wow_timers AS t WHERE ${where.join(" AND ")} ORDER BY ${order}, t.id LIMIT ?`, params };
}
