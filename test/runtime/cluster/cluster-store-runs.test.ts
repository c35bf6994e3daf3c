// The cluster store's fenced run record, on the in-memory cluster store and on PostgreSQL's: a run is
// written (to the runs and the instance's last run) only while its fence's lease is held at its epoch;
// a fence of another member, of an older epoch, or of a lease given up since writes nothing.
import { afterEach, describe, expect, it } from "vitest";
import { MemorySubscriptionStore, type PostgresStore, type Store } from "../../../runtime/index.js";
import type { ClusterStore } from "../../../runtime/store/cluster-store.js";
import { MemoryClusterStore } from "../../../runtime/store/memory/cluster.js";
import { MemoryRunStore } from "../../../runtime/store/memory/runs.js";
import type { JobRun, RunStore } from "../../../runtime/store/run-store.js";
import { VirtualClock } from "../../../runtime/testing/index.js";
import { postgresStores } from "../fixtures/stores.js";

interface Subject {
  readonly cluster: ClusterStore;
  readonly runs: RunStore;
  close(): Promise<void>;
}

const subjects: { name: string; open(): Subject }[] = [
  {
    name: "memory",
    open: () => {
      const runs = new MemoryRunStore();
      return { cluster: new MemoryClusterStore(new VirtualClock("2026-01-01T00:00:00Z"), new MemorySubscriptionStore(), runs), runs, close: async () => undefined };
    },
  },
  ...(postgresStores === undefined
    ? []
    : [
        {
          name: "postgres",
          open: (): Subject => {
            const store: Store = postgresStores!.open();
            return { cluster: (store as PostgresStore).cluster, runs: store.runs, close: () => store.close() };
          },
        },
      ]),
];

const run = (id: string, started: number, host: string): JobRun => ({
  id,
  context: "notes",
  job: "note",
  instance: "note#0",
  tenantId: "(0)",
  partition: 0,
  slot: 1,
  due: 1_000,
  started,
  finished: started + 5,
  kind: "scheduled",
  outcome: "succeeded",
  attempt: 1,
  commands: [],
  host,
});

const beat = (member: string) => ({ member, startedAt: 0, offsetMs: 0, leaseMs: 60_000, held: [] });
const KEY = { context: "notes", instance: "note#0", tenantId: "(0)" };

describe.each(subjects)("ClusterStore.recordRun ($name)", (subject) => {
  let s: Subject;
  afterEach(async () => {
    await s.close();
  });

  it("records a run under a held lease only; a stale, foreign or given-up fence writes nothing", async () => {
    s = subject.open();
    await s.cluster.heartbeat(beat("a"), 2);
    await s.cluster.heartbeat(beat("b"), 2);
    const [lease] = await s.cluster.acquire("a", [0], 60_000);
    expect(lease).toMatchObject({ partition: 0, owner: "a" });
    const held = { partition: 0, member: "a", epoch: lease!.epoch };

    expect(await s.cluster.recordRun(run("r1", 10, "a"), held)).toBe(true);
    expect(await s.cluster.recordRun(run("r2", 20, "a"), { ...held, epoch: held.epoch - 1 })).toBe(false);
    expect(await s.cluster.recordRun(run("r3", 30, "b"), { ...held, member: "b" })).toBe(false);
    expect(await s.cluster.recordRun(run("r4", 40, "a"), { ...held, partition: 1 })).toBe(false); // never acquired

    await s.cluster.release("a", [{ partition: 0, epoch: held.epoch }]);
    const [taken] = await s.cluster.acquire("b", [0], 60_000);
    expect(taken).toMatchObject({ owner: "b", epoch: held.epoch + 1 });
    expect(await s.cluster.recordRun(run("r5", 50, "a"), held)).toBe(false); // woke after the hand-over
    expect(await s.cluster.recordRun(run("r6", 60, "b"), { partition: 0, member: "b", epoch: taken!.epoch })).toBe(true);

    expect((await s.runs.runs({ ...KEY, limit: 10 })).items.map((r) => r.id)).toEqual(["r6", "r1"]);
    expect((await s.runs.lastRuns([KEY])).get(JSON.stringify(["notes", "(0)", "note#0"]))?.id).toBe("r6");
  });
});
