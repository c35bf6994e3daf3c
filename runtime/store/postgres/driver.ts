// The pg driver, loaded when the first PostgreSQL pool is made: a host on SQLite (the embedded default)
// never loads it, nor pays its start-up time and heap.
import { createRequire } from "node:module";
import type pg from "pg";

interface Driver {
  readonly pg: typeof pg;
  /** Every pool's type parsers: bigint columns (positions, epoch ms) as numbers, as they stay below 2^53. */
  readonly types: pg.CustomTypesConfig;
}

let loaded: Driver | undefined;

export function pgDriver(): Driver {
  if (loaded === undefined) {
    const driver = createRequire(import.meta.url)("pg") as typeof pg;
    const types = new driver.TypeOverrides();
    types.setTypeParser(driver.types.builtins.INT8, (value: string) => Number(value));
    loaded = { pg: driver, types };
  }
  return loaded;
}
