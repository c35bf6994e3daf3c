import { randomUUID } from "node:crypto";
import type Database from "better-sqlite3";
import { refKey, type AggregateRef } from "../../model/aggregate-ref.js";
import type { Causation, CommandDraft } from "../../model/messages.js";
import type { ScheduleRule } from "../../model/schedule-rule.js";
import type { SpecData } from "../stored-json.js";

/** A schema step: its SQL, then (optional) a rewrite of existing rows that SQL alone would not do exactly. */
export interface Migration {
  readonly version: number;
  readonly sql: string;
  readonly rows?: (db: Database.Database) => void;
}

/**
 * Schema migrations, in order; the database records the last applied in `wow_meta.schema_version`.
 * Version 1 was edited in place during early development (a journal from a build before its last edit
 * must be recreated); later changes are migrations, so a version 1 journal is upgraded. Edits to 1: `wow_timers.lease_owner` is
 * gone (a claim's lease is its `fire_at`; nothing read the owner, and writing it grew every claimed row);
 * `wow_streams` (a row per stream, rewritten by every commit) is gone: a stream's version is the
 * highest of its events (a seek on `wow_events_stream`), and `wow_deleted` lists deleted streams;
 * `wow_events.data` and `wow_timers.spec` hold only what their row's columns do not (no aggregate,
 * version, sequence or type in an event's JSON; no owner in a timer's, nor a target or causation
 * aggregate equal to it — see `sqlite-rows.ts`).
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    sql: `
      CREATE TABLE wow_deleted (
        stream TEXT PRIMARY KEY
      ) WITHOUT ROWID;
      CREATE TABLE wow_events (
        position INTEGER PRIMARY KEY,
        stream TEXT NOT NULL,
        version INTEGER NOT NULL,
        sequence INTEGER NOT NULL,
        type TEXT NOT NULL,
        data TEXT NOT NULL
      );
      CREATE UNIQUE INDEX wow_events_stream ON wow_events (stream, version, sequence);
      CREATE TABLE wow_requests (
        stream TEXT NOT NULL,
        request_id TEXT NOT NULL,
        version INTEGER NOT NULL,
        error_code TEXT NOT NULL,
        PRIMARY KEY (stream, request_id)
      ) WITHOUT ROWID;
      CREATE TABLE wow_timers (
        id TEXT PRIMARY KEY,
        owner TEXT NOT NULL,
        key TEXT NOT NULL,
        spec TEXT NOT NULL,
        slot INTEGER NOT NULL,
        due INTEGER NOT NULL,
        fire_at INTEGER NOT NULL,
        status INTEGER NOT NULL DEFAULT 0,
        attempts INTEGER NOT NULL DEFAULT 0,
        last_error TEXT,
        parked_at INTEGER
      );
      CREATE UNIQUE INDEX wow_timers_owner_key ON wow_timers (owner, key);
      CREATE INDEX wow_timers_pending ON wow_timers (fire_at) WHERE status = 0;
      CREATE INDEX wow_timers_parked ON wow_timers (parked_at) WHERE status = 1;
    `,
  },
  {
    // A timer's target key is a column (null: its owner), so the poller reads a due timer's target stream
    // state and slot request with the timer, in one statement; the spec JSON no longer holds it, nor a
    // causation request id equal to its command id.
    version: 2,
    sql: "ALTER TABLE wow_timers ADD COLUMN target TEXT;",
    rows: (db) => {
      const update = db.prepare("UPDATE wow_timers SET target = ?, spec = ? WHERE rowid = ?");
      for (const [rowid, spec] of db.prepare<[], [number, string]>("SELECT rowid, spec FROM wow_timers").raw().all()) {
        const row = timerRowV2(spec);
        update.run(row.target, row.spec, rowid);
      }
    },
  },
  {
    // Requests keyed by request id first: ids made one after another (time-ordered command ids, and a
    // timer's slots `timer#slot`, whose timer ids are time-ordered) are recorded next to each other in the
    // B-tree, where keying by stream first wrote each to its aggregate's place: one more page per decision
    // written at random for random aggregate ids. Every lookup gives both columns.
    version: 3,
    sql: `
      CREATE TABLE wow_requests_v3 (
        request_id TEXT NOT NULL,
        stream TEXT NOT NULL,
        version INTEGER NOT NULL,
        error_code TEXT NOT NULL,
        PRIMARY KEY (request_id, stream)
      ) WITHOUT ROWID;
      INSERT INTO wow_requests_v3 (request_id, stream, version, error_code) SELECT request_id, stream, version, error_code FROM wow_requests;
      DROP TABLE wow_requests;
      ALTER TABLE wow_requests_v3 RENAME TO wow_requests;
    `,
  },
  {
    // Subscription state (checkpoints, parked events, the index of job instances), which earlier
    // versions created outside the versioned schema when they were first used: one schema, one version.
    version: 4,
    sql: `
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
    `,
  },
  {
    // The latest snapshot of a stream whose aggregate keeps them (a job instance: one event per tick).
    version: 5,
    sql: `
      CREATE TABLE wow_snapshots (
        stream TEXT PRIMARY KEY,
        version INTEGER NOT NULL,
        state TEXT NOT NULL
      ) WITHOUT ROWID;
    `,
  },
  {
    // The run log: each job run and each timer delivery attempt (the row's JSON holds it whole), and
    // each job instance's latest run (for listings). Attempts are keyed by time first: written at the
    // key's end and pruned by it, with one index beside (one per delivery written).
    version: 6,
    sql: `
      CREATE TABLE wow_job_runs (
        id TEXT PRIMARY KEY,
        instance_key TEXT NOT NULL,
        due INTEGER NOT NULL,
        started INTEGER NOT NULL,
        outcome TEXT NOT NULL,
        kind TEXT NOT NULL,
        data TEXT NOT NULL
      ) WITHOUT ROWID;
      CREATE INDEX wow_job_runs_newest ON wow_job_runs (instance_key, started DESC, id DESC);
      CREATE INDEX wow_job_runs_due ON wow_job_runs (instance_key, due);
      CREATE INDEX wow_job_runs_started ON wow_job_runs (started);
      CREATE TABLE wow_job_last_runs (
        instance_key TEXT PRIMARY KEY,
        started INTEGER NOT NULL,
        id TEXT NOT NULL,
        data TEXT NOT NULL
      ) WITHOUT ROWID;
      CREATE TABLE wow_timer_attempts (
        at INTEGER NOT NULL,
        id TEXT NOT NULL,
        timer TEXT NOT NULL,
        data TEXT NOT NULL,
        PRIMARY KEY (at, id)
      ) WITHOUT ROWID;
      CREATE INDEX wow_timer_attempts_newest ON wow_timer_attempts (timer, at DESC, id DESC);
    `,
  },
  {
    // Operators' listings of a million pending timers, a page at a time: in due order, and by tenant,
    // aggregate id, key or command type (the expressions are those of \`timer-list.ts\`, so each filter
    // is an index seek). Parked timers are few: the tenant's index serves them too.
    version: 7,
    sql: `
      CREATE INDEX wow_timers_pending_due ON wow_timers (due, id) WHERE status = 0;
      CREATE INDEX wow_timers_tenant ON wow_timers (json_extract(owner, '$[2]'), due, id) WHERE status = 0;
      DROP INDEX wow_timers_parked;
      CREATE INDEX wow_timers_parked ON wow_timers (parked_at, id) WHERE status = 1;
      CREATE INDEX wow_timers_parked_tenant ON wow_timers (json_extract(owner, '$[2]'), parked_at, id) WHERE status = 1;
      CREATE INDEX wow_timers_aggregate ON wow_timers (json_extract(owner, '$[3]'), due, id) WHERE status = 0;
      CREATE INDEX wow_timers_key ON wow_timers (key, due, id) WHERE status = 0;
      CREATE INDEX wow_timers_command ON wow_timers (json_extract(spec, '$.command.type'), due, id) WHERE status = 0;
      CREATE INDEX wow_job_runs_outcome ON wow_job_runs (outcome, started);
    `,
  },
  {
    // The command type in a column of its own, written with the spec: an index on the spec's JSON made
    // every write and delete of a timer parse the spec (about a tenth of a delivery's cost).
    version: 8,
    sql: `
      ALTER TABLE wow_timers ADD COLUMN command_type TEXT;
      UPDATE wow_timers SET command_type = json_extract(spec, '$.command.type');
      DROP INDEX wow_timers_command;
      CREATE INDEX wow_timers_command ON wow_timers (command_type, due, id) WHERE status = 0;
    `,
  },
  {
    // The owner's tenant and aggregate id in columns of their own too, for the same reason: the indexes on
    // json_extract of the owner parsed it twice for every timer written or deleted (a delivery's delete of
    // its timer cost about half as much again).
    version: 9,
    sql: `
      ALTER TABLE wow_timers ADD COLUMN tenant_id TEXT;
      ALTER TABLE wow_timers ADD COLUMN aggregate_id TEXT;
      UPDATE wow_timers SET tenant_id = json_extract(owner, '$[2]'), aggregate_id = json_extract(owner, '$[3]');
      DROP INDEX wow_timers_tenant;
      DROP INDEX wow_timers_aggregate;
      DROP INDEX wow_timers_parked_tenant;
      CREATE INDEX wow_timers_tenant ON wow_timers (tenant_id, due, id) WHERE status = 0;
      CREATE INDEX wow_timers_aggregate ON wow_timers (aggregate_id, due, id) WHERE status = 0;
      CREATE INDEX wow_timers_parked_tenant ON wow_timers (tenant_id, parked_at, id) WHERE status = 1;
    `,
  },
];

export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

/** The spec of a timer row written before schema version 2 (target and causation in full, in the spec). */
interface SpecDataV1 {
  readonly rule: ScheduleRule;
  readonly command: CommandDraft;
  readonly target?: AggregateRef;
  readonly causation: Omit<Causation, "aggregate"> & { readonly aggregate?: AggregateRef };
}

/** Schema version 2's `target` column and `spec` of a version 1 row. */
export function timerRowV2(specV1: string): { target: string | null; spec: string } {
  const old = JSON.parse(specV1) as SpecDataV1;
  const { aggregate, version, commandId, requestId } = old.causation;
  const causation: SpecData["causation"] = {
    version,
    commandId,
    ...(requestId === commandId ? {} : { requestId }),
    ...(aggregate === undefined ? {} : { aggregate }),
  };
  const data: SpecData = { rule: old.rule, command: old.command, causation };
  return { target: old.target === undefined ? null : refKey(old.target), spec: JSON.stringify(data) };
}

/** The store's id, kept in the file (and beside it, in the marker: see file-checks). */
export function storeIdOf(db: Database.Database): string | undefined {
  return (db.prepare("SELECT value FROM wow_meta WHERE key = 'store_id'").get() as { value: string } | undefined)?.value;
}

/** The store's id, made now for a store that has none yet. */
export function ensureStoreId(db: Database.Database): string {
  db.prepare("INSERT OR IGNORE INTO wow_meta (key, value) VALUES ('store_id', ?)").run(randomUUID());
  return storeIdOf(db)!;
}

/** Creates or upgrades the schema in one transaction; refuses a database from a newer runtime. */
export function migrate(db: Database.Database): number {
  db.exec("CREATE TABLE IF NOT EXISTS wow_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID");
  const upgrade = db.transaction(() => {
    const row = db.prepare("SELECT value FROM wow_meta WHERE key = 'schema_version'").get() as { value: string } | undefined;
    const current = row ? Number(row.value) : 0;
    if (current > SCHEMA_VERSION) {
      throw new Error(`the database's schema version ${current} is newer than this runtime's (${SCHEMA_VERSION}): upgrade wowc to open it`);
    }
    for (const migration of MIGRATIONS) {
      if (migration.version <= current) continue;
      db.exec(migration.sql);
      migration.rows?.(db);
      db.prepare("INSERT INTO wow_meta (key, value) VALUES ('schema_version', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(
        String(migration.version),
      );
    }
    return Math.max(current, SCHEMA_VERSION);
  });
  return upgrade.immediate();
}
