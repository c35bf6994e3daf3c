// How operators page through job instances: filtered by what an instance's id says (context, job,
// tenant, a search text) and by its state, sorted by one of its names, a page at a time after a cursor.
import type { AggregateRef } from "../model/aggregate-ref.js";
import { parseInstanceId } from "./job-messages.js";

export type JobSort = "context" | "job" | "tenant";
export type JobState = "enabled" | "paused" | "disabled";

export interface JobQuery {
  readonly tenantId?: string;
  readonly context?: string;
  /** A job's name (every instance of a sharded job). */
  readonly job?: string;
  /** Text found (case-insensitively) in the context, the instance id or the tenant. */
  readonly search?: string;
  /** Enabled; paused (disabled by an operator, with a note); disabled (any disabled one). */
  readonly state?: JobState;
  readonly sort?: JobSort;
  readonly descending?: boolean;
  /** From a page's `next`. */
  readonly cursor?: string;
  readonly limit: number;
  /** How many next fire times each instance shows. */
  readonly fireTimes?: number;
}

/** An instance's place in a sort: the sorted name first, then the others, so that the order is total. */
export function sortKey(ref: AggregateRef, sort: JobSort = "context"): string {
  const job = parseInstanceId(ref.id).job;
  const parts = sort === "job" ? [job, ref.context, ref.tenantId, ref.id] : sort === "tenant" ? [ref.tenantId, ref.context, ref.id] : [ref.context, ref.id, ref.tenantId];
  return parts.join("\u0000");
}

/** Whether an instance's names pass the query's filters (its state is checked apart: it costs a read). */
export function namesMatch(ref: AggregateRef, query: JobQuery): boolean {
  if (query.tenantId !== undefined && ref.tenantId !== query.tenantId) return false;
  if (query.context !== undefined && ref.context !== query.context) return false;
  if (query.job !== undefined && parseInstanceId(ref.id).job !== query.job) return false;
  if (query.search === undefined) return true;
  const text = query.search.toLowerCase();
  return [ref.context, ref.id, ref.tenantId].some((name) => name.toLowerCase().includes(text));
}

export function jobCursor(key: string): string {
  return Buffer.from(key, "utf8").toString("base64url");
}

/** The sort key a cursor holds; RangeError for text that is not a cursor. */
export function readJobCursor(cursor: string): string {
  const key = Buffer.from(cursor, "base64url").toString("utf8");
  if (key.length === 0 || jobCursor(key) !== cursor) throw new RangeError("not a cursor of the job list");
  return key;
}
