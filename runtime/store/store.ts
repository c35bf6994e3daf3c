// A store: the events, timers and subscription state of one host (or of hosts sharing it), each behind
// its own narrow interface, so that a component sees only the concern it works with.
import type { ClusterStore } from "./cluster-store.js";
import type { EventStore } from "./event-store.js";
import type { RunStore } from "./run-store.js";
import type { SubscriptionStore } from "./subscription-store.js";
import type { TimerStore } from "./timer-store.js";

export interface Store {
  /** What it is, for messages and health: "memory", "sqlite", "postgres". */
  readonly kind: string;
  readonly events: EventStore;
  readonly timers: TimerStore;
  readonly subscriptions: SubscriptionStore;
  readonly runs: RunStore;
  /** Where hosts sharing this store coordinate (membership, partition leases); none: it serves one host. */
  readonly cluster?: ClusterStore;
  /**
   * Connects and brings its schema up to date, before a host starts on it (a store that opened when it
   * was made has none); rejects with a StoreError saying why it cannot.
   */
  open?(): Promise<void>;
  /** Throws when the store cannot take a write now (locked, read-only, unreachable): what readiness asks. */
  probe?(): Promise<void>;
  /** Housekeeping for a moment with nothing due (e.g. SQLite's WAL checkpoint). */
  idle?(): Promise<void>;
  /** A consistent copy of the whole store, taken while it is in use, into `destination`. */
  backup?(destination: string): Promise<void>;
  close(): Promise<void>;
}
