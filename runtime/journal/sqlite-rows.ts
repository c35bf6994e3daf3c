import { refKey, sameRef, type AggregateRef } from "../model/aggregate-ref.js";
import type { Causation, CommandDraft, EventMessage } from "../model/messages.js";
import type { ScheduleRule } from "../model/schedule-rule.js";
import { UnstorableCommitError, type Commit, type TimerRow, type TimerSpec } from "./journal.js";

/**
 * How messages are stored in SQLite rows: a row's JSON holds only what its columns do not (the
 * aggregate is the `stream` / `owner` key; version, sequence and type are columns), so rows stay small.
 */

/** An event's `data`: what is not in its row's columns. `requestId` is left out when it equals `commandId`. */
interface EventData {
  readonly i: string;
  readonly b: unknown;
  readonly c: string;
  readonly r?: string;
  readonly t: number;
}

export function eventData(event: EventMessage): string {
  // Two literal shapes (no spread): JSON.stringify's fast path for plain objects.
  const data: EventData =
    event.requestId === event.commandId
      ? { i: event.eventId, b: event.body, c: event.commandId, t: event.createdAt }
      : { i: event.eventId, b: event.body, c: event.commandId, r: event.requestId, t: event.createdAt };
  return JSON.stringify(data);
}

/** `event` as committed at `position`, in one literal of the event's shape (a spread would copy through the slow path). */
export function atPosition(event: EventMessage, position: number): EventMessage {
  return { eventId: event.eventId, type: event.type, body: event.body, aggregate: event.aggregate, version: event.version, sequence: event.sequence, commandId: event.commandId, requestId: event.requestId, createdAt: event.createdAt, position };
}

/** An event row: position, version, sequence, type, data (raw, in that order). */
export type EventRecord = [position: number, version: number, sequence: number, type: string, data: string];

export function toEvent([position, version, sequence, type, json]: EventRecord, aggregate: AggregateRef): EventMessage {
  const data = JSON.parse(json) as EventData;
  return { eventId: data.i, type, body: data.b, aggregate, version, sequence, commandId: data.c, requestId: data.r ?? data.c, createdAt: data.t, position };
}

/** The aggregate a `refKey` names. */
export function refOfKey(key: string): AggregateRef {
  const [context, aggregate, tenantId, id] = JSON.parse(key) as [string, string, string, string];
  return { context, aggregate, tenantId, id };
}

/**
 * A timer's `spec`: rule, command and causation. Its target is the row's `target` column (null when it is
 * the owner); the causation's aggregate is left out when it is the owner, its request id when it equals
 * its command id.
 */
interface SpecData {
  readonly rule: ScheduleRule;
  readonly command: CommandDraft;
  readonly causation: { readonly version: number; readonly commandId: string; readonly requestId?: string; readonly aggregate?: AggregateRef };
}

export function timerSpecData(t: TimerSpec): string {
  const { aggregate, version, commandId, requestId } = t.causation;
  const causation: SpecData["causation"] = {
    version,
    commandId,
    ...(requestId === commandId ? {} : { requestId }),
    ...(sameRef(aggregate, t.owner) ? {} : { aggregate }),
  };
  const data: SpecData = { rule: t.rule, command: t.command, causation };
  return JSON.stringify(data);
}

/** The spec of a timer row written before schema version 2 (target and causation in full, in the spec). */
interface SpecDataV1 {
  readonly rule: ScheduleRule;
  readonly command: CommandDraft;
  readonly target?: AggregateRef;
  readonly causation: Omit<Causation, "aggregate"> & { readonly aggregate?: AggregateRef };
}

/** Schema version 2's `target` column and `spec` of a version 1 row. */
export function timerRowV2(specV1: string): { target: string | null; spec: string } {
  const old = JSON.parse(specV1) as SpecDataV1;
  const { aggregate, version, commandId, requestId } = old.causation;
  const causation: SpecData["causation"] = {
    version,
    commandId,
    ...(requestId === commandId ? {} : { requestId }),
    ...(aggregate === undefined ? {} : { aggregate }),
  };
  const data: SpecData = { rule: old.rule, command: old.command, causation };
  return { target: old.target === undefined ? null : refKey(old.target), spec: JSON.stringify(data) };
}

/** A commit's JSON: each event's `data`, and each timer change's `spec` (undefined for a cancel). */
export interface CommitData {
  readonly events: readonly string[];
  readonly specs: readonly (string | undefined)[];
}

/**
 * Serializes a commit's events and timer specs before its transaction: a value JSON cannot hold throws
 * UnstorableCommitError here, failing that commit alone instead of the transaction it would share.
 */
export function commitData(commit: Commit): CommitData {
  const fail = (what: string, error: unknown): never => {
    throw new UnstorableCommitError(commit.aggregate, commit.request.requestId, what, error);
  };
  const events = commit.events.map((event) => {
    try {
      return eventData(event);
    } catch (error) {
      return fail(`the body of event ${event.type}`, error);
    }
  });
  const specs = commit.timers.map((change) => {
    if (change.kind !== "set") return undefined;
    try {
      return timerSpecData(change.timer);
    } catch (error) {
      return fail(`the command of schedule ${change.timer.key}`, error);
    }
  });
  return { events, specs };
}

/** A timer row as read (raw, in `TIMER_COLUMNS` order: no per-row object keyed by column name). */
export type TimerRecord = [
  id: string,
  owner: string,
  spec: string,
  key: string,
  slot: number,
  due: number,
  fireAt: number,
  status: number,
  attempts: number,
  lastError: string | null,
  parkedAt: number | null,
  target: string | null,
];

export const TIMER_COLUMNS = "id, owner, spec, key, slot, due, fire_at, status, attempts, last_error, parked_at, target";

/** `refs` caches refs by key across the rows of one read (a batch's timers often share owners and targets). */
export function toTimer(
  [id, ownerKey, specJson, key, slot, due, fireAt, status, attempts, lastError, parkedAt, targetKey]: TimerRecord,
  refs: Map<string, AggregateRef> = new Map(),
): TimerRow {
  const owner = cachedRef(ownerKey, refs);
  const spec = JSON.parse(specJson) as SpecData;
  const c = spec.causation;
  const row: { -readonly [K in keyof TimerRow]: TimerRow[K] } = {
    id,
    owner,
    key,
    rule: spec.rule,
    command: spec.command,
    target: targetKey === null ? owner : cachedRef(targetKey, refs),
    causation: { aggregate: c.aggregate ?? owner, version: c.version, commandId: c.commandId, requestId: c.requestId ?? c.commandId },
    slot,
    due,
    status: status === 1 ? "parked" : "pending",
    fireAt,
    attempts,
  };
  if (lastError !== null) row.lastError = lastError;
  if (parkedAt !== null) row.parkedAt = parkedAt;
  return row;
}

function cachedRef(key: string, refs: Map<string, AggregateRef>): AggregateRef {
  let ref = refs.get(key);
  if (ref === undefined) {
    ref = refOfKey(key);
    refs.set(key, ref);
  }
  return ref;
}
