import type { AggregateRef } from "../model/aggregate-ref.js";
import { isCommitRefusal, VersionConflictError } from "./errors.js";
import type { AppendResult, Commit } from "./event-store.js";
import type { BatchEntry, BatchOutcome, TimerSettlement } from "./timer-store.js";

/** What `commitBatch` needs of a store, all inside its one transaction. */
export interface BatchWriter {
  keyOf(aggregate: AggregateRef): string;
  /** Checks first, then writes: throws VersionConflictError / DuplicateRequestError / UnstorableCommitError having written nothing. `index`: the entry's. */
  append(commit: Commit, index: number): AppendResult;
  settle(settlements: readonly TimerSettlement[]): void;
  /** Whether the entry's timer is no longer held by the batch's claim (claimed again since). */
  lost?(settlement: TimerSettlement): boolean;
}

/**
 * The rules of `TimerStore.commitBatch`, for a store to run inside its transaction: commits in order, a
 * refused one skipped with its settlement and with every later commit of its aggregate; then the
 * settlements of the rest. An entry whose claim was lost is skipped the same way, reported `lost`.
 */
export function commitEntries(entries: readonly BatchEntry[], writer: BatchWriter): BatchOutcome[] {
  const refused = new Set<string>();
  const settlements: TimerSettlement[] = [];
  const outcomes = entries.map(({ commit, settlement }, index): BatchOutcome => {
    if (writer.lost?.(settlement) === true) {
      if (commit !== undefined) refused.add(writer.keyOf(commit.aggregate));
      return { ok: false, lost: true };
    }
    if (commit === undefined) {
      settlements.push(settlement);
      return { ok: true };
    }
    const key = writer.keyOf(commit.aggregate);
    if (refused.has(key)) return { ok: false, error: new VersionConflictError(commit.aggregate, commit.expectedVersion ?? -1, -1), untried: true };
    try {
      const appended = writer.append(commit, index);
      settlements.push(settlement);
      return { ok: true, appended };
    } catch (error) {
      if (!isCommitRefusal(error)) throw error;
      refused.add(key);
      return { ok: false, error };
    }
  });
  writer.settle(settlements);
  return outcomes;
}
