import type { DurationInput } from "./duration.js";
import type { CommandMessage, EventMessage } from "./messages.js";
import type { DecideScope } from "./decide-scope.js";
import type { Decision } from "./decision.js";

/** The services a handler asked for, by name. */
export type Services = Readonly<Record<string, unknown>>;

/** How one command type is decided. Plain data + functions: generated `define…` wrappers produce it. */
/**
 * Attempts and backoff after technical failures (`@Retry`, `retry = { … }`): after the n-th failure
 * the next attempt waits min(maxBackoff, backoff · 2^(n-1)); after `maxAttempts` the work is parked.
 * Absent fields take the host's defaults (`wow.timers`).
 */
export interface RetryPolicy {
  readonly maxAttempts?: number;
  /** The first delay (ms, or a duration such as "1s"). */
  readonly backoff?: DurationInput;
  readonly maxBackoff?: DurationInput;
}

export interface CommandRegistration<S = any, B = any> {
  /** `@CreateAggregate`: only starts a new aggregate. */
  readonly create?: boolean;
  /** `@DeleteAggregate`: deletes the aggregate after its events (cancelling its pending schedules). */
  readonly delete?: boolean;
  /** Only an aggregate that exists (has committed at least once) takes it; else `NotFound`. */
  readonly existing?: boolean;
  /** Names of the services the handler gets. */
  readonly services?: readonly string[];
  /** The event types its decision may produce (`@OnCommand(produces = …)`); absent: not checked. */
  readonly produces?: readonly string[];
  /** The command types its decision may schedule (`schedules = …`); absent: not checked. */
  readonly schedules?: readonly string[];
  /**
   * The JSON Schema (draft 2020-12) of the command's body as sent over HTTP, which the HTTP API checks
   * bodies against (`x-wow-decode` marks values it decodes: an instant to epoch ms, a duration to ms).
   */
  readonly bodySchema?: object;
  /** `@Retry` of a command a timer delivers: its attempts and backoff on technical failures (default `wow.timers`). */
  readonly retry?: RetryPolicy;
  decide(state: S, command: CommandMessage<B>, scope: DecideScope, services: Services): Decision | Promise<Decision>;
}

export type EventApplier<S = any, B = any> = (state: S, event: EventMessage<B>) => S;

export interface AggregateRegistration<S = any> {
  readonly context: string;
  readonly aggregate: string;
  initialState(): S;
  /** By fully qualified command type (`"<context>.<Name>"`). */
  readonly commands: Readonly<Record<string, CommandRegistration<S>>>;
  /** By fully qualified event type; an event without an applier leaves the state as it is. */
  readonly events: Readonly<Record<string, EventApplier<S>>>;
  /** Whether the aggregate marks a create command; derived from `commands` when left out. */
  readonly hasCreateCommand?: boolean;
  /**
   * Keep a snapshot of the state (as JSON) every `every` versions: a decision then folds only the
   * events after the latest snapshot, however long the stream grows (a job instance ticks for ever).
   */
  readonly snapshots?: { readonly every: number };
}

export function hasCreateCommand(registration: AggregateRegistration): boolean {
  return registration.hasCreateCommand ?? Object.values(registration.commands).some((command) => command.create === true);
}

/**
 * The services a handler lists, picked from the host's: what its `decide`, saga or job function
 * gets. A listed service the host does not provide is a host error, thrown with `who` (the command
 * type or the subscription) so the log says which handler needs it.
 */
export function servicesFor(names: readonly string[] | undefined, services: Services, who: string): Services {
  const picked: Record<string, unknown> = {};
  for (const name of names ?? []) {
    if (!(name in services)) throw new Error(`${who}: service ${name} is not provided by the host`);
    picked[name] = services[name];
  }
  return picked;
}
