// What hosts sharing a store keep in it to work together: who is alive (members and their leases),
// who owns each journal partition (a lease with a fencing epoch), and the store's own clock. A write
// made under a partition's lease names its epoch and is refused once the partition moved on.
import type { JobRun } from "./run-store.js";

/** A host of the cluster as the store last heard of it. Times are on the store's clock (epoch ms). */
export interface MemberRow {
  readonly id: string;
  readonly startedAt: number;
  readonly heartbeatAt: number;
  /** Alive until then, unless it heartbeats again. */
  readonly leaseUntil: number;
  /** Its clock's offset from the store's, as it last measured it (ms; positive: its clock is behind). */
  readonly offsetMs: number;
}

/** A journal partition's lease. `owner` undefined: free. */
export interface PartitionLease {
  readonly partition: number;
  readonly owner: string | undefined;
  /** Moves on every acquisition: a write naming an older epoch is refused. */
  readonly epoch: number;
  /** The lease holds until then (store clock); an owner renews it with each heartbeat. */
  readonly until: number;
}

/** A lease as its holder knows it. */
export interface HeldLease {
  readonly partition: number;
  readonly epoch: number;
}

/** What a heartbeat sees: the store's time, the members alive then, every partition's lease. */
export interface ClusterView {
  readonly now: number;
  readonly members: readonly MemberRow[];
  /** One per partition, 0 … partitions − 1. */
  readonly leases: readonly PartitionLease[];
}

export interface Heartbeat {
  readonly member: string;
  readonly startedAt: number;
  readonly offsetMs: number;
  /** How long the member and its renewed leases hold from the store's now. */
  readonly leaseMs: number;
  /** The leases it holds: renewed when still its own at that epoch and not lapsed; the others are lost. */
  readonly held: readonly HeldLease[];
}

/** The fence of a write made under a partition's lease. */
export interface Fence {
  readonly partition: number;
  readonly member: string;
  readonly epoch: number;
}

export interface ClusterStore {
  /** The store's clock (epoch ms). */
  time(): Promise<number>;
  /**
   * Registers or renews `member`, renews the leases it still holds, and reads the view, in one
   * transaction. `partitions`: how many the hosts were configured with (a store set up with another
   * count refuses, naming both).
   */
  heartbeat(beat: Heartbeat, partitions: number): Promise<ClusterView>;
  /**
   * Takes those of `partitions` that are free, lapsed, or held by a member no longer alive (never one a
   * live member holds), each at a new epoch; returns the leases taken.
   */
  acquire(member: string, partitions: readonly number[], leaseMs: number): Promise<PartitionLease[]>;
  /** Gives leases up (only those still `member`'s at that epoch): free at once for another member. */
  release(member: string, leases: readonly HeldLease[]): Promise<void>;
  /** A graceful leave: the member's leases are freed and its row removed. */
  leave(member: string): Promise<void>;
  /** The members alive now, and every partition's lease: what operators see. */
  view(partitions: number): Promise<ClusterView>;
  /** Saves a subscription's checkpoint if the fence's lease is still held, unlapsed, at its epoch; false when refused. */
  saveCheckpoint(subscription: string, position: number, fence: Fence): Promise<boolean>;
  /** Records a job's run (as `RunStore.record`) if the fence's lease is still held, unlapsed, at its epoch; false when refused. */
  recordRun(run: JobRun, fence: Fence): Promise<boolean>;
  /** Calls `wake` when another member changed the cluster (released, left) or a commit set work due; returns the unsubscribe. */
  onWake?(wake: (topic: WakeTopic) => void): () => void;
  /** Tells the other members to look now (a release, a leave, a commit with due work). */
  announce?(topic: WakeTopic): Promise<void>;
}

/** What a wake-up is about. */
export type WakeTopic = "cluster" | "timers" | "events";

/** A write made under a lease the writer no longer holds: refused, nothing written. */
export class FencedWriteError extends Error {
  readonly code = "WOW_FENCED_WRITE";
  /** `write`: which kind of write it was (a partition's checkpoint, or a job's run). */
  constructor(readonly what: string, readonly fence: Fence, readonly write: "checkpoint" | "run" = "checkpoint") {
    super(`${what} refused: partition ${fence.partition} is no longer held by ${fence.member} at epoch ${fence.epoch} (its lease lapsed or moved to another host)`);
    this.name = "FencedWriteError";
  }
}

/** Partitions a store set up with one count refuses from hosts configured with another. */
export class PartitionCountError extends Error {
  constructor(readonly stored: number, readonly configured: number) {
    super(`the cluster's store has ${stored} partitions but this host is configured with wow.cluster.partitions = ${configured}: every host sharing a store uses the same count`);
    this.name = "PartitionCountError";
  }
}
