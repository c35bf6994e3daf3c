// The cluster's tables in the store's schema, and every statement on them: members with their
// leases, one row per journal partition (owner, fencing epoch, lease end), all times read from the
// server's clock (`clock_timestamp()`, epoch ms).
import { ASYNC_COMMIT } from "./statements.js";

/** The server's clock in epoch milliseconds. */
const NOW = "(extract(epoch from clock_timestamp()) * 1000)::bigint";

/** Created (if missing) in one transaction under the cluster's advisory lock. */
export function clusterTables(s: string): string {
  return `
    CREATE TABLE IF NOT EXISTS ${s}.wow_cluster_members (
      id text PRIMARY KEY,
      started_at bigint NOT NULL,
      heartbeat_at bigint NOT NULL,
      lease_until bigint NOT NULL,
      offset_ms bigint NOT NULL DEFAULT 0
    );
    CREATE TABLE IF NOT EXISTS ${s}.wow_cluster_partitions (
      partition integer PRIMARY KEY,
      owner text,
      epoch bigint NOT NULL DEFAULT 0,
      until bigint NOT NULL DEFAULT 0
    );
  `;
}

export function clusterStatements(s: string) {
  const m = `${s}.wow_cluster_members`;
  const p = `${s}.wow_cluster_partitions`;
  return {
    time: `SELECT ${NOW} AS now`,
    /** Adds the partitions 0 … $1 − 1 that are missing (waiting for a host adding them at the same time). */
    ensurePartitions: `INSERT INTO ${p} (partition) SELECT g FROM generate_series(0, $1::integer - 1) AS g ON CONFLICT DO NOTHING`,
    countPartitions: `SELECT count(*)::integer AS n FROM ${p}`,
    /** Registers or renews member $1 (started $2, offset $4) until the server's now + $3 ms; returns that now. */
    beat: `INSERT INTO ${m} (id, started_at, heartbeat_at, lease_until, offset_ms) VALUES ($1, $2, ${NOW}, ${NOW} + $3::bigint, $4)
      ON CONFLICT (id) DO UPDATE SET heartbeat_at = excluded.heartbeat_at, lease_until = excluded.lease_until, offset_ms = excluded.offset_ms
      RETURNING heartbeat_at AS now`,
    /** Renews member $1's leases of partitions $2 at epochs $3 that have not lapsed, until $4 + $5 ms. */
    renew: `UPDATE ${p} AS p SET until = $4::bigint + $5::bigint FROM unnest($2::integer[], $3::bigint[]) AS k(partition, epoch)
      WHERE p.partition = k.partition AND p.owner = $1 AND p.epoch = k.epoch AND p.until > $4::bigint`,
    /** The members alive at $1. */
    members: `SELECT id, started_at, heartbeat_at, lease_until, offset_ms FROM ${m} WHERE lease_until > $1::bigint ORDER BY id`,
    leases: `SELECT partition, owner, epoch, until FROM ${p} ORDER BY partition`,
    /** Member $1 takes those of partitions $2 that are free, lapsed or held by a member not alive, each at the next epoch, for $3 ms. */
    acquire: `UPDATE ${p} AS p SET owner = $1, epoch = p.epoch + 1, until = ${NOW} + $3::bigint
      WHERE p.partition = ANY($2::integer[])
        AND (p.owner IS NULL OR p.until <= ${NOW} OR NOT EXISTS (SELECT 1 FROM ${m} AS o WHERE o.id = p.owner AND o.lease_until > ${NOW}))
      RETURNING p.partition, p.owner, p.epoch, p.until`,
    /** Member $1 gives up partitions $2 held at epochs $3. */
    release: `UPDATE ${p} AS p SET owner = NULL, until = 0 FROM unnest($2::integer[], $3::bigint[]) AS k(partition, epoch)
      WHERE p.partition = k.partition AND p.owner = $1 AND p.epoch = k.epoch`,
    releaseAll: `UPDATE ${p} SET owner = NULL, until = 0 WHERE owner = $1`,
    removeMember: `DELETE FROM ${m} WHERE id = $1`,
    /**
     * Saves checkpoint $2 of subscription $1 only while partition $3 is held by $4 at epoch $5 and its
     * lease has not lapsed; the lease row is share-locked until the write commits, so no one takes the
     * partition in between. Committed as the unfenced checkpoint is (`ASYNC_COMMIT`).
     */
    fencedCheckpoint: `INSERT INTO ${s}.wow_subscription_checkpoints (subscription, position)
      SELECT $1, $2 WHERE EXISTS (SELECT 1 FROM ${p} WHERE partition = $3 AND owner = $4 AND epoch = $5 AND until > ${NOW} FOR SHARE) AND ${ASYNC_COMMIT}
      ON CONFLICT (subscription) DO UPDATE SET position = excluded.position`,
    /**
     * Records a job's run ($1 id, $2 instance key, $3 due, $4 started, $5 outcome, $6 kind, $7 data) as
     * the run log does, only while partition $8 is held by $9 at epoch $10 and unlapsed (share-locked
     * until the write commits, as a fenced checkpoint is); `n`: 1 when written, 0 when refused.
     */
    fencedRun: `WITH held AS (SELECT 1 FROM ${p} WHERE partition = $8 AND owner = $9 AND epoch = $10 AND until > ${NOW} FOR SHARE),
      run AS (INSERT INTO ${s}.wow_job_runs (id, instance_key, due, started, outcome, kind, data)
        SELECT $1::text, $2::text, $3::bigint, $4::bigint, $5::text, $6::text, $7::text WHERE EXISTS (SELECT 1 FROM held)
        ON CONFLICT (id) DO UPDATE SET instance_key = excluded.instance_key, due = excluded.due, started = excluded.started, outcome = excluded.outcome,
          kind = excluded.kind, data = excluded.data
        RETURNING 1),
      last AS (INSERT INTO ${s}.wow_job_last_runs AS l (instance_key, started, id, data)
        SELECT $2::text, $4::bigint, $1::text, $7::text WHERE EXISTS (SELECT 1 FROM held)
        ON CONFLICT (instance_key) DO UPDATE SET started = excluded.started, id = excluded.id, data = excluded.data
          WHERE excluded.started > l.started OR (excluded.started = l.started AND excluded.id > l.id))
      SELECT count(*)::integer AS n FROM run`,
    notify: `SELECT pg_notify($1, $2)`,
  };
}

export type ClusterStatements = ReturnType<typeof clusterStatements>;

export interface MemberColumns {
  readonly id: string;
  readonly started_at: number;
  readonly heartbeat_at: number;
  readonly lease_until: number;
  readonly offset_ms: number;
}

export interface LeaseColumns {
  readonly partition: number;
  readonly owner: string | null;
  readonly epoch: number;
  readonly until: number;
}
