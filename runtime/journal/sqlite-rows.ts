import { sameRef, type AggregateRef } from "../model/aggregate-ref.js";
import type { Causation, CommandDraft, EventMessage } from "../model/messages.js";
import type { ScheduleRule } from "../model/schedule-rule.js";
import type { TimerRow, TimerSpec } from "./journal.js";

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
  const data: EventData = { i: event.eventId, b: event.body, c: event.commandId, ...(event.requestId === event.commandId ? {} : { r: event.requestId }), t: event.createdAt };
  return JSON.stringify(data);
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

/** A timer's `spec`: target and causation's aggregate are left out when they are its owner. */
interface SpecData {
  readonly rule: ScheduleRule;
  readonly command: CommandDraft;
  readonly target?: AggregateRef;
  readonly causation: Omit<Causation, "aggregate"> & { readonly aggregate?: AggregateRef };
}

export function timerSpecData(t: TimerSpec): string {
  const { aggregate, ...causation } = t.causation;
  const data: SpecData = {
    rule: t.rule,
    command: t.command,
    ...(sameRef(t.target, t.owner) ? {} : { target: t.target }),
    causation: sameRef(aggregate, t.owner) ? causation : { ...causation, aggregate },
  };
  return JSON.stringify(data);
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
];

export const TIMER_COLUMNS = "id, owner, spec, key, slot, due, fire_at, status, attempts, last_error, parked_at";

/** `owners` caches owner keys' refs across the rows of one read (a batch's timers often share owners). */
export function toTimer(
  [id, ownerKey, specJson, key, slot, due, fireAt, status, attempts, lastError, parkedAt]: TimerRecord,
  owners: Map<string, AggregateRef> = new Map(),
): TimerRow {
  let owner = owners.get(ownerKey);
  if (owner === undefined) {
    owner = refOfKey(ownerKey);
    owners.set(ownerKey, owner);
  }
  const spec = JSON.parse(specJson) as SpecData;
  return {
    id,
    owner,
    key,
    rule: spec.rule,
    command: spec.command,
    target: spec.target ?? owner,
    causation: { aggregate: spec.causation.aggregate ?? owner, version: spec.causation.version, commandId: spec.causation.commandId, requestId: spec.causation.requestId },
    slot,
    due,
    status: status === 1 ? "parked" : "pending",
    fireAt,
    attempts,
    ...(lastError === null ? {} : { lastError }),
    ...(parkedAt === null ? {} : { parkedAt }),
  };
}
