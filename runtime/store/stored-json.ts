import { sameRef, type AggregateRef } from "../model/aggregate-ref.js";
import type { CommandDraft, EventMessage } from "../model/messages.js";
import type { ScheduleRule } from "../model/schedule-rule.js";
import { UnstorableCommitError } from "./errors.js";
import type { Commit, TimerSpec } from "./event-store.js";

/**
 * How messages are stored as JSON beside a row's columns: the JSON holds only what the columns do not
 * (the aggregate is the `stream` / `owner` key; version, sequence and type are columns), so rows stay
 * small. What a store keeps is exactly what this JSON gives back (`commitData` refuses the rest).
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

/** An event row's columns (besides its stream). */
export interface EventColumns {
  readonly position: number;
  readonly version: number;
  readonly sequence: number;
  readonly type: string;
  /** `eventData`'s JSON. */
  readonly data: string;
}

export function toEvent(row: EventColumns, aggregate: AggregateRef): EventMessage {
  const data = JSON.parse(row.data) as EventData;
  return { eventId: data.i, type: row.type, body: data.b, aggregate, version: row.version, sequence: row.sequence, commandId: data.c, requestId: data.r ?? data.c, createdAt: data.t, position: row.position };
}

/**
 * A timer's `spec`: rule, command and causation. Its target is the row's `target` column (null when it is
 * the owner); the causation's aggregate is left out when it is the owner, its request id when it equals
 * its command id.
 */
export interface SpecData {
  readonly rule: ScheduleRule;
  readonly command: CommandDraft;
  readonly causation: { readonly version: number; readonly commandId: string; readonly requestId?: string; readonly aggregate?: AggregateRef };
}

/** The spec JSON of a set timer. */
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

/** A commit's JSON: each event's `data`, and each timer change's `spec` (undefined for a cancel). */
export interface CommitData {
  readonly events: readonly string[];
  readonly specs: readonly (string | undefined)[];
  /** The snapshot's state as JSON; none without one, or when JSON cannot hold the state (a snapshot is only a shortcut). */
  readonly snapshot?: string | undefined;
}

/**
 * Serializes a commit's events and timer specs before its transaction: a value that a JSON round trip
 * would not give back as it is (see UnstorableCommitError), or an event type that is not a non-empty
 * string, throws UnstorableCommitError here, failing that commit alone instead of the transaction it
 * would share. The memory journal stores what this JSON gives back, so both journals hold the same values.
 */
export function commitData(commit: Commit): CommitData {
  const fail = (where: string, problem: string, cause?: unknown): never => {
    throw new UnstorableCommitError(commit.aggregate, commit.request.requestId, where, problem, cause);
  };
  const events = commit.events.map((event, i) => {
    const type: unknown = event.type;
    if (typeof type !== "string" || type === "") return fail(`event ${i + 1}`, `type: ${shown(type)}, not a non-empty string`);
    try {
      const problem = notJson(event.body, "body");
      if (problem !== undefined) return fail(`event ${i + 1} (${type})`, problem);
      return eventData(event);
    } catch (error) {
      if (error instanceof UnstorableCommitError) throw error;
      return fail(`event ${i + 1} (${type})`, `body: not JSON (${error instanceof Error ? error.message : String(error)})`, error);
    }
  });
  const specs = commit.timers.map((change) => {
    if (change.kind !== "set") return undefined;
    const { timer } = change;
    try {
      const problem = notJson(timer.command, "command") ?? notJson(timer.rule, "rule");
      if (problem !== undefined) return fail(`schedule ${timer.key}`, problem);
      return timerSpecData(timer);
    } catch (error) {
      if (error instanceof UnstorableCommitError) throw error;
      return fail(`schedule ${timer.key}`, `not JSON (${error instanceof Error ? error.message : String(error)})`, error);
    }
  });
  const state = commit.snapshot?.state;
  const snapshot = commit.snapshot === undefined || notJson(state, "state") !== undefined ? undefined : JSON.stringify(state);
  return { events, specs, snapshot };
}

/** Where a walk found a value JSON would not give back: what it is, and the keys down to it (innermost first). */
class NotJson {
  readonly keys: (string | number)[] = [];
  constructor(readonly what: string) {}
}

/**
 * Why `value` (named `root`) would not come back as it is from a JSON round trip, as `path: what`
 * (e.g. `body.since: a Date`); undefined when it would (an `undefined` object property, or an
 * undefined `value`, is left out as JSON leaves it out; -0 comes back as 0). One walk, no allocation
 * unless it finds something: it runs on every commit, before `JSON.stringify` (see the timers bench).
 */
export function notJson(value: unknown, root: string): string | undefined {
  if (value === undefined) return undefined;
  const found = walk(value, []);
  if (found === undefined) return undefined;
  let path = root;
  for (let i = found.keys.length - 1; i >= 0; i--) {
    const key = found.keys[i]!;
    path += typeof key === "number" ? `[${key}]` : IDENTIFIER.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
  }
  return `${path}: ${found.what}`;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** `ancestors`: the arrays and objects `value` is inside (a cycle would never end; JSON.stringify refuses it too). */
function walk(value: unknown, ancestors: object[]): NotJson | undefined {
  switch (typeof value) {
    case "string":
    case "boolean":
      return undefined;
    case "number":
      return Number.isFinite(value) ? undefined : new NotJson(`${String(value)} (JSON holds it as null)`);
    case "object":
      break;
    case "undefined":
      return new NotJson("undefined (JSON holds it as null in an array)");
    case "bigint":
      return new NotJson("a BigInt");
    case "function":
      return new NotJson("a function");
    default:
      return new NotJson(`a ${typeof value}`);
  }
  if (value === null) return undefined;
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto === Array.prototype) {
    if (ancestors.includes(value)) return new NotJson("a cycle (an array inside itself)");
    ancestors.push(value);
    const array = value as unknown[];
    for (let i = 0; i < array.length; i++) {
      const item = array[i];
      if (typeof item === "string" || typeof item === "boolean") continue;
      const found = walk(item, ancestors);
      if (found !== undefined) {
        found.keys.push(i);
        return found;
      }
    }
    ancestors.pop();
    return undefined;
  }
  if (proto === Object.prototype || proto === null) {
    if (ancestors.includes(value)) return new NotJson("a cycle (an object inside itself)");
    ancestors.push(value);
    const object = value as Record<string, unknown>;
    for (const key in object) {
      const item = object[key];
      if (item === undefined || typeof item === "string" || typeof item === "boolean") continue;
      const found = walk(item, ancestors);
      if (found !== undefined) {
        found.keys.push(key);
        return found;
      }
    }
    ancestors.pop();
    return undefined;
  }
  return new NotJson(instanceName(value, proto));
}

/** "a Date", "a Map", "an Uint8Array", "a Money": what an object that is not a plain object or array is. */
function instanceName(value: object, proto: unknown): string {
  if (Array.isArray(value)) return "an array of a subclass (it comes back a plain array)";
  const name = (proto as { constructor?: { name?: unknown } } | null)?.constructor?.name;
  const shownName = typeof name === "string" && name !== "" ? name : "object with a prototype";
  return `${/^[AEIO]/.test(shownName) ? "an" : "a"} ${shownName}${shownName === "Date" ? " (store its ISO string or epoch ms)" : ""}`;
}

/** A value an event's type should have been, shown in a message (never throws: no `String` of an object). */
function shown(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "symbol") return value.toString();
  if (typeof value === "function") return "a function";
  if (typeof value === "object") return value === null ? "null" : "an object";
  return String(value);
}

/** The timer a row holds: its columns and its spec JSON (`timerSpecData`); `target`: the owner when the row has none. */
export function specFromData(json: string, owner: AggregateRef, target: AggregateRef | undefined): Pick<TimerSpec, "rule" | "command" | "target" | "causation"> {
  const spec = JSON.parse(json) as SpecData;
  const c = spec.causation;
  return {
    rule: spec.rule,
    command: spec.command,
    target: target ?? owner,
    causation: { aggregate: c.aggregate ?? owner, version: c.version, commandId: c.commandId, requestId: c.requestId ?? c.commandId },
  };
}
