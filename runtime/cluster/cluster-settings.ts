// `wow.cluster`: how often hosts heartbeat, how long a silent host keeps its partitions and claims,
// and how many journal partitions there are. Checked as the loops' options are.
import type { ClusterConfig } from "../config/types.js";
import { optionValues } from "../model/option-values.js";

export interface ClusterSettings {
  readonly heartbeat: number;
  readonly lease: number;
  readonly partitions: number;
}

export const CLUSTER_DEFAULTS: ClusterSettings = { heartbeat: 2_000, lease: 10_000, partitions: 16 };

/** The settings from `wow.cluster` (and options over it); a lease shorter than two heartbeats is a RangeError. */
export function clusterSettings(config: ClusterConfig | undefined, over: Partial<ClusterConfig> = {}): ClusterSettings {
  const { count, duration } = optionValues("wow.cluster");
  const heartbeat = duration("heartbeat", over.heartbeat ?? config?.heartbeat, CLUSTER_DEFAULTS.heartbeat);
  const lease = duration("lease", over.lease ?? config?.lease, CLUSTER_DEFAULTS.lease);
  const partitions = count("partitions", over.partitions ?? config?.partitions, CLUSTER_DEFAULTS.partitions);
  if (lease < 2 * heartbeat) throw new RangeError(`wow.cluster.lease (${lease} ms) must be at least twice wow.cluster.heartbeat (${heartbeat} ms): one late heartbeat would lose every partition`);
  if (partitions > 1024) throw new RangeError(`wow.cluster.partitions must be at most 1024, got ${partitions}`);
  return { heartbeat, lease, partitions };
}
