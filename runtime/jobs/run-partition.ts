// The partition whose subscription runs a job's ticks, as `jobSubscriptions` and `byPartition` split
// them: a cluster's host records the job's runs under that partition's lease.
import { aggregateRef } from "../model/aggregate-ref.js";
import { partitionOf } from "../model/partition-of.js";
import type { JobRun } from "../store/run-store.js";
import { SCHEDULE_AGGREGATE } from "./job-messages.js";

/** A sharded job's tick partition, else the partition the instance's stream hashes into; undefined on one partition (the subscription is not split). */
export function runPartition(run: JobRun, partitions: number): number | undefined {
  if (run.partition !== undefined) return run.partition;
  if (partitions <= 1) return undefined;
  return partitionOf(aggregateRef(run.context, SCHEDULE_AGGREGATE, run.instance, run.tenantId), partitions);
}
