// An operator's timer listing in SQLite is an index seek for every combination of filters, in list
// order (no sort of the matching rows, no scan of the table): a page stays fast with a million timers.
import { describe, expect, it } from "vitest";
import { SqliteStore, type TimerQuery } from "../../../runtime/index.js";
import { timerListStatement } from "../../../runtime/store/sqlite/timer-list.js";
import { tempDbPath } from "../fixtures/stores.js";

const FILTERS = { tenantId: "acme", aggregateId: "o-1", key: "expire", command: "shop.Expire" } as const;

/** Every subset of the filters, for pending and parked lists, with and without a cursor. */
function queries(): TimerQuery[] {
  const names = Object.keys(FILTERS) as (keyof typeof FILTERS)[];
  const out: TimerQuery[] = [];
  for (let mask = 0; mask < 1 << names.length; mask++) {
    const filters = Object.fromEntries(names.filter((_, i) => mask & (1 << i)).map((n) => [n, FILTERS[n]]));
    for (const after of [undefined, [1000, "t-1"] as const]) out.push({ status: "pending", ...filters, ...(after ? { after } : {}) });
  }
  for (const after of [undefined, [1000, "t-1"] as const]) for (const tenant of [{}, { tenantId: "acme" }]) out.push({ status: "parked", ...tenant, ...(after ? { after } : {}) });
  return out;
}

describe("SQLite timer listings", () => {
  it("use an index for every filter combination, in list order", () => {
    const store = new SqliteStore(tempDbPath());
    try {
      for (const query of queries()) {
        const { sql, params } = timerListStatement(query, 50);
        const plan = (store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((row) => row.detail).join("; ");
        expect(plan, JSON.stringify(query)).toMatch(/USING (COVERING )?INDEX wow_timers_/);
        expect(plan, JSON.stringify(query)).not.toMatch(/TEMP B-TREE|SCAN t$|SCAN t;/);
      }
    } finally {
      store.db.close();
    }
  });
});
