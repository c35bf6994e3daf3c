// The journal partition of an aggregate's stream: its key hashed (FNV-1a, 32 bits), modulo the
// partition count. Stable across hosts, processes and releases: every host sharing a store agrees.
import { refKey, type AggregateRef } from "./aggregate-ref.js";

export function partitionOf(aggregate: AggregateRef, partitions: number): number {
  if (partitions <= 1) return 0;
  const key = refKey(aggregate);
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % partitions;
}
