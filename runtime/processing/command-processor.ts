import type { Clock } from "../clock.js";
import { DuplicateRequestError, VersionConflictError, type Journal } from "../journal/journal.js";
import type { CommandResult } from "../model/command-result.js";
import { eventsOf } from "../model/decision.js";
import { CommandRejected, ErrorCodes } from "../model/errors.js";
import type { CommandMessage, EventMessage } from "../model/messages.js";
import { servicesFor, type AggregateRegistration, type Services } from "../model/registration.js";
import { cronNext as defaultCronNext, type CronNext } from "../timers/cron-next.js";
import { buildCommit } from "./commit-builder.js";
import { guardCommand } from "./command-guard.js";
import { commandResult, duplicateMessage, unroutableResult } from "./command-results.js";
import { AggregateRegistry, type CommandRoute } from "./registry.js";
import { ScopeRecorder } from "./scope-recorder.js";
import { timeOrderedId } from "./time-ordered-id.js";

export interface CommandProcessorOptions {
  readonly journal: Journal;
  readonly aggregates: readonly AggregateRegistration[];
  readonly clock: Clock;
  /** Services by name; a handler gets the ones its registration lists. */
  readonly services?: Services;
  /** Retries of a command whose append hit a version conflict (default 5). */
  readonly maxConflictRetries?: number;
  /** Event (and timer) ids; default time-ordered UUIDs (v7). */
  readonly newId?: () => string;
  readonly cronNext?: CronNext;
}

export const DEFAULT_CONFLICT_RETRIES = 5;

/** Something that takes commands: the processor, or a test's wrapper around it. */
export type CommandSender = (command: CommandMessage) => Promise<CommandResult>;

/**
 * Decides commands: load (replay), guard (create/delete/duplicate), decide, and commit events with
 * schedule changes in one append. Rejections are results; any other exception is a technical
 * failure and rejects the returned promise (nothing was committed).
 */
export class CommandProcessor {
  private readonly registry: AggregateRegistry;
  private readonly journal: Journal;
  private readonly clock: Clock;
  private readonly services: Services;
  private readonly maxConflictRetries: number;
  private readonly newId: () => string;
  private readonly cronNext: CronNext;

  constructor(options: CommandProcessorOptions) {
    this.registry = new AggregateRegistry(options.aggregates);
    this.journal = options.journal;
    this.clock = options.clock;
    this.services = options.services ?? {};
    this.maxConflictRetries = options.maxConflictRetries ?? DEFAULT_CONFLICT_RETRIES;
    this.newId = options.newId ?? (() => timeOrderedId());
    this.cronNext = options.cronNext ?? defaultCronNext;
  }

  /** Bound, so it can be passed around as a CommandSender. */
  readonly send: CommandSender = async (command) => {
    const route = this.registry.route(command.type, command.aggregate);
    if (!route || route.aggregate.context !== command.aggregate.context || route.aggregate.aggregate !== command.aggregate.aggregate) {
      return unroutableResult(command);
    }
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.decideOnce(route, command);
      } catch (error) {
        if (error instanceof DuplicateRequestError) return this.duplicate(command);
        if (!(error instanceof VersionConflictError)) throw error;
        if (attempt >= this.maxConflictRetries) {
          return commandResult(command, "rejected", ErrorCodes.EventVersionConflict, error.message, error.actual);
        }
      }
    }
  };

  private async decideOnce(route: CommandRoute, command: CommandMessage): Promise<CommandResult> {
    const ref = command.aggregate;
    const { decided, stream } = await this.journal.loadForDecision(ref, command.requestId);
    if (decided) return this.duplicate(command, decided.version);
    const guard = guardCommand(route, stream.version, stream.deleted);
    if (guard) return this.rejected(command, guard.code, guard.message, stream.version);
    const state = replay(route.aggregate, stream.events);
    const scope = new ScopeRecorder(this.clock.now());
    let decision;
    try {
      decision = await route.command.decide(state, command, scope, servicesFor(route.command.services, this.services, command.type));
    } catch (error) {
      if (error instanceof CommandRejected) return this.rejected(command, error.code, error.message, stream.version);
      throw error;
    }
    let commit;
    try {
      commit = buildCommit({
        command,
        expectedVersion: stream.version,
        events: eventsOf(decision),
        schedules: scope.changes,
        deletes: route.command.delete === true,
        now: this.clock.now(),
        newId: this.newId,
        cronNext: this.cronNext,
      });
    } catch (error) {
      if (error instanceof CommandRejected) return this.rejected(command, error.code, error.message, stream.version);
      throw error;
    }
    const appended = await this.journal.append(commit);
    return commandResult(command, "decided", ErrorCodes.Ok, "", appended.version, appended.events);
  }

  /** A rejection is recorded under its request id, so a re-send is a duplicate and is not decided again. */
  private async rejected(command: CommandMessage, code: string, message: string, version: number): Promise<CommandResult> {
    try {
      await this.journal.append({ aggregate: command.aggregate, events: [], timers: [], request: { requestId: command.requestId, version, errorCode: code } });
    } catch (error) {
      if (error instanceof DuplicateRequestError) return this.duplicate(command);
      throw error;
    }
    return commandResult(command, "rejected", code, message, version);
  }

  private async duplicate(command: CommandMessage, version?: number): Promise<CommandResult> {
    const seenVersion = version ?? (await this.journal.findRequest(command.aggregate, command.requestId))?.version ?? 0;
    return commandResult(command, "duplicate", ErrorCodes.DuplicateRequestId, duplicateMessage(command.requestId), seenVersion);
  }
}

/** Folds domain events into state; system events (`wow.*`) touch it only where the registration has an applier for them. */
export function replay<S>(registration: AggregateRegistration<S>, events: readonly EventMessage[]): S {
  let state = registration.initialState();
  for (const event of events) {
    const apply = registration.events[event.type];
    if (apply) state = apply(state, event);
  }
  return state;
}
