// The store a host opens, by kind, in one place: a store given as it is; a `postgres://` URL (given, or
// `wow.store.url`) as a PostgreSQL store with `wow.store`'s schema, pool and statement timeout; else a
// SQLite file (given, or `wow.store.path`, default `wow.db`) with its durability settings.
import type { StoreConfig } from "../config/types.js";
import { isPostgresUrl } from "../store/postgres/options.js";
import { PostgresStore } from "../store/postgres/postgres-store.js";
import { SqliteStore } from "../store/sqlite/sqlite-store.js";
import type { Store } from "../store/store.js";

export interface OpenedStore {
  readonly store: Store;
  /** The host made it, so the host closes it. */
  readonly owned: boolean;
}

export function openStore(given: Store | string | undefined, config: StoreConfig | undefined): OpenedStore {
  if (given !== undefined && typeof given !== "string") return { store: given, owned: false };
  const where = given ?? config?.url ?? config?.path ?? "wow.db";
  if (isPostgresUrl(where)) {
    return {
      store: new PostgresStore({
        url: where,
        ...(config?.schema === undefined ? {} : { schema: config.schema }),
        ...(config?.pool === undefined ? {} : { pool: config.pool }),
        ...(config?.["statement-timeout"] === undefined ? {} : { statementTimeout: config["statement-timeout"] }),
      }),
      owned: true,
    };
  }
  return {
    store: new SqliteStore(where, {
      ...(config?.synchronous === undefined ? {} : { synchronous: config.synchronous }),
      ...(config?.["integrity-check"] === undefined ? {} : { integrityCheck: config["integrity-check"] }),
    }),
    owned: true,
  };
}
