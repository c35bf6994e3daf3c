import { refKey, type AggregateRef } from "../../model/aggregate-ref.js";
import type { ParkedEvent, SubscriptionStore } from "../subscription-store.js";

/** Subscription state in memory, for tests. Stores copies, like a real store. */
export class MemorySubscriptionStore implements SubscriptionStore {
  private readonly checkpoints = new Map<string, number>();
  private readonly parkedEvents = new Map<string, ParkedEvent>();
  private readonly known = new Map<string, AggregateRef>();

  async checkpoint(subscription: string): Promise<number> {
    return this.checkpoints.get(subscription) ?? 0;
  }

  async saveCheckpoint(subscription: string, position: number): Promise<void> {
    this.checkpoints.set(subscription, position);
  }

  async park(entry: ParkedEvent): Promise<void> {
    this.parkedEvents.set(entry.id, structuredClone(entry));
  }

  async parked(limit = 100, tenantId?: string, after?: readonly [number, string]): Promise<ParkedEvent[]> {
    return [...this.parkedEvents.values()]
      .filter((e) => tenantId === undefined || e.event.aggregate.tenantId === tenantId)
      .filter((e) => after === undefined || e.parkedAt > after[0] || (e.parkedAt === after[0] && e.id > after[1]))
      .sort((a, b) => a.parkedAt - b.parkedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .slice(0, limit)
      .map((e) => structuredClone(e));
  }

  async countParked(tenantId?: string): Promise<number> {
    if (tenantId === undefined) return this.parkedEvents.size;
    return [...this.parkedEvents.values()].filter((e) => e.event.aggregate.tenantId === tenantId).length;
  }

  async parkedEvent(id: string): Promise<ParkedEvent | undefined> {
    const entry = this.parkedEvents.get(id);
    return entry && structuredClone(entry);
  }

  async unpark(id: string): Promise<boolean> {
    return this.parkedEvents.delete(id);
  }

  async rememberInstance(ref: AggregateRef): Promise<void> {
    this.known.set(refKey(ref), { ...ref });
  }

  async instances(): Promise<AggregateRef[]> {
    return [...this.known.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, ref]) => ({ ...ref }));
  }

  async close(): Promise<void> {}
}
