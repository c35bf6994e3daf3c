// Membership and partition leases on a virtual clock, with the in-memory cluster store: every partition
// owned by one member at a time, fair shares, a newcomer served within two heartbeats, a dead member's
// partitions taken over after its lease, a paused member fenced off, a graceful leave handed over at once.
import { describe, expect, it } from "vitest";
import type { Clock } from "../../../runtime/clock.js";
import { ClusterMember } from "../../../runtime/cluster/cluster-member.js";
import { OffsetClock } from "../../../runtime/cluster/clock-offset.js";
import { clusterSettings, type ClusterSettings } from "../../../runtime/cluster/cluster-settings.js";
import { shareOf } from "../../../runtime/cluster/fair-share.js";
import { FencedCheckpoints } from "../../../runtime/cluster/fenced-checkpoints.js";
import { silentLogger } from "../../../runtime/ops/log.js";
import { FencedWriteError, PartitionCountError } from "../../../runtime/store/cluster-store.js";
import { MemoryClusterStore } from "../../../runtime/store/memory/cluster.js";
import { MemorySubscriptionStore } from "../../../runtime/store/memory/subscriptions.js";
import { VirtualClock } from "../../../runtime/testing/virtual-clock.js";

const SETTINGS: ClusterSettings = { heartbeat: 2_000, lease: 10_000, partitions: 16 };

function cluster(settings = SETTINGS) {
  const clock = new VirtualClock(Date.UTC(2026, 0, 1));
  const checkpoints = new MemorySubscriptionStore();
  const store = new MemoryClusterStore(clock, checkpoints);
  const members: ClusterMember[] = [];
  const changes: { member: string; gained: readonly number[]; lost: readonly number[] }[] = [];
  const member = (id: string, base: Clock = clock) => {
    const m = new ClusterMember({ store, id, settings, clock: new OffsetClock(base), log: silentLogger, onChange: (gained, lost) => changes.push({ member: id, gained, lost }) });
    members.push(m);
    return m;
  };
  /** Fails when two members own one partition at the same instant. */
  const exclusive = () => {
    for (let p = 0; p < settings.partitions; p++) {
      const owners = members.filter((m) => m.owns(p)).map((m) => m.id);
      expect(owners.length, `partition ${p} owned by ${owners.join(", ")}`).toBeLessThanOrEqual(1);
    }
  };
  /** Advances in quarter heartbeats, checking exclusivity at each step. */
  const run = async (ms: number) => {
    for (let left = ms; left > 0; left -= settings.heartbeat / 4) {
      await clock.advanceTime(Math.min(left, settings.heartbeat / 4));
      exclusive();
    }
  };
  const ownedByAll = () => new Set(members.flatMap((m) => m.owned()));
  return { clock, store, checkpoints, member, members, changes, exclusive, run, ownedByAll };
}

describe("cluster membership and partition leases (virtual clock, memory store)", () => {
  it("splits the partitions fairly among the members, each owned by one", async () => {
    const c = cluster();
    const [a, b, d] = [c.member("a"), c.member("b"), c.member("c")];
    await a.start();
    expect(a.owned()).toHaveLength(16); // alone: everything
    await b.start();
    await d.start();
    await c.run(2 * SETTINGS.heartbeat);
    expect([a, b, d].map((m) => m.owned().length)).toEqual([6, 5, 5]);
    expect(c.ownedByAll().size).toBe(16);
    expect(shareOf("b", ["a", "b", "c"], 16)).toBe(5);
    for (const m of [a, b, d]) await m.leave();
  });

  it("gives a newcomer its share within two heartbeats, the others releasing first", async () => {
    const c = cluster();
    const old = [c.member("m1"), c.member("m2"), c.member("m3")];
    for (const m of old) await m.start();
    await c.run(3 * SETTINGS.heartbeat);
    const joinedAt = c.clock.now();
    const newcomer = c.member("m0");
    await newcomer.start();
    let servedAt: number | undefined;
    for (let t = 0; t < 4 * SETTINGS.heartbeat && servedAt === undefined; t += 100) {
      await c.run(100);
      if (newcomer.owned().length === 4) servedAt = c.clock.now();
    }
    expect(servedAt, "the newcomer never got its 4 partitions").toBeDefined();
    expect(servedAt! - joinedAt).toBeLessThanOrEqual(2 * SETTINGS.heartbeat);
    await c.run(SETTINGS.heartbeat);
    expect([newcomer, ...old].map((m) => m.owned().length)).toEqual([4, 4, 4, 4]);
    expect(c.ownedByAll().size).toBe(16);
  });

  it("takes a dead member's partitions over once its lease ran out, each at a new epoch", async () => {
    const c = cluster();
    const [a, b, d] = [c.member("a"), c.member("b"), c.member("c")];
    for (const m of [a, b, d]) await m.start();
    await c.run(2 * SETTINGS.heartbeat);
    const held = d.owned();
    const before = (await c.store.view(16)).leases;
    const diedAt = c.clock.now();
    await d.halt(); // a crash: no leave, no more heartbeats
    await c.run(SETTINGS.lease - SETTINGS.heartbeat);
    // Within its lease nobody takes its partitions.
    expect(a.owned().concat(b.owned()).filter((p) => held.includes(p))).toEqual([]);
    let allAt: number | undefined;
    for (let t = 0; t < 3 * SETTINGS.heartbeat && allAt === undefined; t += 100) {
      await c.run(100);
      if (new Set([...a.owned(), ...b.owned()]).size === 16) allAt = c.clock.now();
    }
    expect(allAt, "the survivors never owned every partition").toBeDefined();
    expect(allAt! - diedAt).toBeLessThanOrEqual(SETTINGS.lease + SETTINGS.heartbeat);
    const after = (await c.store.view(16)).leases;
    for (const p of held) expect(after[p]!.epoch).toBe(before[p]!.epoch + 1);
    expect([a.owned().length, b.owned().length]).toEqual([8, 8]);
  });

  it("fences a paused member: it stops owning at its lease's end, and its checkpoint write under the old epoch is refused", async () => {
    const c = cluster();
    const [a, b] = [c.member("a"), c.member("b")];
    await a.start();
    await b.start();
    await c.run(2 * SETTINGS.heartbeat);
    const p = b.owned()[0]!;
    const fenced = new FencedCheckpoints(c.checkpoints, c.store, (q) => b.fence(q), "b");
    await fenced.saveCheckpoint(`saga.handler#${p}`, 10);
    const staleFence = b.fence(p)!;
    await b.halt(); // SIGSTOP: its heartbeat does not run
    await c.run(SETTINGS.lease + 2 * SETTINGS.heartbeat);
    expect(b.owns(p)).toBe(false); // by its own reckoning, before anyone else could take it
    expect(a.owns(p)).toBe(true);
    // SIGCONT: a write it had in hand, under the epoch it held, is refused; the checkpoint stays where the new owner put it.
    const byNewOwner = new FencedCheckpoints(c.checkpoints, c.store, (q) => a.fence(q), "a");
    await byNewOwner.saveCheckpoint(`saga.handler#${p}`, 12);
    expect(await c.store.saveCheckpoint(`saga.handler#${p}`, 11, staleFence)).toBe(false);
    await expect(fenced.saveCheckpoint(`saga.handler#${p}`, 11)).rejects.toBeInstanceOf(FencedWriteError);
    expect(await c.checkpoints.checkpoint(`saga.handler#${p}`)).toBe(12);
    // Unpartitioned subscriptions are not fenced.
    await fenced.saveCheckpoint("wow.schedule.index", 5);
    expect(await c.checkpoints.checkpoint("wow.schedule.index")).toBe(5);
  });

  it("hands every partition over at once on a graceful leave", async () => {
    const c = cluster();
    const [a, b] = [c.member("a"), c.member("b")];
    await a.start();
    await b.start();
    await c.run(2 * SETTINGS.heartbeat);
    expect(b.owned()).toHaveLength(8);
    await b.leave();
    expect(b.owned()).toEqual([]);
    await c.run(100); // the leave's announcement wakes the survivor's heartbeat
    expect(a.owned()).toHaveLength(16);
    expect(c.changes.filter((ch) => ch.member === "b").at(-1)!.lost).toHaveLength(8);
  });

  it("runs a host with a fast clock on the store's clock", async () => {
    const c = cluster();
    const fast: Clock = { now: () => c.clock.now() + 5_000, sleep: (ms, s, o) => c.clock.sleep(ms, s, o) };
    const offsetClock = new OffsetClock(fast);
    const m = new ClusterMember({ store: c.store, id: "fast", settings: SETTINGS, clock: offsetClock, log: silentLogger });
    await m.start();
    expect(m.clockOffset).toBe(-5_000);
    expect(offsetClock.now()).toBeLessThanOrEqual(c.clock.now());
    await m.leave();
  });

  it("refuses a host configured with another partition count, and a lease shorter than two heartbeats", async () => {
    const c = cluster();
    await c.member("a").start();
    const other = new ClusterMember({ store: c.store, id: "b", settings: { ...SETTINGS, partitions: 8 }, clock: new OffsetClock(c.clock), log: silentLogger });
    await expect(other.start()).rejects.toBeInstanceOf(PartitionCountError);
    expect(() => clusterSettings({ heartbeat: "5s", lease: "8s" })).toThrow(/at least twice wow.cluster.heartbeat/);
    expect(clusterSettings(undefined)).toEqual({ heartbeat: 2_000, lease: 10_000, partitions: 16 });
  });
});
