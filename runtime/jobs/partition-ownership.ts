// Which journal partitions this host owns. A sharded job runs one instance per partition, on the
// partition's owner. On one machine the host owns every partition; a cluster plugs in its own.
export interface PartitionOwnership {
  /** How many partitions the journal has (sharded jobs: one instance each). */
  readonly partitions: number;
  /** The partitions this host owns now. */
  owned(): readonly number[];
  /** Whether this host owns `partition` now. */
  owns(partition: number): boolean;
}

/** One host owns all `partitions` (default 1). */
export function singleHostOwnership(partitions = 1): PartitionOwnership {
  if (!Number.isInteger(partitions) || partitions < 1) throw new RangeError(`partitions must be a positive integer, got ${partitions}`);
  const all = Array.from({ length: partitions }, (_, i) => i);
  return { partitions, owned: () => all, owns: (p) => Number.isInteger(p) && p >= 0 && p < partitions };
}
