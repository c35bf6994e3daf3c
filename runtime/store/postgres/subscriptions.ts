// Subscription state in PostgreSQL (the store's schema): checkpoints, parked events, and the index of
// job instances.
import { refKey, type AggregateRef } from "../../model/aggregate-ref.js";
import type { ParkedEvent, SubscriptionStore } from "../subscription-store.js";
import { toParkedEvent, type ParkedEventRow } from "../sql-rows.js";
import type { PgConnection } from "./connection.js";

const DEFAULT_LIST_LIMIT = 100;

export class PgSubscriptionStore implements SubscriptionStore {
  constructor(private readonly c: PgConnection) {}

  async checkpoint(subscription: string): Promise<number> {
    const [row] = await this.c.query<{ position: number }>(this.c.sql.checkpoint, [subscription]);
    return row?.position ?? 0;
  }

  async saveCheckpoint(subscription: string, position: number): Promise<void> {
    await this.c.query(this.c.sql.saveCheckpoint, [subscription, position]);
  }

  async park(e: ParkedEvent): Promise<void> {
    await this.c.query(this.c.sql.park, [e.id, e.subscription, e.position, JSON.stringify(e.event), e.attempts, e.error, e.parkedAt]);
  }

  async parked(limit = DEFAULT_LIST_LIMIT, tenantId?: string, after: readonly [number, string] = [-1, ""]): Promise<ParkedEvent[]> {
    const rows =
      tenantId === undefined
        ? await this.c.query<ParkedEventRow>(this.c.sql.parkedEvents, [after[0], after[1], limit])
        : await this.c.query<ParkedEventRow>(this.c.sql.parkedEventsOf, [tenantId, after[0], after[1], limit]);
    return rows.map(toParkedEvent);
  }

  async countParked(tenantId?: string): Promise<number> {
    const [row] = tenantId === undefined ? await this.c.query<{ n: number }>(this.c.sql.countParkedEvents) : await this.c.query<{ n: number }>(this.c.sql.countParkedEventsOf, [tenantId]);
    return row!.n;
  }

  async parkedEvent(id: string): Promise<ParkedEvent | undefined> {
    const [row] = await this.c.query<ParkedEventRow>(this.c.sql.parkedEvent, [id]);
    return row && toParkedEvent(row);
  }

  async unpark(id: string): Promise<boolean> {
    return (await this.c.write((tx) => tx.run(this.c.sql.unpark, [id]))) > 0;
  }

  async rememberInstance(ref: AggregateRef): Promise<void> {
    await this.c.query(this.c.sql.rememberInstance, [refKey(ref), JSON.stringify(ref)]);
  }

  async instances(): Promise<AggregateRef[]> {
    return (await this.c.query<{ ref: string }>(this.c.sql.instances)).map((row) => JSON.parse(row.ref) as AggregateRef);
  }

  async close(): Promise<void> {}
}
