// The store on a PostgreSQL server: events, timers, subscription state and the run log in one schema
// (default `wow`), created and migrated by the runtime. Its claims lease timers, so hosts may share it.
import type { EventStore } from "../event-store.js";
import type { RunStore } from "../run-store.js";
import type { Store } from "../store.js";
import type { SubscriptionStore } from "../subscription-store.js";
import type { TimerStore } from "../timer-store.js";
import type { ClusterStore } from "../cluster-store.js";
import { PgClusterStore } from "./cluster-store.js";
import { PgConnection } from "./connection.js";
import { PgEventStore } from "./events.js";
import { withDefaultUser, type PostgresStoreOptions } from "./options.js";
import { PgRunStore } from "./runs.js";
import { PgSubscriptionStore } from "./subscriptions.js";
import { PgTimerStore } from "./timers.js";

/** The longest readiness waits for the server's answer. */
const PROBE_TIMEOUT_MS = 2000;

export class PostgresStore implements Store {
  readonly kind = "postgres";
  private readonly connection: PgConnection;
  readonly events: EventStore;
  readonly timers: TimerStore;
  readonly subscriptions: SubscriptionStore;
  readonly runs: RunStore;
  private clusterStore: PgClusterStore | undefined;

  /** Connects on first use (or `open`); a URL that is not one is refused now. */
  constructor(options: PostgresStoreOptions) {
    this.connection = new PgConnection(options);
    this.events = new PgEventStore(this.connection);
    this.timers = new PgTimerStore(this.connection);
    this.subscriptions = new PgSubscriptionStore(this.connection);
    this.runs = new PgRunStore(this.connection);
  }

  /** Membership and partition leases in the same schema (hosts sharing the store), on a small pool of its own, opened on first use. */
  get cluster(): ClusterStore {
    const o = this.connection.options;
    this.clusterStore ??= new PgClusterStore({ connectionString: withDefaultUser(o.url), schema: o.schema, statementTimeout: o.statementTimeout });
    return this.clusterStore;
  }

  /** The schema's name. */
  get schema(): string {
    return this.connection.options.schema;
  }

  /** `host:port/database`, for messages. */
  get target(): string {
    return this.connection.target;
  }

  /** Connects and creates or upgrades the schema; a StoreError says why it cannot (naming host, port and database). */
  async open(): Promise<void> {
    await this.connection.open();
  }

  /** The schema version, once open. */
  async schemaVersion(): Promise<number> {
    return this.connection.open();
  }

  /** A cheap `SELECT 1`, answered within 2 s, or the store takes no writes now. */
  async probe(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${this.target} did not answer within ${PROBE_TIMEOUT_MS} ms`)), PROBE_TIMEOUT_MS);
    });
    try {
      await Promise.race([this.connection.query(this.connection.sql.probe), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    await this.clusterStore?.close();
    await this.connection.close();
  }
}
