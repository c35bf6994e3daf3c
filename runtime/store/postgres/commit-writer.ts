// Commits (a group of appends, or a timer batch's entries with their settlements) written in one
// transaction, one statement per table: the streams they write are locked and read, every commit is
// checked against them in JS by the rules every store shares (`commitEntries`), and what passed is
// written with `unnest` arrays. Positions are reserved last, just before the events are inserted.
import type { EventMessage } from "../../model/messages.js";
import { sameRef } from "../../model/aggregate-ref.js";
import { commitEntries } from "../batch-rules.js";
import { DuplicateRequestError, UnstorableCommitError, VersionConflictError } from "../errors.js";
import type { AppendResult, Commit, TimerSpec } from "../event-store.js";
import { atPosition, commitData, type CommitData } from "../stored-json.js";
import type { BatchEntry, BatchOutcome, TimerSettlement } from "../timer-store.js";
import type { PgConnection, Transaction } from "./connection.js";

/** A batch entry's JSON (`commitData`), or why it cannot be stored; undefined without a commit. */
export type EntryData = CommitData | UnstorableCommitError | undefined;

/** The entries' JSON, made before the transaction: an entry that cannot be stored is refused alone. */
export function entriesData(entries: readonly BatchEntry[]): EntryData[] {
  return entries.map(({ commit }): EntryData => {
    if (commit === undefined) return undefined;
    try {
      return commitData(commit);
    } catch (error) {
      if (error instanceof UnstorableCommitError) return error;
      throw error;
    }
  });
}

interface StreamState {
  version: number;
  deleted: boolean;
}

/** A timer change as it ends up for one owner: its keys set (a spec) or cancelled (null), after dropping all its timers first or not. */
interface OwnerTimers {
  cancelAll: boolean;
  readonly keys: Map<string, { readonly timer: TimerSpec; readonly spec: string } | null>;
}

/** The rows a transaction writes, gathered while its commits are checked. */
class Rows {
  readonly requests: [string[], string[], number[], string[]] = [[], [], [], []];
  /** Events, in commit order: their positions are the reserved range's, in this order. */
  readonly events: { stream: string; event: EventMessage; data: string }[] = [];
  readonly streams = new Map<string, StreamState>();
  readonly timers = new Map<string, OwnerTimers>();
  readonly snapshots = new Map<string, { version: number; state: string }>();
  /** Each appended commit's result and the index of its first event in `events`. */
  readonly appended: { result: AppendResult; first: number }[] = [];
}

/** What a claim wrote, for fencing: its owner and each timer's claim token (`claims` as the claim set it). */
export interface PgClaim {
  readonly owner: string;
  readonly claims: ReadonlyMap<string, number>;
}

/**
 * Checks and writes `entries` in the caller's transaction; a refused commit writes nothing of its entry
 * (its settlement is not applied), nor does one whose timer `claim` no longer holds, as `TimerStore.commitBatch`
 * says. `slots`: false for appends, whose entries settle nothing.
 */
export async function writeEntries(c: PgConnection, tx: Transaction, entries: readonly BatchEntry[], data: readonly EntryData[], slots = true, claim?: PgClaim): Promise<BatchOutcome[]> {
  const sql = c.sql;
  const streamKeys = new Set<string>();
  const pairs: [string[], string[]] = [[], []];
  for (const { commit } of entries) {
    if (commit === undefined) continue;
    const key = c.keyOf(commit.aggregate);
    streamKeys.add(key);
    pairs[0].push(key);
    pairs[1].push(commit.request.requestId);
  }
  const streams = new Map<string, StreamState>();
  const recorded = new Set<string>();
  if (streamKeys.size > 0) {
    const keys = [...streamKeys].sort();
    await tx.run(sql.ensureStreams, [keys]);
    for (const row of await tx.query<{ stream: string; version: number; deleted: boolean }>(sql.lockStreams, [keys])) streams.set(row.stream, { version: row.version, deleted: row.deleted });
    for (const row of await tx.query<{ stream: string; request_id: string }>(sql.recordedRequests, pairs)) recorded.add(requestKey(row.stream, row.request_id));
  }
  // After the streams, as every commit locks them before its timers.
  const lost = claim === undefined ? new Set<string>() : await lostClaims(c, tx, claim, entries.map((e) => e.settlement));
  const rows = new Rows();
  const settlements: TimerSettlement[] = [];
  const outcomes = commitEntries(entries, {
    keyOf: (ref) => c.keyOf(ref),
    append: (commit, index) => check(c, commit, data[index]!, streams, recorded, rows),
    lost: (s) => lost.has(s.id),
    settle: (s) => {
      if (slots) settlements.push(...s);
    },
  });
  await writeRows(c, tx, rows, settlements);
  if (rows.events.length === 0) return outcomes;
  const [{ last }] = (await tx.query<{ last: number }>(sql.reservePositions, [rows.events.length])) as [{ last: number }];
  const first = last - rows.events.length + 1;
  await tx.run(sql.insertEvents, [
    rows.events.map((_, i) => first + i),
    rows.events.map((e) => e.stream),
    rows.events.map((e) => e.event.version),
    rows.events.map((e) => e.event.sequence),
    rows.events.map((e) => e.event.type),
    rows.events.map((e) => e.data),
  ]);
  // Each appended commit's events, at their positions.
  for (const { result, first: at } of rows.appended) {
    const events = result.events as EventMessage[];
    for (let i = 0; i < events.length; i++) events[i] = atPosition(events[i]!, first + at + i);
  }
  return outcomes;
}

/** One commit checked against the streams as locked (and as the commits before it in the transaction left them), its rows gathered. */
function check(c: PgConnection, commit: Commit, data: CommitData | UnstorableCommitError, streams: Map<string, StreamState>, recorded: Set<string>, rows: Rows): AppendResult {
  if (data instanceof UnstorableCommitError) throw data;
  const key = c.keyOf(commit.aggregate);
  const stream = streams.get(key) ?? { version: 0, deleted: false };
  if (commit.expectedVersion !== undefined && stream.version !== commit.expectedVersion) throw new VersionConflictError(commit.aggregate, commit.expectedVersion, stream.version);
  const { request } = commit;
  const recordedKey = requestKey(key, request.requestId);
  if (recorded.has(recordedKey)) throw new DuplicateRequestError(commit.aggregate, request.requestId);
  recorded.add(recordedKey);
  rows.requests[0].push(key);
  rows.requests[1].push(request.requestId);
  rows.requests[2].push(request.version);
  rows.requests[3].push(request.errorCode);
  const first = rows.events.length;
  commit.events.forEach((event, i) => rows.events.push({ stream: key, event, data: data.events[i]! }));
  const version = commit.events.length > 0 ? commit.events[0]!.version : stream.version;
  const next = { version, deleted: stream.deleted || commit.deleted === true };
  if (next.version !== stream.version || next.deleted !== stream.deleted) rows.streams.set(key, next);
  streams.set(key, next);
  changeTimers(key, commit, data, rows);
  if (data.snapshot !== undefined) {
    const held = rows.snapshots.get(key);
    if (held === undefined || held.version < commit.snapshot!.version) rows.snapshots.set(key, { version: commit.snapshot!.version, state: data.snapshot });
  }
  const result: AppendResult = { version, events: [...commit.events] };
  rows.appended.push({ result, first });
  return result;
}

/** A commit's schedule changes, folded into what each owner's timers end up as. */
function changeTimers(owner: string, commit: Commit, data: CommitData, rows: Rows): void {
  commit.timers.forEach((change, i) => {
    let timers = rows.timers.get(owner);
    if (timers === undefined) rows.timers.set(owner, (timers = { cancelAll: false, keys: new Map() }));
    if (change.kind === "cancelAll") {
      timers.cancelAll = true;
      timers.keys.clear();
    } else if (change.kind === "cancel") timers.keys.set(change.key, null);
    else timers.keys.set(change.timer.key, { timer: change.timer, spec: data.specs[i]! });
  });
}

/** Everything but the events: requests, schedule changes, settlements, snapshots, stream versions. */
async function writeRows(c: PgConnection, tx: Transaction, rows: Rows, settlements: readonly TimerSettlement[]): Promise<void> {
  const sql = c.sql;
  if (rows.requests[0].length > 0) await tx.run(sql.insertRequests, rows.requests);
  const dropAll: string[] = [];
  const cancels: [string[], string[]] = [[], []];
  const sets: [string[], string[], string[], (string | null)[], string[], number[], number[], string[], string[], string[]] = [[], [], [], [], [], [], [], [], [], []];
  for (const [owner, timers] of rows.timers) {
    if (timers.cancelAll) dropAll.push(owner);
    for (const [key, set] of timers.keys) {
      if (set === null) {
        if (!timers.cancelAll) {
          cancels[0].push(owner);
          cancels[1].push(key);
        }
        continue;
      }
      const t = set.timer;
      // A key set again after a cancel in the same transaction replaces the row the upsert finds.
      sets[0].push(t.id);
      sets[1].push(owner);
      sets[2].push(key);
      sets[3].push(sameRef(t.target, t.owner) ? null : c.keyOf(t.target));
      sets[4].push(set.spec);
      sets[5].push(t.slot);
      sets[6].push(t.due);
      sets[7].push(t.command.type);
      sets[8].push(t.owner.tenantId);
      sets[9].push(t.owner.id);
    }
  }
  if (dropAll.length > 0) await tx.run(sql.cancelTimersOf, [dropAll]);
  if (cancels[0].length > 0) await tx.run(sql.cancelTimers, cancels);
  if (sets[0].length > 0) await tx.run(sql.setTimers, sets);
  await settle(c, tx, settlements);
  if (rows.snapshots.size > 0) {
    const entries = [...rows.snapshots];
    await tx.run(sql.saveSnapshots, [entries.map(([k]) => k), entries.map(([, s]) => s.version), entries.map(([, s]) => s.state)]);
  }
  if (rows.streams.size > 0) {
    const entries = [...rows.streams];
    await tx.run(sql.updateStreams, [entries.map(([k]) => k), entries.map(([, s]) => s.version), entries.map(([, s]) => s.deleted)]);
  }
}

/**
 * Locks the timers `claim` claimed for these settlements, until the transaction ends (no claim can take
 * them meanwhile), and returns the ids another claim has taken since: those must not be written.
 */
export async function lostClaims(c: PgConnection, tx: Transaction, claim: PgClaim, settlements: readonly TimerSettlement[]): Promise<Set<string>> {
  const ids: string[] = [];
  const tokens: number[] = [];
  for (const { id } of settlements) {
    const token = claim.claims.get(id);
    if (token === undefined) continue;
    ids.push(id);
    tokens.push(token);
  }
  const lost = new Set<string>();
  if (ids.length === 0) return lost;
  for (const row of await tx.query<{ id: string; lost: boolean }>(c.sql.holdClaims, [ids, tokens, claim.owner])) if (row.lost) lost.add(row.id);
  return lost;
}

/** Settles slots in the caller's transaction, one statement per kind of ending. */
export async function settle(c: PgConnection, tx: Transaction, settlements: readonly TimerSettlement[]): Promise<void> {
  const done: [string[], number[]] = [[], []];
  const next: [string[], number[], number[], number[]] = [[], [], [], []];
  const retry: [string[], number[], number[], number[], string[]] = [[], [], [], [], []];
  const park: [string[], number[], number[], string[], number[]] = [[], [], [], [], []];
  for (const { id, slot, outcome } of settlements) {
    switch (outcome.kind) {
      case "done":
        done[0].push(id);
        done[1].push(slot);
        break;
      case "next":
        next[0].push(id);
        next[1].push(slot);
        next[2].push(outcome.slot);
        next[3].push(outcome.due);
        break;
      case "retry":
        retry[0].push(id);
        retry[1].push(slot);
        retry[2].push(outcome.attempts);
        retry[3].push(outcome.fireAt);
        retry[4].push(outcome.error);
        break;
      case "park":
        park[0].push(id);
        park[1].push(slot);
        park[2].push(outcome.attempts);
        park[3].push(outcome.error);
        park[4].push(outcome.at);
        break;
    }
  }
  const sql = c.sql;
  if (done[0].length > 0) await tx.run(sql.settleDone, done);
  if (next[0].length > 0) await tx.run(sql.settleNext, next);
  if (retry[0].length > 0) await tx.run(sql.settleRetry, retry);
  if (park[0].length > 0) await tx.run(sql.settlePark, park);
}

function requestKey(stream: string, requestId: string): string {
  return `${stream}\u0000${requestId}`;
}
