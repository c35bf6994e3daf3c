// The embedded default store: one SQLite file (WAL), schema created and versioned by the runtime. It
// serves one host.
import type Database from "better-sqlite3";
import type { EventStore } from "../event-store.js";
import type { RunStore } from "../run-store.js";
import type { Store } from "../store.js";
import { SqliteRunStore } from "./runs.js";
import type { SubscriptionStore } from "../subscription-store.js";
import type { TimerStore } from "../timer-store.js";
import { SqliteConnection } from "./connection.js";
import { SqliteEventStore } from "./events.js";
import type { SqliteStoreOptions } from "./options.js";
import { SqliteSubscriptionStore } from "./subscriptions.js";
import { SqliteTimerStore } from "./timers.js";

export class SqliteStore implements Store {
  readonly kind = "sqlite";
  private readonly connection: SqliteConnection;
  readonly events: EventStore;
  readonly timers: TimerStore;
  readonly subscriptions: SubscriptionStore;
  readonly runs: RunStore;

  constructor(readonly path: string, options: SqliteStoreOptions = {}) {
    this.connection = new SqliteConnection(path, options);
    this.events = new SqliteEventStore(this.connection);
    this.timers = new SqliteTimerStore(this.connection);
    this.subscriptions = new SqliteSubscriptionStore(this.connection);
    this.runs = new SqliteRunStore(this.connection);
  }

  /** The better-sqlite3 connection (for tests and tools). */
  get db(): Database.Database {
    return this.connection.db;
  }

  get schemaVersion(): number {
    return this.connection.schemaVersion;
  }

  /**
   * Takes the write lock and lets it go, waiting at most 250 ms for it: a file another process holds
   * locked, or that cannot be written, fails. A transaction already open on this connection holds the lock.
   */
  async probe(): Promise<void> {
    const db = this.connection.db;
    this.connection.guard(() => {
      if (db.inTransaction) return;
      const timeout = db.pragma("busy_timeout", { simple: true }) as number;
      db.pragma("busy_timeout = 250");
      try {
        db.exec("BEGIN IMMEDIATE");
        db.exec("ROLLBACK");
      } finally {
        db.pragma(`busy_timeout = ${timeout}`);
      }
    });
  }

  /** Copies the WAL into the database file (a PASSIVE checkpoint: it never waits for other connections). */
  async idle(): Promise<void> {
    this.connection.guard(() => this.connection.db.pragma("wal_checkpoint(PASSIVE)"));
  }

  /**
   * SQLite's online backup: the whole file copied page by page while the store is in use (a consistent
   * snapshot), into `destination` (a new file, or one to overwrite). Open it as a store to restore.
   */
  async backup(destination: string): Promise<void> {
    await this.connection.guard(() => this.connection.db.backup(destination));
  }

  /** The background checkpoints: whether their thread runs, how many it made, and its last failure (if any). */
  get checkpoints(): { readonly running: boolean; readonly completed: number; readonly failure?: Error } {
    const c = this.connection;
    return { running: c.checkpointer?.running ?? false, completed: c.checkpointer?.completed ?? 0, ...(c.checkpointFailure === undefined ? {} : { failure: c.checkpointFailure }) };
  }

  async close(): Promise<void> {
    await this.connection.close();
  }
}
