// The SELECT of an operators' timer listing on PostgreSQL: one named statement per combination of
// filters (at most 32), built here. Each filter's expression is the one an index of the schema is
// built on, so a page is an index seek and a short walk in list order, however many timers there are.
import type { TimerQuery } from "../timer-store.js";
import { TENANT_OF_TIMER, TIMER, type Statement } from "./statements.js";

/** The filters a listing statement takes, in parameter order: each adds `<expression> = $n`. */
const FILTERS = [
  ["tenantId", TENANT_OF_TIMER],
  ["aggregateId", "t.aggregate_id"],
  ["key", "t.key"],
  ["command", "t.command_type"],
] as const;

/** The statement for `query` in the (quoted) schema `s`, and its parameters (filters, the cursor's keys, the limit). */
export function timerListStatement(s: string, query: TimerQuery, limit: number): { readonly statement: Statement; readonly params: readonly (string | number)[] } {
  const order = query.status === "pending" ? "t.due" : "t.parked_at";
  const where = [`t.status = ${query.status === "pending" ? 0 : 1}`];
  const params: (string | number)[] = [];
  let name = `wow_list_${query.status}`;
  for (const [field, expression] of FILTERS) {
    const value = query[field];
    if (value === undefined) continue;
    params.push(value);
    where.push(`${expression} = $${params.length}`);
    name += `_${field}`;
  }
  if (query.after !== undefined) {
    params.push(...query.after);
    where.push(`(${order}, t.id) > ($${params.length - 1}, $${params.length})`);
    name += "_after";
  }
  params.push(limit);
  const text = `SELECT ${TIMER} FROM ${s}.wow_timers AS t WHERE ${where.join(" AND ")} ORDER BY ${order}, t.id LIMIT $${params.length}`;
  return { statement: { name, text }, params };
}
