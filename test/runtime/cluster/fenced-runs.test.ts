// A job's run is recorded under the lease of the partition whose subscription ran it. A member that
// paused past its lease and wakes with the lease's fence still in hand has its run record refused:
// nothing reaches the run log, the tick is neither retried nor parked by it, its checkpoint does not
// move, and the partition's new owner runs and records the tick. In-memory cluster, virtual clock.
import { describe, expect, it } from "vitest";
import { ClusterMember } from "../../../runtime/cluster/cluster-member.js";
import { OffsetClock } from "../../../runtime/cluster/clock-offset.js";
import type { ClusterSettings } from "../../../runtime/cluster/cluster-settings.js";
import { FencedRuns } from "../../../runtime/cluster/fenced-runs.js";
import { runPartition } from "../../../runtime/jobs/run-partition.js";
import { jobSubscriptions, type JobRuntime } from "../../../runtime/jobs/job-subscriptions.js";
import { byPartition } from "../../../runtime/jobs/partitioned-subscriptions.js";
import { createHost, MemoryStore, MemorySubscriptionStore, SubscriptionService, type EventMessage, type PartitionOwnership, type SagaJobRegistration, type SagaRegistration } from "../../../runtime/index.js";
import { Alerts } from "../../../runtime/ops/alerts.js";
import { silentLogger } from "../../../runtime/ops/log.js";
import { noMetrics } from "../../../runtime/ops/metrics.js";
import { FencedWriteError, type Fence } from "../../../runtime/store/cluster-store.js";
import { MemoryClusterStore } from "../../../runtime/store/memory/cluster.js";
import { MemoryRunStore } from "../../../runtime/store/memory/runs.js";
import type { JobRun, RunStore } from "../../../runtime/store/run-store.js";
import { VirtualClock } from "../../../runtime/testing/index.js";

const SETTINGS: ClusterSettings = { heartbeat: 2_000, lease: 10_000, partitions: 2 };
const START = "2026-10-20T00:00:00Z";

/** A job that sends nothing: what matters here is its run record. */
function noteJob(sharded: boolean, ran: string[]): SagaJobRegistration {
  return {
    name: "note",
    function: "note",
    subscription: "Notes.note",
    cron: "0 0 * * * *",
    zone: "UTC",
    scope: "SYSTEM",
    sharded,
    misfire: "COALESCE",
    blocking: false,
    commands: [],
    services: [],
    handle: (tick) => {
      ran.push(`p${tick.partition} s${tick.slot}`);
      return [];
    },
  };
}

const saga = (job: SagaJobRegistration): SagaRegistration => ({ context: "notes", saga: "Notes", events: {}, rejections: {}, jobs: [job] });

/** The ticks a one-host run of the job commits in its first hour (each partition's slot 1, for a sharded job). */
async function ticksOf(job: SagaJobRegistration): Promise<{ events: MemoryStore; ticks: EventMessage[] }> {
  const events = new MemoryStore();
  const clock = new VirtualClock(START);
  const all: PartitionOwnership = { partitions: SETTINGS.partitions, owned: () => [0, 1], owns: () => true };
  const host = createHost({ registrations: [saga(job)], store: events, clock, ownership: all, timers: { pollInterval: "1m" }, subscriptions: { pollInterval: "1m" } });
  await host.start();
  await clock.advanceTime("1h");
  await host.stop();
  return { events, ticks: (await events.read(0, 1_000)).filter((e) => e.type === "wow.schedule.Ticked") };
}

/** Two members of one in-memory cluster, after the ticks' hour; `b` paused past its lease, so `a` took every partition over. */
async function pausedMember() {
  const clock = new VirtualClock("2026-10-20T01:05:00Z");
  const runs = new MemoryRunStore();
  const store = new MemoryClusterStore(clock, new MemorySubscriptionStore(), runs);
  const member = (id: string) => new ClusterMember({ store, id, settings: SETTINGS, clock: new OffsetClock(clock), log: silentLogger });
  const [a, b] = [member("a"), member("b")];
  await a.start();
  await b.start();
  await clock.advanceTime(2 * SETTINGS.heartbeat);
  const p = b.owned()[0]!;
  const stale = b.fence(p)!;
  await b.halt(); // SIGSTOP: its heartbeat does not run
  await clock.advanceTime(SETTINGS.lease + 2 * SETTINGS.heartbeat);
  expect(a.owns(p)).toBe(true);
  return { clock, runs, store, a, b, p, stale };
}

const runtimeOf = (clock: VirtualClock, events: MemoryStore, runs: RunStore, ownership: PartitionOwnership, host: string): JobRuntime => ({
  send: async () => {
    throw new Error("the job sends nothing");
  },
  events,
  clock,
  services: {},
  ownership,
  policy: () => ({ overlap: "BUFFER_ALL", maxAttempts: 3, backoff: { initial: 1_000, factor: 2, max: 60_000 }, jitter: 0 }),
  ops: { runs, metrics: noMetrics, log: silentLogger, alerts: new Alerts({}, silentLogger, undefined), host },
});

const runsOf = async (runs: RunStore, instance: string) => (await runs.runs({ context: "notes", instance, tenantId: "(0)", limit: 10 })).items;

describe("job runs fenced by their partition's lease (memory cluster, virtual clock)", () => {
  it("a paused member's run of a sharded tick, under the epoch it lost, writes no run and is neither retried nor parked; the new owner's run is recorded", async () => {
    const ran: string[] = [];
    const job = noteJob(true, ran);
    const { events, ticks } = await ticksOf(job);
    ran.length = 0;
    const c = await pausedMember();
    const tick = ticks.find((t) => (t.body as { partition: number }).partition === c.p)!;
    const instance = `note#${c.p}`;

    // SIGCONT: b still counts the partition its own (its lease by its reckoning, the fence it had in hand).
    const zombieOwns: PartitionOwnership = { partitions: SETTINGS.partitions, owned: () => [c.p], owns: (q) => q === c.p };
    const zombieRuns = new FencedRuns(c.runs, c.store, () => c.stale, "b", (run) => runPartition(run, SETTINGS.partitions));
    const checkpoints = new MemorySubscriptionStore();
    const errors: unknown[] = [];
    const zombie = new SubscriptionService({
      events,
      store: checkpoints,
      clock: c.clock,
      subscriptions: jobSubscriptions(saga(job), runtimeOf(c.clock, events, zombieRuns, zombieOwns, "b")),
      onError: (error) => errors.push(error),
    });
    await zombie.pollOnce();
    expect(ran).toEqual([`p${c.p} s1`]); // its handler ran (at least once) …
    expect(await runsOf(c.runs, instance)).toEqual([]); // … but no run was recorded under the lost lease
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(FencedWriteError);
    expect(String(errors[0])).toMatch(new RegExp(`refused: partition ${c.p} is no longer held by b at epoch ${c.stale.epoch}`));
    expect(await checkpoints.checkpoint(`Notes.note#${c.p}`)).toBe(0); // the tick is left to the new owner
    expect(await checkpoints.parked()).toEqual([]);

    // The new owner runs the same tick and records it.
    const ownerRuns = new FencedRuns(c.runs, c.store, (q) => c.a.fence(q), "a", (run) => runPartition(run, SETTINGS.partitions));
    const [subscription] = jobSubscriptions(saga(job), runtimeOf(c.clock, events, ownerRuns, c.a, "a")).filter((s) => s.name === `Notes.note#${c.p}`);
    await subscription!.handle(tick, { number: 1, last: false, signal: new AbortController().signal });
    expect((await runsOf(c.runs, instance)).map((r) => [r.host, r.outcome, r.partition])).toEqual([["a", "succeeded", c.p]]);
    await c.a.leave();
  });

  it("fences a run of an unsharded job by the partition its instance's stream hashes into, as its subscription is split; on one partition it is not fenced", async () => {
    const ran: string[] = [];
    const job = noteJob(false, ran);
    const { ticks } = await ticksOf(job);
    expect(ticks).toHaveLength(1);
    const split = byPartition(jobSubscriptions(saga(job), runtimeOf(new VirtualClock(START), new MemoryStore(), new MemoryRunStore(), { partitions: 2, owned: () => [0, 1], owns: () => true }, "h"))[0]!, { partitions: 2, owned: () => [0, 1], owns: () => true });
    const taking = split.filter((s) => s.accepts(ticks[0]!)).map((s) => s.name);
    const run: JobRun = { id: "r1", context: "notes", job: "note", instance: "note", tenantId: "(0)", slot: 1, due: 0, started: 0, finished: 0, kind: "scheduled", outcome: "succeeded", attempt: 1, commands: [], host: "h" };
    expect(taking).toEqual([`Notes.note#${runPartition(run, 2)}`]);
    expect(runPartition(run, 1)).toBeUndefined();

    const c = await pausedMember();
    const fenceOf = (q: number): Fence => (q === c.stale.partition ? c.stale : { partition: q, member: "b", epoch: 0 });
    const p = runPartition(run, SETTINGS.partitions)!;
    // b lost every lease: its record is refused whichever partition the instance hashes into.
    await expect(new FencedRuns(c.runs, c.store, fenceOf, "b", (run) => runPartition(run, SETTINGS.partitions)).record(run)).rejects.toBeInstanceOf(FencedWriteError);
    expect(await runsOf(c.runs, "note")).toEqual([]);
    await new FencedRuns(c.runs, c.store, (q) => c.a.fence(q), "a", (run) => runPartition(run, SETTINGS.partitions)).record({ ...run, host: "a" });
    expect((await runsOf(c.runs, "note")).map((r) => r.host)).toEqual(["a"]);
    expect(c.a.owns(p)).toBe(true);
    // One partition: the job's subscription is not split, and its runs are not fenced.
    await new FencedRuns(c.runs, c.store, () => undefined, "b", (run) => runPartition(run, 1)).record({ ...run, id: "r2", started: 1 });
    expect(await runsOf(c.runs, "note")).toHaveLength(2);
    await c.a.leave();
  });
});
