// The cluster's membership and partition leases in memory: several hosts of one process (tests on a
// virtual clock) share one. The same rules as the PostgreSQL store's, on the given clock.
import type { Clock } from "../../clock.js";
import {
  PartitionCountError,
  type ClusterStore,
  type ClusterView,
  type Fence,
  type HeldLease,
  type Heartbeat,
  type MemberRow,
  type PartitionLease,
  type WakeTopic,
} from "../cluster-store.js";
import type { JobRun, RunStore } from "../run-store.js";
import type { SubscriptionStore } from "../subscription-store.js";
import { MemoryRunStore } from "./runs.js";

export class MemoryClusterStore implements ClusterStore {
  private readonly members = new Map<string, MemberRow>();
  private readonly leases: PartitionLease[] = [];
  private readonly wakers = new Set<(topic: WakeTopic) => void>();

  /** `checkpoints` and `runs`: where the writes fenced here go (the hosts' shared stores). */
  constructor(private readonly clock: Clock, private readonly checkpoints: SubscriptionStore, private readonly runs: RunStore = new MemoryRunStore()) {}

  async time(): Promise<number> {
    return this.clock.now();
  }

  async heartbeat(beat: Heartbeat, partitions: number): Promise<ClusterView> {
    this.ensure(partitions);
    const now = this.clock.now();
    const known = this.members.get(beat.member);
    this.members.set(beat.member, { id: beat.member, startedAt: known?.startedAt ?? beat.startedAt, heartbeatAt: now, leaseUntil: now + beat.leaseMs, offsetMs: beat.offsetMs });
    for (const held of beat.held) {
      const lease = this.leases[held.partition];
      if (lease?.owner === beat.member && lease.epoch === held.epoch && lease.until > now) this.leases[held.partition] = { ...lease, until: now + beat.leaseMs };
    }
    return this.snapshot(now);
  }

  async acquire(member: string, partitions: readonly number[], leaseMs: number): Promise<PartitionLease[]> {
    const now = this.clock.now();
    const taken: PartitionLease[] = [];
    for (const partition of partitions) {
      const lease = this.leases[partition];
      if (lease === undefined || !this.takeable(lease, now)) continue;
      const next = { partition, owner: member, epoch: lease.epoch + 1, until: now + leaseMs };
      this.leases[partition] = next;
      taken.push(next);
    }
    return taken;
  }

  async release(member: string, leases: readonly HeldLease[]): Promise<void> {
    for (const held of leases) {
      const lease = this.leases[held.partition];
      if (lease?.owner === member && lease.epoch === held.epoch) this.leases[held.partition] = { partition: held.partition, owner: undefined, epoch: lease.epoch, until: 0 };
    }
  }

  async leave(member: string): Promise<void> {
    this.members.delete(member);
    this.leases.forEach((lease, partition) => {
      if (lease.owner === member) this.leases[partition] = { partition, owner: undefined, epoch: lease.epoch, until: 0 };
    });
  }

  async view(partitions: number): Promise<ClusterView> {
    this.ensure(partitions);
    return this.snapshot(this.clock.now());
  }

  async saveCheckpoint(subscription: string, position: number, fence: Fence): Promise<boolean> {
    if (!this.holds(fence)) return false;
    await this.checkpoints.saveCheckpoint(subscription, position);
    return true;
  }

  async recordRun(run: JobRun, fence: Fence): Promise<boolean> {
    if (!this.holds(fence)) return false;
    await this.runs.record(run);
    return true;
  }

  /** Whether the fence's lease is still its member's, at its epoch, and has not lapsed. */
  private holds(fence: Fence): boolean {
    const lease = this.leases[fence.partition];
    return lease?.owner === fence.member && lease.epoch === fence.epoch && lease.until > this.clock.now();
  }

  onWake(wake: (topic: WakeTopic) => void): () => void {
    this.wakers.add(wake);
    return () => this.wakers.delete(wake);
  }

  async announce(topic: WakeTopic): Promise<void> {
    for (const wake of this.wakers) wake(topic);
  }

  /** A lease another member may take: free, lapsed, or its owner's membership lapsed. */
  private takeable(lease: PartitionLease, now: number): boolean {
    if (lease.owner === undefined || lease.until <= now) return true;
    const owner = this.members.get(lease.owner);
    return owner === undefined || owner.leaseUntil <= now;
  }

  private ensure(partitions: number): void {
    if (this.leases.length === 0) for (let p = 0; p < partitions; p++) this.leases.push({ partition: p, owner: undefined, epoch: 0, until: 0 });
    else if (this.leases.length !== partitions) throw new PartitionCountError(this.leases.length, partitions);
  }

  private snapshot(now: number): ClusterView {
    const members = [...this.members.values()].filter((m) => m.leaseUntil > now).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return { now, members, leases: this.leases.map((l) => ({ ...l })) };
  }
}
