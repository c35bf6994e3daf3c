// A host on a store that hosts share (PostgreSQL): it joins the cluster before its loops start, runs
// on the store's clock, owns its share of the partitions, writes partition checkpoints and job runs
// fenced by their epochs, wakes the other hosts with NOTIFY when a commit gives them work, and hands
// everything over when it stops gracefully.
import { ClusterMember } from "../cluster/cluster-member.js";
import type { OffsetClock } from "../cluster/clock-offset.js";
import { clusterSettings, type ClusterSettings } from "../cluster/cluster-settings.js";
import { FencedCheckpoints } from "../cluster/fenced-checkpoints.js";
import { FencedRuns } from "../cluster/fenced-runs.js";
import type { ClusterConfig } from "../config/types.js";
import type { HostsView } from "../http/host-api.js";
import type { Logger } from "../ops/log.js";
import { Gauge, type Registry } from "prom-client";
import type { ClusterStore, WakeTopic } from "../store/cluster-store.js";
import type { JobRun, RunStore } from "../store/run-store.js";
import type { SubscriptionStore } from "../store/subscription-store.js";

export interface HostClusterOptions {
  readonly store: ClusterStore;
  readonly config: ClusterConfig | undefined;
  readonly over?: Partial<ClusterConfig>;
  /** The host's clock, corrected by the offset the heartbeats measure. */
  readonly clock: OffsetClock;
  readonly id: string;
  readonly log: Logger;
}

export class HostCluster {
  readonly settings: ClusterSettings;
  readonly clock: OffsetClock;
  readonly member: ClusterMember;
  private readonly store: ClusterStore;
  private readonly log: Logger;
  private unsubscribe: (() => void) | undefined;
  /** Announcements in flight, and whether another was asked for meanwhile (coalesced: one NOTIFY per round trip). */
  private readonly announcing = new Map<WakeTopic, { again: boolean }>();
  private partitionsChanged: ((gained: readonly number[]) => void) | undefined;

  constructor(options: HostClusterOptions) {
    this.settings = clusterSettings(options.config, options.over);
    this.clock = options.clock;
    this.store = options.store;
    this.log = options.log;
    this.member = new ClusterMember({
      store: options.store,
      id: options.id,
      settings: this.settings,
      clock: this.clock,
      log: options.log,
      onChange: (gained) => this.partitionsChanged?.(gained),
    });
  }

  /** The subscription store whose partition checkpoints are fenced by this host's leases. */
  fenced(inner: SubscriptionStore): SubscriptionStore {
    return new FencedCheckpoints(inner, this.store, (p) => this.member.fence(p), this.member.id);
  }

  /** The run log whose job runs are recorded under the lease of the partition that ran them (`partitionOf`). */
  fencedRuns(inner: RunStore, partitionOf: (run: JobRun) => number | undefined): RunStore {
    return new FencedRuns(inner, this.store, (p) => this.member.fence(p), this.member.id, partitionOf);
  }

  /** Joins (first heartbeat: offset measured, share taken as far as free) and listens for the others' wake-ups. */
  async start(wake: (topic: WakeTopic) => void, gained: (partitions: readonly number[]) => void): Promise<void> {
    this.partitionsChanged = gained;
    await this.member.start();
    this.unsubscribe = this.store.onWake?.(wake);
    this.log.info({ event: "cluster.joined", member: this.member.id, owned: this.member.owned(), clockOffsetMs: this.clock.offset, heartbeatMs: this.settings.heartbeat, leaseMs: this.settings.lease, partitions: this.settings.partitions }, `joined the cluster: owns ${this.member.owned().length} of ${this.settings.partitions} partitions`);
  }

  /** Tells the other hosts to look for `topic` now (coalesced while one announcement is in flight). */
  announce(topic: WakeTopic): void {
    if (this.store.announce === undefined || !this.member.running) return;
    const inFlight = this.announcing.get(topic);
    if (inFlight !== undefined) {
      inFlight.again = true;
      return;
    }
    const state = { again: false };
    this.announcing.set(topic, state);
    void (async () => {
      do {
        state.again = false;
        await this.store.announce!(topic).catch(() => undefined); // a lost NOTIFY costs one poll interval, no more
      } while (state.again);
      this.announcing.delete(topic);
    })();
  }

  /** A graceful leave: partitions freed for the others at once. */
  async leave(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    if (this.member.running) await this.member.leave();
  }

  async hosts(): Promise<HostsView> {
    const { members, unowned } = await this.member.members(true);
    return { clustered: true, partitions: this.settings.partitions, hosts: members, unowned };
  }

  /** Gauges of the host's metrics: its clock offset, partitions owned, members alive. */
  register(registry: Registry): void {
    const member = this.member;
    const registers = [registry];
    new Gauge({ name: "wow_cluster_clock_offset_seconds", help: "This host's clock offset from the database's (negative: its clock runs ahead); it runs on the database's.", registers, collect() { this.set(member.clockOffset / 1000); } });
    new Gauge({ name: "wow_cluster_partitions_owned", help: "Journal partitions this host owns now.", registers, collect() { this.set(member.owned().length); } });
    new Gauge({
      name: "wow_cluster_members",
      help: "Hosts alive in the cluster, as this host's last heartbeat saw them.",
      registers,
      async collect() {
        this.set((await member.members()).members.length);
      },
    });
  }
}
