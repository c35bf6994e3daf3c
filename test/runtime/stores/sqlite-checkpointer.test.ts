// The SQLite store checkpoints its WAL on a thread of its own once the WAL has grown, so that a commit
// does not wait for one; a small store never starts the thread, and closing the store ends it. (A real
// thread is the point here: these tests wait on the wall clock for it, with a deadline.)
import { statSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SqliteStore, aggregateRef, type SqliteStoreOptions } from "../../../runtime/index.js";
import { tempDbPath } from "../fixtures/stores.js";

const A = aggregateRef("ctx", "agg", "a-1");
const BODY = { text: "x".repeat(3000) };

/** `count` commits of one 3 KB event each, from version `from` + 1 on. */
async function fill(store: SqliteStore, count: number, from = 0): Promise<void> {
  for (let v = from + 1; v <= from + count; v++) {
    const event = { eventId: `e${v}`, type: "ctx.E", body: BODY, aggregate: A, version: v, sequence: 1, commandId: `c${v}`, requestId: `c${v}`, createdAt: v };
    await store.events.append({ aggregate: A, expectedVersion: v - 1, events: [event], request: { requestId: `c${v}`, version: v, errorCode: "Ok" }, timers: [] });
  }
}

/** Uses the store (each use may wake the thread) until `done` holds, for at most `ms` of real time. */
async function until(store: SqliteStore, done: () => boolean, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done() && Date.now() < deadline) {
    await store.timers.nextDueAt();
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** No automatic checkpoint on the committing connection: what reaches the file was copied by the thread. */
const OPTIONS: SqliteStoreOptions = { walAutocheckpoint: 0, checkpointInterval: 10 };

describe("SQLite background checkpoints", () => {
  it("copy a grown WAL into the database file on their own thread, the committing connection checkpointing nothing", async () => {
    const path = tempDbPath();
    const store = new SqliteStore(path, OPTIONS);
    const before = statSync(path).size;
    await fill(store, 2000); // about 6 MB of WAL
    expect(statSync(`${path}-wal`).size).toBeGreaterThan(4 * 1024 * 1024);
    await until(store, () => store.checkpoints.completed > 0 && statSync(path).size > 5_000_000);
    expect(store.checkpoints.running).toBe(true);
    expect(store.checkpoints.completed).toBeGreaterThan(0);
    expect(store.checkpoints.failure).toBeUndefined();
    expect(before).toBeLessThan(1_000_000);
    expect(statSync(path).size).toBeGreaterThan(5_000_000);
    await store.close();
    expect(store.checkpoints.running).toBe(false);
    const reopened = new SqliteStore(path);
    expect((await reopened.events.load(A)).version).toBe(2000);
    await reopened.close();
  });

  it("wake again for what is written after a checkpoint, and rest while nothing is", async () => {
    const store = new SqliteStore(tempDbPath(), OPTIONS);
    await fill(store, 2000);
    await until(store, () => store.checkpoints.completed > 0);
    // Resting: with nothing written, no more checkpoints than the ones in progress when the writes stopped.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const resting = store.checkpoints.completed;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(store.checkpoints.completed).toBeLessThanOrEqual(resting + 1);
    const settled = store.checkpoints.completed;
    await fill(store, 10, 2000);
    await until(store, () => store.checkpoints.completed > settled);
    expect(store.checkpoints.completed).toBeGreaterThan(settled);
    await store.close();
  });

  it("leave the automatic checkpoint the WAL's bound under writes that never stop (the thread never keeps it from running)", async () => {
    const path = tempDbPath();
    const store = new SqliteStore(path, { checkpointInterval: 10 }); // the automatic checkpoint at 10,000 pages
    await fill(store, 8000); // about 100 MB of WAL frames, one commit after another
    expect(store.checkpoints.completed).toBeGreaterThan(0);
    expect(statSync(`${path}-wal`).size).toBeLessThan(10_000 * 4096 * 1.2);
    await store.close();
  });

  it("are not started for a store whose WAL stays small, nor when checkpointInterval is 0", async () => {
    const small = new SqliteStore(tempDbPath(), OPTIONS);
    await fill(small, 40); // well under 4 MB of WAL
    await until(small, () => small.checkpoints.running, 200); // twenty intervals
    expect(small.checkpoints.running).toBe(false);
    await small.close();

    const path = tempDbPath();
    const off = new SqliteStore(path, { walAutocheckpoint: 0, checkpointInterval: 0 });
    await fill(off, 2000);
    await until(off, () => off.checkpoints.running, 200);
    expect(off.checkpoints).toEqual({ running: false, completed: 0 });
    expect(statSync(path).size).toBeLessThan(1_000_000); // nothing copied into the file
    await off.close();
  });

  it("refuses a checkpointInterval that is not a whole number of milliseconds", () => {
    expect(() => new SqliteStore(tempDbPath(), { checkpointInterval: -1 })).toThrow(/checkpointInterval must be an integer ≥ 0 \(milliseconds; 0 turns background checkpoints off\), got -1/);
    expect(() => new SqliteStore(tempDbPath(), { checkpointInterval: 2.5 })).toThrow(/checkpointInterval/);
  });
});
