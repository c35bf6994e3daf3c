// Subscription state in the store's SQLite file (same connection): checkpoints, parked events, and
// the index of job instances.
import { refKey, type AggregateRef } from "../../model/aggregate-ref.js";
import type { ParkedEvent, SubscriptionStore } from "../subscription-store.js";
import type { SqliteConnection } from "./connection.js";
import { toParkedEvent } from "../sql-rows.js";

const DEFAULT_LIST_LIMIT = 100;

export class SqliteSubscriptionStore implements SubscriptionStore {
  constructor(private readonly c: SqliteConnection) {}

  async checkpoint(subscription: string): Promise<number> {
    return this.c.guard(() => {
      return this.c.stmt.checkpoint.get(subscription)?.position ?? 0;
    });
  }

  async saveCheckpoint(subscription: string, position: number): Promise<void> {
    return this.c.guard(() => {
      this.c.stmt.saveCheckpoint.run(subscription, position);
    });
  }

  async park(e: ParkedEvent): Promise<void> {
    return this.c.guard(() => {
      this.c.stmt.park.run(e.id, e.subscription, e.position, JSON.stringify(e.event), e.attempts, e.error, e.parkedAt);
    });
  }

  async parked(limit = DEFAULT_LIST_LIMIT, tenantId?: string, after: readonly [number, string] = [-1, ""]): Promise<ParkedEvent[]> {
    return this.c.guard(() => {
      const s = this.c.stmt;
      return (tenantId === undefined ? s.parkedEvents.all(after[0], after[1], limit) : s.parkedEventsOf.all(tenantId, after[0], after[1], limit)).map(toParkedEvent);
    });
  }

  async countParked(tenantId?: string): Promise<number> {
    return this.c.guard(() => (tenantId === undefined ? this.c.stmt.countParkedEvents.get()!.n : this.c.stmt.countParkedEventsOf.get(tenantId)!.n));
  }

  async parkedEvent(id: string): Promise<ParkedEvent | undefined> {
    return this.c.guard(() => {
      const row = this.c.stmt.parkedEvent.get(id);
      return row && toParkedEvent(row);
    });
  }

  async unpark(id: string): Promise<boolean> {
    return this.c.guard(() => {
      return this.c.stmt.unpark.run(id).changes > 0;
    });
  }

  async rememberInstance(ref: AggregateRef): Promise<void> {
    return this.c.guard(() => {
      this.c.stmt.rememberInstance.run(refKey(ref), JSON.stringify(ref));
    });
  }

  async instances(): Promise<AggregateRef[]> {
    return this.c.guard(() => {
      return this.c.stmt.instances.all().map((row) => JSON.parse(row.ref) as AggregateRef);
    });
  }

  async close(): Promise<void> {}
}
