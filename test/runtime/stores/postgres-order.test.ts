// The global order on PostgreSQL under concurrent writers: 8 stores (8 connections, as 8 hosts would
// be) commit at once to shared streams, each transaction held open for a random while (a trigger
// sleeps inside it, before and after its events are written), while a subscription reads by position.
// It must handle every event exactly once, in an order consistent with each stream's versions.
import { afterAll, describe, expect, it } from "vitest";
import pg from "pg";
import { PostgresStore, VersionConflictError, aggregateRef, type EventMessage } from "../../../runtime/index.js";
import { withDefaultUser } from "../../../runtime/store/postgres/options.js";
import { postgresUrl, testSchema } from "../../support/postgres.js";
import { commit } from "./contract-helpers.js";

const PG_URL = postgresUrl();
const WRITERS = 8;
const COMMITS_PER_WRITER = 40;
const STREAMS = 12;

describe.skipIf(PG_URL === undefined)("global order on PostgreSQL under concurrent writers", () => {
  const stores: PostgresStore[] = [];
  afterAll(async () => {
    for (const store of stores) await store.close();
  });

  it("a subscription reading meanwhile handles every event exactly once, each stream in version order", async () => {
    const url = PG_URL!;
    const schema = testSchema(url);
    const open = () => {
      const store = new PostgresStore({ url, schema, pool: 1 });
      stores.push(store);
      return store;
    };
    const reader = open();
    await reader.open();
    // Random waits inside every writing transaction: before its positions are taken (its requests are
    // written first) and after its events are written, until its COMMIT.
    const admin = new pg.Client({ connectionString: withDefaultUser(url) });
    await admin.connect();
    await admin.query(`
      CREATE FUNCTION "${schema}".wow_test_dawdle() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(random() * 0.015); RETURN NULL; END $$;
      CREATE TRIGGER dawdle_before AFTER INSERT ON "${schema}".wow_requests FOR EACH STATEMENT EXECUTE FUNCTION "${schema}".wow_test_dawdle();
      CREATE TRIGGER dawdle_after AFTER INSERT ON "${schema}".wow_events FOR EACH STATEMENT EXECUTE FUNCTION "${schema}".wow_test_dawdle();
    `);
    await admin.end();

    const handled: EventMessage[] = [];
    let writing = true;
    const subscription = (async () => {
      let checkpoint = 0;
      for (;;) {
        const done = !writing;
        const page = await reader.events.read(checkpoint, 50);
        for (const event of page) handled.push(event);
        if (page.length > 0) checkpoint = page[page.length - 1]!.position!;
        else if (done) return;
        else await new Promise((resolve) => setTimeout(resolve, 2));
      }
    })();

    /** Each writer appends to random streams, reloading the version after a conflict (a conflict commits nothing). */
    const writers = Array.from({ length: WRITERS }, async (_, w) => {
      const store = open();
      let committed = 0;
      for (let n = 0; n < COMMITS_PER_WRITER; n++) {
        const ref = aggregateRef("gap", "stream", `s-${Math.floor(Math.random() * STREAMS)}`);
        for (;;) {
          const { version } = await store.events.load(ref);
          try {
            await store.events.append(commit(ref, version, `w${w}-${n}`, 1 + Math.floor(Math.random() * 3)));
            committed++;
            break;
          } catch (error) {
            if (!(error instanceof VersionConflictError)) throw error;
          }
        }
      }
      return committed;
    });
    expect(await Promise.all(writers)).toEqual(Array(WRITERS).fill(COMMITS_PER_WRITER));
    writing = false;
    await subscription;

    const all = await reader.events.read(0, 1_000_000);
    expect(handled.length).toBe(all.length);
    // exactly once, in position order, no position skipped
    expect(handled.map((e) => e.position)).toEqual(all.map((_, i) => i + 1));
    expect(new Set(handled.map((e) => e.eventId)).size).toBe(handled.length);
    // each stream's events in version (then sequence) order, versions without a gap
    const byStream = new Map<string, EventMessage[]>();
    for (const event of handled) byStream.set(event.aggregate.id, [...(byStream.get(event.aggregate.id) ?? []), event]);
    for (const events of byStream.values()) {
      const keys = events.map((e) => [e.version, e.sequence]);
      expect(keys).toEqual([...keys].sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!));
      expect([...new Set(events.map((e) => e.version))]).toEqual(Array.from({ length: events.at(-1)!.version }, (_, i) => i + 1));
    }
    expect(byStream.size).toBeGreaterThan(1);
  });
});
