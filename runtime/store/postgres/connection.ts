// The PostgreSQL store's pool: connected and migrated once (every operation waits for it), statements
// run by name, transactions, the one lane write transactions take in turn, and the server's errors
// as StoreErrors that name host, port and database (never the password).
import type pg from "pg";
import { pgDriver } from "./driver.js";
import { RefKeys } from "../ref-keys.js";
import { StoreError } from "../errors.js";
import { checkOptions, withDefaultUser, type CheckedOptions, type PostgresStoreOptions } from "./options.js";
import { migrate, NewerSchemaError, quoted } from "./schema.js";
import { statements, type Statement, type Statements } from "./statements.js";

/** SQLSTATEs of a transaction that lost to a concurrent one: it goes again. */
const RETRYABLE = new Set(["40001", "40P01"]);
const TRANSACTION_ATTEMPTS = 5;

export class PgConnection extends RefKeys {
  readonly options: CheckedOptions;
  readonly pool: pg.Pool;
  readonly sql: Statements;
  /** The quoted schema, for statements built per query. */
  readonly schema: string;
  private opened: Promise<number> | undefined;
  private closed = false;
  /** The end of the last write transaction queued: they run one at a time (see `write`). */
  private lane: Promise<unknown> = Promise.resolve();

  constructor(options: PostgresStoreOptions) {
    super();
    this.options = checkOptions(options);
    this.schema = quoted(this.options.schema);
    this.sql = statements(this.schema);
    const { pg: driver, types } = pgDriver();
    this.pool = new driver.Pool({
      connectionString: withDefaultUser(this.options.url),
      max: this.options.pool,
      statement_timeout: this.options.statementTimeout,
      application_name: "wowc",
      types,
      connectionTimeoutMillis: 10_000,
    });
    // An idle connection the server dropped: the pool discards it and the next use connects again.
    this.pool.on("error", () => undefined);
  }

  /** `host:port/database`. */
  get target(): string {
    return this.options.target;
  }

  /** Connects and creates or upgrades the schema, once; resolves with the schema version. */
  open(): Promise<number> {
    this.opened ??= (async () => {
      const client = await this.connect();
      try {
        return await migrate(client, this.options.schema);
      } catch (error) {
        throw this.failure(error);
      } finally {
        client.release();
      }
    })();
    // A failed start is tried again by the next operation (the server may be up by then).
    this.opened.catch(() => (this.opened = undefined));
    return this.opened;
  }

  /** Runs a named statement on the pool. */
  async query<R extends pg.QueryResultRow>(statement: Statement, values: readonly unknown[] = []): Promise<R[]> {
    await this.open();
    try {
      return (await this.pool.query<R>({ name: statement.name, text: statement.text, values: values as unknown[] })).rows;
    } catch (error) {
      throw this.failure(error);
    }
  }

  /** Runs `work` in one transaction on one connection (rolled back if it throws); a serialization failure or deadlock goes again. */
  async transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    await this.open();
    for (let attempt = 1; ; attempt++) {
      const client = await this.connect();
      let broken = false;
      try {
        await client.query("BEGIN");
        const result = await work(new Transaction(client));
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => (broken = true));
        const code = (error as { code?: unknown }).code;
        if (attempt < TRANSACTION_ATTEMPTS && typeof code === "string" && RETRYABLE.has(code)) continue;
        throw this.failure(error);
      } finally {
        client.release(broken);
      }
    }
  }

  /**
   * A write transaction, after the ones queued before it: this host's writes never wait on each other's
   * locks inside the server (nor deadlock), and commits that queue up meanwhile go together next.
   */
  write<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    const next = this.lane.then(() => this.transaction(work));
    this.lane = next.catch(() => undefined);
    return next;
  }



  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }

  private async connect(): Promise<pg.PoolClient> {
    try {
      const client = await this.pool.connect();
      // A checked-out client has no listener for the server dropping it between two queries of a
      // transaction (a restart): without one, its 'error' event would end the process. The failed
      // query reports it; the pool discards the client.
      if (client.listenerCount("error") === 0) client.on("error", () => undefined);
      return client;
    } catch (error) {
      throw this.failure(error);
    }
  }

  /** The server's (or the network's) error as a StoreError when it is about reaching the store; else as it is. */
  failure(error: unknown): unknown {
    if (error instanceof StoreError) return error;
    const where = this.target;
    if (error instanceof NewerSchemaError) return new StoreError("WOW_STORE_SCHEMA_NEWER", where, `${error.message} (${where})`, error);
    const e = error as { code?: unknown; message?: unknown };
    const code = typeof e.code === "string" ? e.code : "";
    const detail = typeof e.message === "string" ? e.message : String(error);
    if (code === "3D000") return new StoreError("WOW_STORE_NO_DATABASE", where, `the database of ${where} does not exist: create it (createdb) or fix the store URL`, error);
    if (code === "28P01" || code === "28000") return new StoreError("WOW_STORE_LOGIN_REFUSED", where, `${where} refused the login (${detail}): check the user and password of the store URL`, error);
    if (["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ETIMEDOUT"].includes(code) || /timeout exceeded when trying to connect/i.test(detail)) {
      return new StoreError("WOW_STORE_UNREACHABLE", where, `no PostgreSQL server answers at ${where} (${code || detail}): start it, or fix the store URL`, error);
    }
    if (code === "ECONNRESET" || code === "57P01" || code === "57P02" || code === "57P03" || /Connection terminated/i.test(detail)) {
      return new StoreError("WOW_STORE_LOST", where, `the connection to ${where} was lost (${code || detail}); it is tried again`, error);
    }
    return error;
  }
}

/** A transaction's connection: named statements only. */
export class Transaction {
  constructor(private readonly client: pg.PoolClient) {}

  async query<R extends pg.QueryResultRow>(statement: Statement, values: readonly unknown[] = []): Promise<R[]> {
    return (await this.client.query<R>({ name: statement.name, text: statement.text, values: values as unknown[] })).rows;
  }

  /** Rows changed. */
  async run(statement: Statement, values: readonly unknown[] = []): Promise<number> {
    return (await this.client.query({ name: statement.name, text: statement.text, values: values as unknown[] })).rowCount ?? 0;
  }
}
