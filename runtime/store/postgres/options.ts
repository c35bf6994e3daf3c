// The PostgreSQL store's options, checked before anything connects, and how its server is named in
// messages: `host:port/database`, never the password.
import { userInfo } from "node:os";
import { parseDuration, type DurationInput } from "../../model/duration.js";
import { StoreError } from "../errors.js";

export interface PostgresStoreOptions {
  /** `postgres://user:password@host:port/database` (also `postgresql://`). */
  readonly url: string;
  /** The schema holding the store's tables, created if missing (default `wow`). */
  readonly schema?: string;
  /** Connections in the pool (default 10). */
  readonly pool?: number;
  /** The longest a statement may run before the server cancels it (default 30 s). */
  readonly statementTimeout?: DurationInput;
}

/** The options as the connection uses them. */
export interface CheckedOptions {
  readonly url: string;
  readonly schema: string;
  readonly pool: number;
  readonly statementTimeout: number;
  /** `host:port/database`, for messages. */
  readonly target: string;
}

export const DEFAULT_SCHEMA = "wow";
export const DEFAULT_POOL = 10;
export const DEFAULT_STATEMENT_TIMEOUT = 30_000;

/** An unquoted PostgreSQL identifier: what `schema` may be (it is quoted in every statement all the same). */
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/** Whether `store` (a `createHost` store string) names a PostgreSQL server rather than a SQLite file. */
export function isPostgresUrl(store: string): boolean {
  return /^postgres(ql)?:\/\//i.test(store);
}

/** `host:port/database` of a URL, or of what it would be; never the user or password. */
export function targetOf(url: string): string {
  try {
    const parsed = new URL(url);
    const host = decodeURIComponent(parsed.hostname || parsed.searchParams.get("host") || "localhost");
    const database = decodeURIComponent(parsed.pathname.replace(/^\//, "")) || decodeURIComponent(parsed.username) || "(default database)";
    return `${host}:${parsed.port || "5432"}/${database}`;
  } catch {
    return "(an unreadable URL)";
  }
}

/** Checks the options, naming what is wrong; a bad URL is a StoreError (WOW_STORE_BAD_URL). */
export function checkOptions(options: PostgresStoreOptions): CheckedOptions {
  const url = options.url;
  const target = targetOf(url);
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {}
  if (parsed === undefined || !isPostgresUrl(url)) {
    throw new StoreError("WOW_STORE_BAD_URL", target, `the store URL is not a PostgreSQL URL: expected postgres://user@host:port/database, got ${redacted(url)}`);
  }
  const schema = options.schema ?? DEFAULT_SCHEMA;
  if (!IDENTIFIER.test(schema)) throw new RangeError(`PostgresStore: schema must be a PostgreSQL identifier (letters, digits, _; at most 63), got ${JSON.stringify(schema)}`);
  const pool = options.pool ?? DEFAULT_POOL;
  if (!Number.isInteger(pool) || pool < 1) throw new RangeError(`PostgresStore: pool must be an integer ≥ 1 (connections), got ${String(pool)}`);
  const statementTimeout = options.statementTimeout === undefined ? DEFAULT_STATEMENT_TIMEOUT : parseDuration(options.statementTimeout);
  if (!(statementTimeout >= 1)) throw new RangeError(`PostgresStore: statementTimeout must be at least 1 ms, got ${String(options.statementTimeout)}`);
  return { url, schema, pool, statementTimeout, target };
}

/** A URL as it may be shown: its password replaced. */
export function redacted(url: string): string {
  return url.replace(/^([a-z]+:\/\/[^:/@]*:)[^@/]*@/i, "$1***@");
}

/**
 * The URL to connect with: one without a user connects as PGUSER, else the operating system's user, as
 * libpq (psql) does (node-postgres would send none when USER is unset).
 */
export function withDefaultUser(url: string): string {
  const parsed = new URL(url);
  if (parsed.username !== "") return url;
  parsed.username = encodeURIComponent(process.env["PGUSER"] ?? process.env["USER"] ?? userInfo().username);
  return parsed.toString();
}
