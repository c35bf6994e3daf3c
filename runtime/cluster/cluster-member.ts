// One host as a member of a cluster: it registers in the store, heartbeats, measures its clock against
// the store's, and holds its fair share of the journal partitions under leases with fencing epochs.
// It owns a partition only while its lease holds by its own reckoning (counted from before the
// heartbeat that renewed it, so never longer than the store's): a host paused or cut off from the
// store past its lease stops working on the partition before another may take it.
import type { Logger } from "../ops/log.js";
import { errorField } from "../ops/log.js";
import { PollLoop, type LoopState } from "../loop/poll-loop.js";
import type { ClusterStore, ClusterView, Fence, HeldLease, PartitionLease } from "../store/cluster-store.js";
import { OFFSET_WARN_MS, type OffsetClock } from "./clock-offset.js";
import type { ClusterSettings } from "./cluster-settings.js";
import { planShare } from "./fair-share.js";

export interface ClusterMemberOptions {
  readonly store: ClusterStore;
  readonly id: string;
  readonly settings: ClusterSettings;
  /** The host's clock, corrected by the offset each heartbeat measures. */
  readonly clock: OffsetClock;
  readonly log: Logger;
  /** Partitions gained and lost by a heartbeat (subscriptions of gained ones start at once). */
  readonly onChange?: (gained: readonly number[], lost: readonly number[]) => void;
}

interface Holding {
  readonly epoch: number;
  /** Held until then, on the host's (corrected) clock. */
  readonly until: number;
}

/** A member as operators see it (`GET /wow/hosts`; times epoch ms on the store's clock). */
export interface MemberState {
  readonly id: string;
  /** The host that answered. */
  readonly self: boolean;
  readonly startedAt: number;
  readonly lastHeartbeat: number;
  /** Counted gone (its partitions and claims taken over) after this, unless it heartbeats again. */
  readonly leaseUntil: number;
  /** Its clock's offset from the store's, as it measured it (ms; negative: its clock runs ahead). */
  readonly clockOffsetMs: number;
  readonly partitions: readonly number[];
}

export class ClusterMember {
  readonly partitions: number;
  readonly id: string;
  private readonly store: ClusterStore;
  private readonly settings: ClusterSettings;
  private readonly clock: OffsetClock;
  private readonly log: Logger;
  private readonly onChange: ((gained: readonly number[], lost: readonly number[]) => void) | undefined;
  private readonly loop: PollLoop;
  private readonly holdings = new Map<number, Holding>();
  private readonly startedAt: number;
  private lastView: ClusterView | undefined;
  private lastBeatAt: number | undefined;
  private warnedOffset = false;
  private unsubscribe: (() => void) | undefined;
  private left = false;

  constructor(options: ClusterMemberOptions) {
    this.store = options.store;
    this.id = options.id;
    this.settings = options.settings;
    this.partitions = options.settings.partitions;
    this.clock = options.clock;
    this.log = options.log;
    this.onChange = options.onChange;
    this.startedAt = options.clock.now();
    this.loop = new PollLoop({
      name: "cluster heartbeat",
      clock: options.clock,
      interval: options.settings.heartbeat,
      // Due, not idle: a heartbeat is work at its instant (a virtual clock runs it on time).
      poll: async () => {
        await this.beat();
        return { nextDueAt: this.clock.now() + this.settings.heartbeat };
      },
      onError: (error) => this.log.error({ event: "cluster.heartbeat_failed", err: errorField(error) }, "cluster heartbeat failed: partitions are given up as their leases run out"),
    });
  }

  /** The partitions this host owns now. */
  owned(): readonly number[] {
    const now = this.clock.now();
    return [...this.holdings].filter(([, h]) => h.until > now).map(([p]) => p).sort((a, b) => a - b);
  }

  owns(partition: number): boolean {
    const holding = this.holdings.get(partition);
    return holding !== undefined && holding.until > this.clock.now();
  }

  /** The fence of a write under `partition`'s lease, while this host holds it. */
  fence(partition: number): Fence | undefined {
    const holding = this.holdings.get(partition);
    return holding !== undefined && holding.until > this.clock.now() ? { partition, member: this.id, epoch: holding.epoch } : undefined;
  }

  get running(): boolean {
    return this.loop.running;
  }

  /** Joins: the first heartbeat (the clock's offset measured, the share taken as far as free), then one per `heartbeat`. */
  async start(): Promise<void> {
    this.left = false;
    await this.beat();
    this.unsubscribe = this.store.onWake?.((topic) => {
      if (topic === "cluster") this.loop.wake();
    });
    this.loop.start();
  }

  /** One heartbeat: renew, read the view, release beyond the share, take up to it. */
  async beat(): Promise<void> {
    if (this.left) return;
    const { lease } = this.settings;
    const sentAt = this.clock.now();
    const beforeBase = this.clock.base.now();
    const held: HeldLease[] = [...this.holdings].map(([partition, h]) => ({ partition, epoch: h.epoch }));
    let view = await this.store.heartbeat({ member: this.id, startedAt: this.startedAt, offsetMs: this.clock.offset, leaseMs: lease, held }, this.partitions);
    const offset = this.clock.sample(view.now, this.clock.base.now());
    this.reportOffset(offset, this.clock.base.now() - beforeBase);
    this.lastView = view;
    this.lastBeatAt = view.now;
    const before = new Set(this.owned());
    // What the store renewed is held from `sentAt` (never longer than the store counts); the rest is lost.
    // A lease in this member's name it did not send (a predecessor's with the same id) is not renewed: given up.
    const sent = new Set(held.map((h) => `${h.partition}@${h.epoch}`));
    const strays = view.leases.filter((l) => l.owner === this.id && !sent.has(`${l.partition}@${l.epoch}`));
    if (strays.length > 0) {
      await this.store.release(this.id, strays.map((l) => ({ partition: l.partition, epoch: l.epoch })));
      view = { ...view, leases: view.leases.map((l) => (strays.includes(l) ? { ...l, owner: undefined, until: 0 } : l)) };
    }
    this.holdings.clear();
    for (const l of view.leases) if (l.owner === this.id && l.until > view.now) this.holdings.set(l.partition, { epoch: l.epoch, until: sentAt + lease });
    const plan = planShare(this.id, view);
    if (plan.release.length > 0) {
      for (const r of plan.release) this.holdings.delete(r.partition);
      await this.store.release(this.id, plan.release);
      await this.store.announce?.("cluster");
    }
    if (plan.acquire.length > 0) {
      const takenAt = this.clock.now();
      const taken = await this.store.acquire(this.id, plan.acquire, lease);
      for (const t of taken) this.holdings.set(t.partition, { epoch: t.epoch, until: takenAt + lease });
      if (taken.length > 0) this.lastView = merge(view, taken);
    }
    this.changed(before);
  }

  /** A graceful leave: the heartbeat stops, every partition is freed for the others at once (who are told). */
  async leave(): Promise<void> {
    this.left = true;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    await this.loop.stop();
    const before = new Set(this.owned());
    this.holdings.clear();
    await this.store.leave(this.id);
    await this.store.announce?.("cluster").catch(() => undefined);
    this.changed(before);
    this.log.info({ event: "cluster.left", member: this.id, released: [...before] }, "left the cluster: its partitions were handed over");
  }

  /** Stops heartbeating without leaving (a test's simulated crash: the leases lapse on their own). */
  async halt(): Promise<void> {
    this.left = true;
    this.unsubscribe?.();
    await this.loop.stop();
  }

  describe(): LoopState {
    return this.loop.describe();
  }

  /** The clock's offset from the store's (ms), and whether it was measured. */
  get clockOffset(): number {
    return this.clock.offset;
  }

  /** The members as the last heartbeat saw them, with their partitions; this host's own view of itself is current. */
  async members(fresh = false): Promise<{ readonly now: number; readonly members: readonly MemberState[]; readonly unowned: readonly number[] }> {
    const view = fresh || this.lastView === undefined ? await this.store.view(this.partitions) : this.lastView;
    const byOwner = new Map<string, number[]>();
    const unowned: number[] = [];
    for (const l of view.leases) {
      if (l.owner === undefined || l.until <= view.now || !view.members.some((m) => m.id === l.owner)) unowned.push(l.partition);
      else byOwner.set(l.owner, [...(byOwner.get(l.owner) ?? []), l.partition]);
    }
    const members = view.members.map((m): MemberState => ({
      id: m.id,
      self: m.id === this.id,
      startedAt: m.startedAt,
      lastHeartbeat: m.heartbeatAt,
      leaseUntil: m.leaseUntil,
      clockOffsetMs: m.id === this.id ? this.clock.offset : m.offsetMs,
      partitions: byOwner.get(m.id) ?? [],
    }));
    return { now: view.now, members, unowned };
  }

  /** When the store last answered a heartbeat (its clock). */
  get lastHeartbeat(): number | undefined {
    return this.lastBeatAt;
  }

  private changed(before: ReadonlySet<number>): void {
    const after = new Set(this.owned());
    const gained = [...after].filter((p) => !before.has(p));
    const lost = [...before].filter((p) => !after.has(p));
    if (gained.length === 0 && lost.length === 0) return;
    this.log.info({ event: "cluster.partitions", member: this.id, owned: [...after].sort((a, b) => a - b), gained, lost }, `owns ${after.size} of ${this.partitions} partitions`);
    this.onChange?.(gained, lost);
  }

  private reportOffset(offset: number, roundTripMs: number): void {
    const off = Math.abs(offset) > OFFSET_WARN_MS;
    if (off && !this.warnedOffset) this.log.warn({ event: "cluster.clock_offset", offsetMs: offset, roundTripMs }, `this host's clock is ${Math.abs(offset)} ms ${offset > 0 ? "behind" : "ahead of"} the database's: it runs on the database's clock, but fix its time sync (NTP)`);
    if (!off && this.warnedOffset) this.log.info({ event: "cluster.clock_offset", offsetMs: offset, roundTripMs }, "this host's clock is back within 1 s of the database's");
    this.warnedOffset = off;
  }
}

function merge(view: ClusterView, taken: readonly PartitionLease[]): ClusterView {
  const byPartition = new Map(taken.map((t) => [t.partition, t]));
  return { ...view, leases: view.leases.map((l) => byPartition.get(l.partition) ?? l) };
}
