// What a member does with the cluster's view: keep its fair share of the partitions, release what is
// beyond it (so that a newcomer can take its share), and take free or lapsed partitions up to it.
// Every member computes the same shares from the same view: the live members sorted by id, the
// remainder going to the first ones. Nothing is ever taken from a live holder: members release first.
import type { ClusterView, HeldLease, PartitionLease } from "../store/cluster-store.js";

export interface SharePlan {
  /** Its share: how many partitions it should hold. */
  readonly share: number;
  /** The leases it holds now (its own, unlapsed). */
  readonly held: readonly HeldLease[];
  /** Beyond its share: to give up. */
  readonly release: readonly HeldLease[];
  /** Free, lapsed or orphaned partitions to take, up to its share. */
  readonly acquire: readonly number[];
}

/** `member`'s share of `partitions` among `members` (sorted ids); 0 when it is not among them. */
export function shareOf(member: string, members: readonly string[], partitions: number): number {
  const index = members.indexOf(member);
  if (index < 0) return 0;
  const base = Math.floor(partitions / members.length);
  return base + (index < partitions % members.length ? 1 : 0);
}

export function planShare(member: string, view: ClusterView): SharePlan {
  const alive = new Set(view.members.map((m) => m.id));
  const ids = [...alive].sort();
  // A member that did not register yet (its first heartbeat is in hand) counts itself in.
  if (!alive.has(member)) ids.push(member), ids.sort();
  const partitions = view.leases.length;
  const share = shareOf(member, ids, partitions);
  const mine = view.leases.filter((l) => l.owner === member && l.until > view.now);
  const held = mine.map(heldOf);
  // The highest partitions go first: every member releases the same way, so shares settle quickly.
  const release = mine.length > share ? mine.slice(share).map(heldOf) : [];
  const free = rotate(view.leases.filter((l) => takeable(l, view.now, alive)).map((l) => l.partition), member);
  const acquire = mine.length < share ? free.slice(0, share - mine.length) : [];
  return { share, held: mine.length > share ? held.slice(0, share) : held, release, acquire };
}

function heldOf(lease: PartitionLease): HeldLease {
  return { partition: lease.partition, epoch: lease.epoch };
}

/** Free, lapsed, or held by a member that is not alive. */
function takeable(lease: PartitionLease, now: number, alive: ReadonlySet<string>): boolean {
  return lease.owner === undefined || lease.until <= now || !alive.has(lease.owner);
}

/** The candidates from a place of the member's own, so that members joining together do not all race for the same partitions. */
function rotate(partitions: readonly number[], member: string): number[] {
  if (partitions.length <= 1) return [...partitions];
  let h = 0;
  for (let i = 0; i < member.length; i++) h = (Math.imul(h, 31) + member.charCodeAt(i)) >>> 0;
  const k = h % partitions.length;
  return [...partitions.slice(k), ...partitions.slice(0, k)];
}
