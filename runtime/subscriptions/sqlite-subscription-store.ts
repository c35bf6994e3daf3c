// Subscription state in the journal's SQLite file (same connection), in tables of its own, created
// if absent: the journal's schema version does not move.
import type Database from "better-sqlite3";
import { refKey, type AggregateRef } from "../model/aggregate-ref.js";
import type { ParkedEvent, SubscriptionStore } from "./subscription-store.js";

const TABLES = `
  CREATE TABLE IF NOT EXISTS wow_subscription_checkpoints (
    subscription TEXT PRIMARY KEY,
    position INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS wow_subscription_parked (
    id TEXT PRIMARY KEY,
    subscription TEXT NOT NULL,
    position INTEGER NOT NULL,
    event TEXT NOT NULL,
    attempts INTEGER NOT NULL,
    error TEXT NOT NULL,
    parked_at INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS wow_job_instances (
    key TEXT PRIMARY KEY,
    ref TEXT NOT NULL
  ) WITHOUT ROWID;
`;

interface ParkedRow {
  id: string;
  subscription: string;
  position: number;
  event: string;
  attempts: number;
  error: string;
  parked_at: number;
}

export class SqliteSubscriptionStore implements SubscriptionStore {
  private readonly stmt;

  /** `db`: the journal's connection (`SqliteJournal.db`); closing the journal closes it. */
  constructor(private readonly db: Database.Database) {
    db.exec(TABLES);
    this.stmt = {
      checkpoint: db.prepare<[string], { position: number }>("SELECT position FROM wow_subscription_checkpoints WHERE subscription = ?"),
      saveCheckpoint: db.prepare(
        "INSERT INTO wow_subscription_checkpoints (subscription, position) VALUES (?, ?) ON CONFLICT (subscription) DO UPDATE SET position = excluded.position",
      ),
      park: db.prepare(
        `INSERT INTO wow_subscription_parked (id, subscription, position, event, attempts, error, parked_at) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET attempts = excluded.attempts, error = excluded.error, parked_at = excluded.parked_at`,
      ),
      parked: db.prepare<[number], ParkedRow>("SELECT * FROM wow_subscription_parked ORDER BY parked_at, id LIMIT ?"),
      parkedOf: db.prepare<[string, number], ParkedRow>("SELECT * FROM wow_subscription_parked WHERE json_extract(event, '$.aggregate.tenantId') = ? ORDER BY parked_at, id LIMIT ?"),
      parkedEvent: db.prepare<[string], ParkedRow>("SELECT * FROM wow_subscription_parked WHERE id = ?"),
      unpark: db.prepare("DELETE FROM wow_subscription_parked WHERE id = ?"),
      remember: db.prepare("INSERT OR IGNORE INTO wow_job_instances (key, ref) VALUES (?, ?)"),
      instances: db.prepare<[], { ref: string }>("SELECT ref FROM wow_job_instances ORDER BY key"),
    };
  }

  async checkpoint(subscription: string): Promise<number> {
    return this.stmt.checkpoint.get(subscription)?.position ?? 0;
  }

  async saveCheckpoint(subscription: string, position: number): Promise<void> {
    this.stmt.saveCheckpoint.run(subscription, position);
  }

  async park(e: ParkedEvent): Promise<void> {
    this.stmt.park.run(e.id, e.subscription, e.position, JSON.stringify(e.event), e.attempts, e.error, e.parkedAt);
  }

  async parked(limit = 100, tenantId?: string): Promise<ParkedEvent[]> {
    return (tenantId === undefined ? this.stmt.parked.all(limit) : this.stmt.parkedOf.all(tenantId, limit)).map(fromRow);
  }

  async parkedEvent(id: string): Promise<ParkedEvent | undefined> {
    const row = this.stmt.parkedEvent.get(id);
    return row && fromRow(row);
  }

  async unpark(id: string): Promise<boolean> {
    return this.stmt.unpark.run(id).changes > 0;
  }

  async rememberInstance(ref: AggregateRef): Promise<void> {
    this.stmt.remember.run(refKey(ref), JSON.stringify(ref));
  }

  async instances(): Promise<AggregateRef[]> {
    return this.stmt.instances.all().map((row) => JSON.parse(row.ref) as AggregateRef);
  }

  async close(): Promise<void> {}
}

function fromRow(row: ParkedRow): ParkedEvent {
  return {
    id: row.id,
    subscription: row.subscription,
    position: row.position,
    event: JSON.parse(row.event),
    attempts: row.attempts,
    error: row.error,
    parkedAt: row.parked_at,
  };
}
