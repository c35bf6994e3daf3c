// Durable state of subscriptions (sagas and jobs): a checkpoint per subscription, parked events,
// and the index of job instances. One contract suite runs against both implementations.
import type { AggregateRef } from "../model/aggregate-ref.js";
import type { EventMessage } from "../model/messages.js";

/** An event a subscription's handler failed on, after its retries: kept with its error until re-driven. */
export interface ParkedEvent {
  /** `<subscription>@<position>`. */
  readonly id: string;
  readonly subscription: string;
  readonly position: number;
  readonly event: EventMessage;
  readonly attempts: number;
  readonly error: string;
  readonly parkedAt: number;
}

export interface SubscriptionStore {
  /** The last handled global position (0: nothing yet). */
  checkpoint(subscription: string): Promise<number>;
  saveCheckpoint(subscription: string, position: number): Promise<void>;
  /** Parks an event (replacing a parked entry with the same id). */
  park(entry: ParkedEvent): Promise<void>;
  /** Parked events, in parking order; of aggregates in `tenantId` only, when given; after `after` (a listed one's parkedAt and id), when given. */
  parked(limit?: number, tenantId?: string, after?: readonly [number, string]): Promise<ParkedEvent[]>;
  parkedEvent(id: string): Promise<ParkedEvent | undefined>;
  /** How many events are parked (of aggregates in `tenantId`, when given). */
  countParked(tenantId?: string): Promise<number>;
  /** Removes a parked event (it was re-driven successfully). False if it was not parked. */
  unpark(id: string): Promise<boolean>;
  /** Remembers a job instance (`<context>.schedule` aggregate), for listings. */
  rememberInstance(ref: AggregateRef): Promise<void>;
  instances(): Promise<AggregateRef[]>;
  close(): Promise<void>;
}

export function parkedId(subscription: string, position: number): string {
  return `${subscription}@${position}`;
}
