// The one decision, for every caller (HTTP, `host.send`, timers, sagas, jobs; one command or a batch):
// what the command meets (its request's record, or the aggregate's stream), the sender's expected
// version, the create/delete guard, the handler on a fresh copy of the body, the declaration's limits,
// and the commit. Nothing is written here: the caller commits (one append, or a batch's one transaction).
import type { Clock } from "../clock.js";
import type { CronNext } from "../cron/cron-next.js";
import { eventsOf } from "../model/decision.js";
import { CommandRejected, UndeclaredOutputError } from "../model/errors.js";
import type { CommandMessage, EventMessage } from "../model/messages.js";
import type { CommandResult } from "../model/command-result.js";
import { servicesFor, type AggregateRegistration, type Services } from "../model/registration.js";
import type { AppendResult, Commit, DecisionInput, StoredStream } from "../store/event-store.js";
import { buildCommit } from "./commit-builder.js";
import { guardCommand } from "./command-guard.js";
import { commandResult, duplicateMessage } from "./command-results.js";
import type { CommandRoute } from "./registry.js";
import { ScopeRecorder } from "./scope-recorder.js";

export interface DecideOptions {
  readonly clock: Clock;
  /** Services by name; a handler gets the ones its registration lists. */
  readonly services: Services;
  /** Event (and timer) ids. */
  readonly newId: () => string;
  readonly cronNext: CronNext;
}

/** Wow's error code for a command whose `expectedVersion` (`Command-Aggregate-Version`) is not the aggregate's version (HTTP 409). */
export const CommandExpectVersionConflict = "CommandExpectVersionConflict";

/** What a decision came to. A technical failure (the handler threw, a declaration broken) is thrown instead. */
export type Decided =
  | { readonly kind: "duplicate"; readonly version: number }
  /** `commit`: the rejection recorded under the request id (so a re-send is a duplicate); none for a version the sender expected. */
  | { readonly kind: "rejected"; readonly code: string; readonly message: string; readonly version: number; readonly commit?: Commit }
  | { readonly kind: "decided"; readonly commit: Commit };

export async function decide(route: CommandRoute, command: CommandMessage, input: DecisionInput, options: DecideOptions): Promise<Decided> {
  if (input.decided) return { kind: "duplicate", version: input.decided.version };
  const { stream } = input;
  if (command.expectedVersion !== undefined && command.expectedVersion !== stream.version) {
    return expectConflict(command.expectedVersion, stream.version);
  }
  const guard = guardCommand(route, stream.version, stream.deleted);
  if (guard) return rejected(command, guard, stream.version);
  const state = stateOf(route.aggregate, stream);
  const scope = new ScopeRecorder(options.clock.now());
  let decision;
  try {
    decision = await route.command.decide(state, freshCopy(command), scope, servicesFor(route.command.services, options.services, command.type));
  } catch (error) {
    if (error instanceof CommandRejected) return rejected(command, error, stream.version);
    throw error;
  }
  const events = eventsOf(decision);
  checkDeclared(route, command.type, events, scope);
  try {
    const commit = buildCommit({
      command,
      expectedVersion: stream.version,
      events,
      schedules: scope.changes,
      deletes: route.command.delete === true,
      now: options.clock.now(),
      newId: options.newId,
      cronNext: options.cronNext,
    });
    return { kind: "decided", commit: withSnapshot(route.aggregate, stream, state, commit) };
  } catch (error) {
    if (error instanceof CommandRejected) return rejected(command, error, stream.version);
    throw error;
  }
}

/** The result of a decision, once its commit (if any) is appended. */
export function resultOf(command: CommandMessage, decided: Decided, appended?: AppendResult): CommandResult {
  switch (decided.kind) {
    case "duplicate":
      return commandResult(command, "duplicate", "DuplicateRequestId", duplicateMessage(command.requestId), decided.version);
    case "rejected":
      return commandResult(command, "rejected", decided.code, decided.message, decided.version);
    case "decided":
      return commandResult(command, "decided", "Ok", "", appended!.version, appended!.events);
  }
}

/** A version conflict with the command's `expectedVersion`: not recorded (nothing was decided; the same request may come again with the version it now expects). */
export function expectConflict(expected: number, actual: number): Decided {
  return { kind: "rejected", code: CommandExpectVersionConflict, message: `expected version ${expected}, the aggregate is at ${actual}`, version: actual };
}

/** A rejection is recorded under its request id (no version check), so a re-send is a duplicate and is not decided again. */
function rejected(command: CommandMessage, error: CommandRejected, version: number): Decided {
  const commit: Commit = { aggregate: command.aggregate, events: [], timers: [], request: { requestId: command.requestId, version, errorCode: error.code } };
  return { kind: "rejected", code: error.code, message: error.message, version, commit };
}

/** The declaration's limits (the generated registration lists them): an undeclared event or schedule fails the decision. */
function checkDeclared(route: CommandRoute, type: string, events: readonly { readonly type: string }[], scope: ScopeRecorder): void {
  const { produces, schedules } = route.command;
  if (produces !== undefined) {
    for (const event of events) if (!produces.includes(event.type)) throw new UndeclaredOutputError("UndeclaredEvent", type, String(event.type), produces);
  }
  if (schedules !== undefined) {
    for (const change of scope.changes) {
      if (change.kind === "set" && !schedules.includes(change.command.type)) throw new UndeclaredOutputError("UndeclaredSchedule", type, String(change.command.type), schedules);
    }
  }
}

/** Folds domain events into state; system events (`wow.*`) touch it only where the registration has an applier for them. */
export function replay<S>(registration: AggregateRegistration<S>, events: readonly EventMessage[], from: S = registration.initialState()): S {
  let state = from;
  for (const event of events) {
    const apply = registration.events[event.type];
    if (apply) state = apply(state, event);
  }
  return state;
}

/** The state a stream holds: its snapshot's (if it was read from one) with the events after it folded in. */
export function stateOf<S>(registration: AggregateRegistration<S>, stream: StoredStream): S {
  return stream.snapshot === undefined ? replay(registration, stream.events) : replay(registration, stream.events, stream.snapshot.state as S);
}

/** `commit` with the state after it as a snapshot, when the aggregate keeps them and one is due. */
function withSnapshot<S>(registration: AggregateRegistration<S>, stream: StoredStream, state: S, commit: Commit): Commit {
  const every = registration.snapshots?.every;
  const version = commit.request.version;
  if (every === undefined || commit.events.length === 0 || version - (stream.snapshot?.version ?? 0) < every) return commit;
  return { ...commit, snapshot: { version, state: replay(registration, commit.events, state) } };
}

/** The command as one attempt decides it: its body a deep copy of the caller's, so that changes made in place stay in that attempt. */
function freshCopy(command: CommandMessage): CommandMessage {
  const body = command.body;
  return typeof body !== "object" || body === null ? command : { ...command, body: copyData(body, new Map()) };
}

/**
 * A deep copy of plain data (objects, arrays, dates; cycles kept). Instances of other classes (a Map,
 * a domain value object) are shared as they are: copying them could lose their prototype or private
 * state.
 */
function copyData(value: unknown, seen: Map<object, unknown>): unknown {
  if (typeof value !== "object" || value === null) return value;
  const done = seen.get(value);
  if (done !== undefined) return done;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    seen.set(value, out);
    for (const item of value) out.push(copyData(item, seen));
    return out;
  }
  if (value instanceof Date) return new Date(value.getTime());
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  const out: Record<string, unknown> = proto === null ? Object.create(null) : {};
  seen.set(value, out);
  for (const key of Object.keys(value)) {
    const item = copyData((value as Record<string, unknown>)[key], seen);
    // A `__proto__` key (JSON.parse makes it an own property) must stay a property, not become the prototype.
    if (key === "__proto__") Object.defineProperty(out, key, { value: item, writable: true, enumerable: true, configurable: true });
    else out[key] = item;
  }
  return out;
}
