// What both tours (one host, and two on PostgreSQL) read back: an order's status, folded from its stream.
import type { EventStore } from "wowc/runtime";
import { order } from "../src/index.js";

/** The tenant the tours' orders belong to. */
export const TENANT = "(0)";

export async function orderStatus(events: Pick<EventStore, "load">, id: string): Promise<string> {
  const stream = await events.load({ context: "eshop-order", aggregate: "Order", tenantId: TENANT, id });
  return stream.events.reduce((s, e) => (order.events[e.type] ? order.events[e.type]!(s, e) : s), order.initialState()).status;
}
