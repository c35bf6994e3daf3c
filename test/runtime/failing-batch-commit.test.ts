// A commit that fails for a reason other than a refusal (version conflict, duplicate request) must not take
// down the commits it was batched with: SQLite's group commit, and the timer service's set-based batch
// (`TimerStore.commitBatch`), fall back to committing their members one by one, so the innocent ones land and
// the failing one fails alone (for a timer: retried, then parked).
import { afterEach, describe, expect, it } from "vitest";
import { Host, SqliteStore, commandMessage, type BatchEntry, type DueBatch, type Store } from "../../runtime/index.js";
import type { Commit } from "../../runtime/index.js";
import { storeOnClock, VirtualClock } from "../../runtime/testing/index.js";
import { stores, tempDbPath } from "./fixtures/stores.js";
import { overriding, ref, START, thing } from "./fixtures/timer-thing.js";


function commit(id: string, sequences: number[]): Commit {
  const aggregate = ref(id);
  const events = sequences.map((sequence) => ({ eventId: `${id}-${sequence}`, type: "f.Fired", body: {}, aggregate, version: 1, sequence, commandId: `c-${id}`, requestId: `c-${id}`, createdAt: START }));
  return { aggregate, expectedVersion: 0, events, request: { requestId: `c-${id}`, version: 1, errorCode: "Ok" }, timers: [] };
}

describe("SQLite group commit", () => {
  it("a commit that breaks a constraint inside the shared transaction fails alone; the others of its group land", async () => {
    const journal = new SqliteStore(tempDbPath());
    try {
      // issued together: one group transaction. `bad` has two events at the same (version, sequence): UNIQUE fails.
      const results = await Promise.allSettled([journal.events.append(commit("good1", [1])), journal.events.append(commit("bad", [1, 1])), journal.events.append(commit("good2", [1, 2]))]);
      expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
      expect(String((results[1] as PromiseRejectedResult).reason)).toContain("UNIQUE");
      expect((await journal.events.load(ref("good1"))).version).toBe(1);
      expect((await journal.events.load(ref("good2"))).events).toHaveLength(2);
      expect(await journal.events.load(ref("bad"))).toMatchObject({ version: 0, events: [] });
      expect(await journal.events.findRequest(ref("bad"), "c-bad")).toBeUndefined();
    } finally {
      await journal.close();
    }
  });
});

/** `inner`, but the store fails (not a refusal) any batch holding a delivery's commit to aggregate `bad`, and any append of one. */
function failingFor(inner: Store, bad: string): Store {
  const error = () => new Error(`store failure writing ${bad}`);
  const poison = (c: Commit | undefined) => c?.aggregate.id === bad && c.events.some((e) => e.type === "f.Fired");
  return overriding(
    inner,
    {
      commitBatch: async (batch: DueBatch, entries: readonly BatchEntry[]) => {
        if (entries.some((e) => poison(e.commit))) throw error();
        return inner.timers.commitBatch(batch, entries);
      },
    },
    { append: async (c: Commit) => (poison(c) ? Promise.reject(error()) : inner.events.append(c)) },
  );
}

describe.each(stores)("timer batch commit failing as a whole: $name", (store) => {
  let journal: Store;
  let host: Host;
  afterEach(async () => {
    await host.stop();
    await journal.close();
  });

  it("its deliveries go one by one: the failing one is retried and parked, the others are decided", async () => {
    journal = failingFor(store.open(), "bad");
    const clock = new VirtualClock(START);
    const errors: unknown[] = [];
    host = new Host({ store: storeOnClock(journal, clock), aggregates: [thing], clock, timers: { pollInterval: 1000, maxAttempts: 3, backoff: { initial: 1000, factor: 2 } }, onError: (e) => errors.push(e) });
    host.start();
    for (const id of ["good1", "bad", "good2"]) await host.send(commandMessage("f.Set", { at: START + 1000 }, ref(id)));
    await clock.advanceTime("1m");
    expect(errors).toEqual([]);
    const fired = async (id: string) => (await journal.events.load(ref(id))).events.filter((e) => e.type === "f.Fired").length;
    expect([await fired("good1"), await fired("bad"), await fired("good2")]).toEqual([1, 0, 1]);
    const parked = await journal.timers.list({ status: "parked" });
    expect(parked.map((t) => [t.owner.id, t.attempts])).toEqual([["bad", 3]]);
    expect(parked[0]!.lastError).toContain("store failure writing bad");
    expect(await journal.timers.list({ status: "pending" })).toEqual([]);
  });
});
