// The run log's contract, for every store: runs newest first with filters and cursors, the latest
// run per instance, whether a slot ran, timer attempts, and pruning.
import { describe, expect, it } from "vitest";
import type { JobRun, RunStore, TimerAttempt } from "../../../runtime/index.js";
import { stores } from "../fixtures/stores.js";

const factories = stores.map((f) => ({
  name: f.name,
  open() {
    const opened = f.open();
    return { store: opened.runs, reopen: async (): Promise<RunStore> => (await f.reopen(opened)).runs };
  },
}));

const key = { context: "shop", instance: "nightly", tenantId: "(platform)" };

function run(n: number, patch: Partial<JobRun> = {}): JobRun {
  return {
    id: `r-${String(n).padStart(4, "0")}`,
    ...key,
    job: "nightly",
    slot: n,
    due: n * 1000,
    started: n * 1000 + 5,
    finished: n * 1000 + 9,
    kind: "scheduled",
    outcome: "succeeded",
    attempt: 1,
    commands: [`req-${n}`],
    host: "h1",
    ...patch,
  };
}

function attempt(n: number, patch: Partial<TimerAttempt> = {}): TimerAttempt {
  return { id: `a-${String(n).padStart(4, "0")}`, timer: "t-1", slot: 0, due: 1000, at: 1000 + n, outcome: "retrying", attempt: n, host: "h1", tenantId: "acme", ...patch };
}

describe.each(factories)("run store contract: $name", (factory) => {
  it("lists an instance's runs newest first, durably, page by page with a cursor", async () => {
    const { store, reopen } = factory.open();
    for (let n = 1; n <= 5; n++) await store.record(run(n));
    await store.record(run(9, { ...key, instance: "other" }));
    const again = await reopen();
    const first = await again.runs({ ...key, limit: 2 });
    expect(first.items.map((r) => r.slot)).toEqual([5, 4]);
    expect(first.next).toBeDefined();
    const second = await again.runs({ ...key, limit: 2, cursor: first.next! });
    expect(second.items.map((r) => r.slot)).toEqual([3, 2]);
    const third = await again.runs({ ...key, limit: 2, cursor: second.next! });
    expect(third.items.map((r) => r.slot)).toEqual([1]);
    expect(third.next).toBeUndefined();
    expect(third.items[0]).toEqual(run(1));
  });

  it("filters by outcome or kind and by the slot's due time in [from, to)", async () => {
    const { store } = factory.open();
    await store.record(run(1));
    await store.record(run(2, { outcome: "retrying", error: "boom" }));
    await store.record(run(3, { outcome: "parked", error: "boom", attempt: 3 }));
    await store.record(run(4, { kind: "backfill" }));
    await store.record(run(5, { kind: "manual", outcome: "failed", error: "rejected: NotFound" }));
    const slots = async (q: Partial<Parameters<RunStore["runs"]>[0]>) => (await store.runs({ ...key, limit: 10, ...q })).items.map((r) => r.slot);
    expect(await slots({ outcome: "parked" })).toEqual([3]);
    expect(await slots({ outcome: "succeeded" })).toEqual([4, 1]);
    expect(await slots({ outcome: "backfill" })).toEqual([4]);
    expect(await slots({ outcome: "manual" })).toEqual([5]);
    expect(await slots({ from: 2000, to: 4000 })).toEqual([3, 2]);
    expect(await slots({ from: 4000 })).toEqual([5, 4]);
  });

  it("counts the runs that failed since an instant, of every tenant or one", async () => {
    const { store } = factory.open();
    const acme = { tenantId: "acme", instance: "report" };
    for (const r of [run(1, { outcome: "failed" }), run(2, { outcome: "retrying" }), run(3, { outcome: "parked", ...acme }), run(4), run(5, { outcome: "skipped" }), run(6, { outcome: "failed", ...acme })]) await store.record(r);
    expect(await store.failedSince(0)).toBe(4);
    expect(await store.failedSince(2005)).toBe(3); // started at n * 1000 + 5
    expect(await store.failedSince(0, "acme")).toBe(2);
    expect(await store.failedSince(0, "globex")).toBe(0);
  });

  it("refuses a cursor it did not make", async () => {
    const { store } = factory.open();
    await expect(store.runs({ ...key, limit: 2, cursor: "not-a-cursor" })).rejects.toThrow(RangeError);
    await expect(store.attempts("t-1", { limit: 2, cursor: "bm9wZQ" })).rejects.toThrow(RangeError);
  });

  it("keeps each instance's latest run, for the instances asked about", async () => {
    const { store } = factory.open();
    await store.record(run(2));
    await store.record(run(1));
    await store.record(run(3, { instance: "other" }));
    const last = await store.lastRuns([key, { ...key, instance: "never" }]);
    expect([...last.values()].map((r) => [r.instance, r.slot])).toEqual([["nightly", 2]]);
  });

  it("knows whether a slot ran: a succeeded or failed run counts, a retrying, parked or skipped one does not", async () => {
    const { store } = factory.open();
    await store.record(run(1, { outcome: "retrying" }));
    await store.record(run(2, { outcome: "skipped" }));
    await store.record(run(3, { outcome: "parked" }));
    await store.record(run(4, { outcome: "failed" }));
    await store.record(run(5));
    expect(await Promise.all([1, 2, 3, 4, 5].map((n) => store.ran(key, n * 1000)))).toEqual([false, false, false, true, true]);
    expect(await store.ran({ ...key, tenantId: "acme" }, 5000)).toBe(false);
  });

  it("lists a timer's delivery attempts newest first, page by page", async () => {
    const { store, reopen } = factory.open();
    await store.recordAttempts([attempt(1), attempt(2), attempt(3, { outcome: "decided" })]);
    await store.recordAttempts([attempt(4, { timer: "t-2" })]);
    await store.recordAttempts([]);
    const again = await reopen();
    const first = await again.attempts("t-1", { limit: 2 });
    expect(first.items.map((a) => [a.attempt, a.outcome])).toEqual([[3, "decided"], [2, "retrying"]]);
    const rest = await again.attempts("t-1", { limit: 2, cursor: first.next! });
    expect(rest.items.map((a) => a.attempt)).toEqual([1]);
    expect(rest.next).toBeUndefined();
  });

  it("prunes runs and attempts older than a time and runs beyond the newest N per instance, keeping the latest run known", async () => {
    const { store } = factory.open();
    for (let n = 1; n <= 6; n++) await store.record(run(n));
    await store.record(run(7, { instance: "other" }));
    await store.recordAttempts([attempt(1), attempt(2000)]);
    const removed = await store.prune(2500, 3);
    expect(removed).toBe(2 + 1 + 1);
    expect((await store.runs({ ...key, limit: 10 })).items.map((r) => r.slot)).toEqual([6, 5, 4]);
    expect((await store.runs({ ...key, instance: "other", limit: 10 })).items.map((r) => r.slot)).toEqual([7]);
    expect((await store.attempts("t-1", { limit: 10 })).items.map((a) => a.attempt)).toEqual([2000]);
    expect((await store.lastRuns([key])).get(JSON.stringify([key.context, key.tenantId, key.instance]))?.slot).toBe(6);
  });
});
