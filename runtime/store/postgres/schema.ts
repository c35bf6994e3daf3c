// The PostgreSQL store's schema: created and migrated by the runtime in the configured schema, each
// start in one transaction under an advisory lock on the schema's name, so processes starting at once
// on an empty database end with one schema and no error. `<schema>.wow_schema_version` records what
// was applied; a database from a newer runtime is refused, naming both versions.
import type pg from "pg";

/** A schema step: its SQL for the (quoted) schema `s`. */
export interface Migration {
  readonly version: number;
  readonly sql: (s: string) => string;
}

/**
 * Timestamps are epoch milliseconds in bigint columns; JSON is text, kept exactly as the runtime wrote
 * it (jsonb would reorder keys and refuses a \u0000 in a string, which JSON and the other stores keep).
 * A stream has a row (its version, whether deleted): a commit locks it, so concurrent writers of one
 * stream are serialized and check their expected version against the latest. `wow_positions` holds the
 * last global position: a transaction reserves its events' positions by updating it, the last thing
 * before it inserts them, and keeps the row locked until it commits, so positions become visible in
 * order, with no gap (see `read`).
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    sql: (s) => `
      CREATE TABLE ${s}.wow_streams (
        stream text PRIMARY KEY,
        version integer NOT NULL DEFAULT 0,
        deleted boolean NOT NULL DEFAULT false
      );
      CREATE TABLE ${s}.wow_positions (
        only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
        last bigint NOT NULL
      );
      INSERT INTO ${s}.wow_positions (last) VALUES (0);
      CREATE TABLE ${s}.wow_events (
        position bigint PRIMARY KEY,
        stream text NOT NULL,
        version integer NOT NULL,
        sequence integer NOT NULL,
        type text NOT NULL,
        data text NOT NULL,
        CONSTRAINT wow_events_stream UNIQUE (stream, version, sequence)
      );
      CREATE TABLE ${s}.wow_requests (
        stream text NOT NULL,
        request_id text NOT NULL,
        version integer NOT NULL,
        error_code text NOT NULL,
        CONSTRAINT wow_requests_once PRIMARY KEY (stream, request_id)
      );
      CREATE TABLE ${s}.wow_snapshots (
        stream text PRIMARY KEY,
        version integer NOT NULL,
        state text NOT NULL
      );
      CREATE TABLE ${s}.wow_timers (
        id text PRIMARY KEY,
        owner text NOT NULL,
        key text NOT NULL,
        target text,
        spec text NOT NULL,
        slot integer NOT NULL,
        due bigint NOT NULL,
        fire_at bigint NOT NULL,
        status smallint NOT NULL DEFAULT 0,
        attempts integer NOT NULL DEFAULT 0,
        last_error text,
        parked_at bigint,
        claimed_by text,
        CONSTRAINT wow_timers_owner_key UNIQUE (owner, key)
      );
      CREATE INDEX wow_timers_pending ON ${s}.wow_timers (fire_at) WHERE status = 0;
      -- Operators' listings, a page at a time, in list order and by each filter (the expressions of timer-list.ts).
      CREATE INDEX wow_timers_pending_due ON ${s}.wow_timers (due, id) WHERE status = 0;
      CREATE INDEX wow_timers_tenant ON ${s}.wow_timers ((owner::jsonb ->> 2), due, id) WHERE status = 0;
      CREATE INDEX wow_timers_aggregate ON ${s}.wow_timers ((owner::jsonb ->> 3), due, id) WHERE status = 0;
      CREATE INDEX wow_timers_key ON ${s}.wow_timers (key, due, id) WHERE status = 0;
      CREATE INDEX wow_timers_command ON ${s}.wow_timers ((spec::jsonb -> 'command' ->> 'type'), due, id) WHERE status = 0;
      CREATE INDEX wow_timers_parked ON ${s}.wow_timers (parked_at, id) WHERE status = 1;
      CREATE INDEX wow_timers_parked_tenant ON ${s}.wow_timers ((owner::jsonb ->> 2), parked_at, id) WHERE status = 1;
      CREATE TABLE ${s}.wow_subscription_checkpoints (
        subscription text PRIMARY KEY,
        position bigint NOT NULL
      );
      CREATE TABLE ${s}.wow_subscription_parked (
        id text PRIMARY KEY,
        subscription text NOT NULL,
        position bigint NOT NULL,
        event text NOT NULL,
        attempts integer NOT NULL,
        error text NOT NULL,
        parked_at bigint NOT NULL
      );
      CREATE INDEX wow_subscription_parked_order ON ${s}.wow_subscription_parked (parked_at, id);
      CREATE INDEX wow_subscription_parked_tenant ON ${s}.wow_subscription_parked ((event::jsonb -> 'aggregate' ->> 'tenantId'), parked_at, id);
      CREATE TABLE ${s}.wow_job_instances (
        key text PRIMARY KEY,
        ref text NOT NULL
      );
      CREATE TABLE ${s}.wow_job_runs (
        id text PRIMARY KEY,
        instance_key text NOT NULL,
        due bigint NOT NULL,
        started bigint NOT NULL,
        outcome text NOT NULL,
        kind text NOT NULL,
        data text NOT NULL
      );
      CREATE INDEX wow_job_runs_newest ON ${s}.wow_job_runs (instance_key, started DESC, id DESC);
      CREATE INDEX wow_job_runs_due ON ${s}.wow_job_runs (instance_key, due);
      CREATE INDEX wow_job_runs_started ON ${s}.wow_job_runs (started);
      CREATE INDEX wow_job_runs_outcome ON ${s}.wow_job_runs (outcome, started);
      CREATE TABLE ${s}.wow_job_last_runs (
        instance_key text PRIMARY KEY,
        started bigint NOT NULL,
        id text NOT NULL,
        data text NOT NULL
      );
      CREATE TABLE ${s}.wow_timer_attempts (
        at bigint NOT NULL,
        id text NOT NULL,
        timer text NOT NULL,
        data text NOT NULL,
        PRIMARY KEY (at, id)
      );
      CREATE INDEX wow_timer_attempts_newest ON ${s}.wow_timer_attempts (timer, at DESC, id DESC);
    `,
  },
  {
    // Fencing of timer claims: every claim counts up `claims`, so a claim made again after a lease lapsed
    // voids the earlier one's settlements and commits.
    version: 2,
    sql: (s) => `ALTER TABLE ${s}.wow_timers ADD COLUMN claims bigint NOT NULL DEFAULT 0;`,
  },
  {
    // The command type in a column of its own, written with the spec: an index over the spec's JSON made
    // every write and delete of a timer cast the spec to jsonb (as in SQLite's version 8).
    version: 3,
    sql: (s) => `
      ALTER TABLE ${s}.wow_timers ADD COLUMN command_type text;
      UPDATE ${s}.wow_timers SET command_type = spec::jsonb -> 'command' ->> 'type';
      DROP INDEX ${s}.wow_timers_command;
      CREATE INDEX wow_timers_command ON ${s}.wow_timers (command_type, due, id) WHERE status = 0;
    `,
  },
  {
    // The owner's tenant and aggregate id in columns of their own too, for the same reason (as in
    // SQLite's version 9): their indexes cast the owner to jsonb for every timer written or deleted.
    version: 4,
    sql: (s) => `
      ALTER TABLE ${s}.wow_timers ADD COLUMN tenant_id text, ADD COLUMN aggregate_id text;
      UPDATE ${s}.wow_timers SET tenant_id = owner::jsonb ->> 2, aggregate_id = owner::jsonb ->> 3;
      DROP INDEX ${s}.wow_timers_tenant;
      DROP INDEX ${s}.wow_timers_aggregate;
      DROP INDEX ${s}.wow_timers_parked_tenant;
      CREATE INDEX wow_timers_tenant ON ${s}.wow_timers (tenant_id, due, id) WHERE status = 0;
      CREATE INDEX wow_timers_aggregate ON ${s}.wow_timers (aggregate_id, due, id) WHERE status = 0;
      CREATE INDEX wow_timers_parked_tenant ON ${s}.wow_timers (tenant_id, parked_at, id) WHERE status = 1;
    `,
  },
];

export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

/** The schema is newer than this runtime: it refuses to open it. */
export class NewerSchemaError extends Error {
  constructor(readonly schema: string, readonly found: number, readonly known: number) {
    super(`the schema "${schema}" is at version ${found}, newer than this wowc's ${known}: upgrade wowc to open it (or point wow.store.schema at another schema)`);
    this.name = "NewerSchemaError";
  }
}

/** `"name"`: a checked identifier, quoted. */
export function quoted(schema: string): string {
  return `"${schema}"`;
}

/**
 * Creates or upgrades the schema on `client` in one transaction under the schema's advisory lock, and
 * returns its version. A second process waits for the first, then finds the schema current.
 */
export async function migrate(client: pg.ClientBase, schema: string, migrations: readonly Migration[] = MIGRATIONS): Promise<number> {
  const s = quoted(schema);
  const known = migrations[migrations.length - 1]!.version;
  // Current already (every start but the first): one read, no lock.
  const found = await client.query<{ version: number | null }>(`SELECT max(version) AS version FROM ${s}.wow_schema_version`).catch(() => undefined);
  if (found?.rows[0]?.version === known) return known;
  await client.query("BEGIN");
  try {
    await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`wow.schema:${schema}`]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${s}.wow_schema_version (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
    const { rows } = await client.query<{ version: number | null }>(`SELECT max(version) AS version FROM ${s}.wow_schema_version`);
    const current = rows[0]?.version ?? 0;
    if (current > known) throw new NewerSchemaError(schema, current, known);
    for (const migration of migrations) {
      if (migration.version <= current) continue;
      await client.query(migration.sql(s));
      await client.query(`INSERT INTO ${s}.wow_schema_version (version) VALUES ($1)`, [migration.version]);
    }
    await client.query("COMMIT");
    return Math.max(current, known);
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  }
}
