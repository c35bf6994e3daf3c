// The cluster's membership and partition leases in the PostgreSQL store's schema. It has a small pool
// of its own, so that heartbeats never queue behind a busy store's batches (a heartbeat late by a
// lease would lose every partition), and one connection that LISTENs for the other hosts' wake-ups
// (`NOTIFY` on channel `wow_<schema>`), reconnected with backoff when lost; while it is down the
// hosts poll as they always do.
import type pg from "pg";
import { pgDriver } from "./driver.js";
import {
  PartitionCountError,
  type ClusterStore,
  type ClusterView,
  type Fence,
  type HeldLease,
  type Heartbeat,
  type MemberRow,
  type PartitionLease,
  type WakeTopic,
} from "../cluster-store.js";
import { instanceKeyOf, type JobRun } from "../run-store.js";
import { clusterStatements, clusterTables, type ClusterStatements, type LeaseColumns, type MemberColumns } from "./cluster-statements.js";

const TOPICS: readonly WakeTopic[] = ["cluster", "timers", "events"];
const LISTEN_RETRY_MS = [250, 500, 1_000, 2_000, 5_000];

export interface PgClusterOptions {
  /** The server's URL, with its user (as the store connects). */
  readonly connectionString: string;
  readonly schema: string;
  /** The longest a statement may run (ms). */
  readonly statementTimeout?: number;
  /** Told when the LISTEN connection is lost or back (for the host's log and health). */
  readonly onListen?: (state: "listening" | "lost", error?: unknown) => void;
}

export class PgClusterStore implements ClusterStore {
  private readonly pool: pg.Pool;
  private readonly sql: ClusterStatements;
  private readonly q: string;
  private readonly channel: string;
  private ready: Promise<void> | undefined;
  private partitionsChecked = 0;
  private readonly wakers = new Set<(topic: WakeTopic) => void>();
  private listener: pg.Client | undefined;
  private listening: Promise<void> | undefined;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;

  constructor(private readonly options: PgClusterOptions) {
    this.q = `"${options.schema}"`;
    this.sql = clusterStatements(this.q);
    this.channel = `wow_${options.schema}`.slice(0, 63);
    const { pg: driver, types } = pgDriver();
    this.pool = new driver.Pool({
      connectionString: options.connectionString,
      max: 2,
      application_name: "wowc cluster",
      types,
      connectionTimeoutMillis: 5_000,
      ...(options.statementTimeout === undefined ? {} : { statement_timeout: options.statementTimeout }),
    });
    this.pool.on("error", () => undefined);
  }

  /** Creates the cluster's tables if missing, once (under the cluster's advisory lock). */
  private open(): Promise<void> {
    this.ready ??= (async () => {
      const client = await this.connect();
      try {
        await client.query("BEGIN");
        await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`wow.cluster:${this.options.schema}`]);
        await client.query(`CREATE SCHEMA IF NOT EXISTS ${this.q}`);
        await client.query(clusterTables(this.q));
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    })();
    this.ready.catch(() => (this.ready = undefined));
    return this.ready;
  }

  private async query<R extends pg.QueryResultRow>(text: string, values: readonly unknown[] = []): Promise<pg.QueryResult<R>> {
    await this.open();
    return this.pool.query<R>(text, values as unknown[]);
  }

  private async transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    await this.open();
    const client = await this.connect();
    let broken = false;
    try {
      await client.query("BEGIN");
      const result = await work(client);
      await client.query("COMMIT");
      return result;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => (broken = true));
      throw error;
    } finally {
      client.release(broken);
    }
  }

  /** A pool client that survives the server dropping it while checked out (the failing query reports it). */
  private async connect(): Promise<pg.PoolClient> {
    const client = await this.pool.connect();
    if (client.listenerCount("error") === 0) client.on("error", () => undefined);
    return client;
  }

  async time(): Promise<number> {
    return (await this.query<{ now: number }>(this.sql.time)).rows[0]!.now;
  }

  async heartbeat(beat: Heartbeat, partitions: number): Promise<ClusterView> {
    return this.transaction(async (c) => {
      if (this.partitionsChecked !== partitions) {
        await c.query(this.sql.ensurePartitions, [partitions]);
        // Counted by a statement of its own: it sees the rows a concurrent first host committed meanwhile.
        const { rows } = await c.query<{ n: number }>(this.sql.countPartitions);
        if (rows[0]!.n !== partitions) throw new PartitionCountError(rows[0]!.n, partitions);
        this.partitionsChecked = partitions;
      }
      const now = (await c.query<{ now: number }>(this.sql.beat, [beat.member, beat.startedAt, beat.leaseMs, Math.round(beat.offsetMs)])).rows[0]!.now;
      if (beat.held.length > 0) await c.query(this.sql.renew, [beat.member, beat.held.map((h) => h.partition), beat.held.map((h) => h.epoch), now, beat.leaseMs]);
      return this.read(c, now);
    });
  }

  async acquire(member: string, partitions: readonly number[], leaseMs: number): Promise<PartitionLease[]> {
    if (partitions.length === 0) return [];
    return (await this.query<LeaseColumns>(this.sql.acquire, [member, partitions, leaseMs])).rows.map(toLease);
  }

  async release(member: string, leases: readonly HeldLease[]): Promise<void> {
    if (leases.length > 0) await this.query(this.sql.release, [member, leases.map((l) => l.partition), leases.map((l) => l.epoch)]);
  }

  async leave(member: string): Promise<void> {
    await this.transaction(async (c) => {
      await c.query(this.sql.releaseAll, [member]);
      await c.query(this.sql.removeMember, [member]);
    });
  }

  async view(partitions: number): Promise<ClusterView> {
    return this.transaction(async (c) => {
      const { rows } = await c.query<{ n: number }>(this.sql.countPartitions);
      if (rows[0]!.n !== 0 && rows[0]!.n !== partitions) throw new PartitionCountError(rows[0]!.n, partitions);
      const now = (await c.query<{ now: number }>(this.sql.time)).rows[0]!.now;
      const view = await this.read(c, now);
      // Not set up yet (no host ever joined): every partition free.
      return view.leases.length > 0 ? view : { ...view, leases: Array.from({ length: partitions }, (_, partition) => ({ partition, owner: undefined, epoch: 0, until: 0 })) };
    });
  }

  async saveCheckpoint(subscription: string, position: number, fence: Fence): Promise<boolean> {
    const result = await this.query(this.sql.fencedCheckpoint, [subscription, position, fence.partition, fence.member, fence.epoch]);
    return (result.rowCount ?? 0) === 1;
  }

  async recordRun(run: JobRun, fence: Fence): Promise<boolean> {
    const result = await this.query<{ n: number }>(this.sql.fencedRun, [run.id, instanceKeyOf(run), run.due, run.started, run.outcome, run.kind, JSON.stringify(run), fence.partition, fence.member, fence.epoch]);
    return result.rows[0]?.n === 1;
  }

  onWake(wake: (topic: WakeTopic) => void): () => void {
    this.wakers.add(wake);
    if (this.listening === undefined) this.listening = this.listen();
    return () => this.wakers.delete(wake);
  }

  async announce(topic: WakeTopic): Promise<void> {
    await this.query(this.sql.notify, [this.channel, topic]);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    const listener = this.listener;
    this.listener = undefined;
    await listener?.end().catch(() => undefined);
    await this.pool.end();
  }

  private async read(c: pg.PoolClient, now: number): Promise<ClusterView> {
    const members = (await c.query<MemberColumns>(this.sql.members, [now])).rows.map(toMember);
    const leases = (await c.query<LeaseColumns>(this.sql.leases)).rows.map(toLease);
    return { now, members, leases };
  }

  /** Connects the LISTEN connection; when it drops, again with backoff, waking everyone once back (a notice may have been missed). */
  private async listen(attempt = 0): Promise<void> {
    if (this.closed) return;
    const { pg: driver } = pgDriver();
    const client = new driver.Client({ connectionString: this.options.connectionString, application_name: "wowc cluster listen", connectionTimeoutMillis: 5_000 });
    let lost = false;
    const again = (error: unknown) => {
      if (lost) return;
      lost = true;
      if (this.listener === client) this.listener = undefined;
      client.removeAllListeners();
      client.on("error", () => undefined);
      void client.end().catch(() => undefined);
      if (this.closed) return;
      this.options.onListen?.("lost", error);
      const delay = LISTEN_RETRY_MS[Math.min(attempt, LISTEN_RETRY_MS.length - 1)]!;
      this.retry = setTimeout(() => void this.listen(attempt + 1), delay);
      this.retry.unref();
    };
    client.on("error", again);
    client.on("end", () => again(new Error("the LISTEN connection ended")));
    client.on("notification", (message) => {
      const topic = message.payload as WakeTopic | undefined;
      if (topic !== undefined && TOPICS.includes(topic)) for (const wake of this.wakers) wake(topic);
    });
    try {
      await client.connect();
      await client.query(`LISTEN "${this.channel}"`);
      this.listener = client;
      attempt = 0;
      this.options.onListen?.("listening");
      // Back after a loss: whatever was announced meanwhile is looked for now.
      for (const topic of TOPICS) for (const wake of this.wakers) wake(topic);
    } catch (error) {
      again(error);
    }
  }
}

function toMember(row: MemberColumns): MemberRow {
  return { id: row.id, startedAt: row.started_at, heartbeatAt: row.heartbeat_at, leaseUntil: row.lease_until, offsetMs: row.offset_ms };
}

function toLease(row: LeaseColumns): PartitionLease {
  return { partition: row.partition, owner: row.owner ?? undefined, epoch: row.epoch, until: row.until };
}
