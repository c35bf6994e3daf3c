import type { Clock } from "../clock.js";
import type { Commit, DecisionInput, Journal, StoredStream } from "../journal/journal.js";
import { refKey } from "../model/aggregate-ref.js";
import type { CommandResult } from "../model/command-result.js";
import { eventsOf, type Decision } from "../model/decision.js";
import { CommandRejected, ErrorCodes } from "../model/errors.js";
import type { CommandMessage } from "../model/messages.js";
import { servicesFor, type AggregateRegistration, type Services } from "../model/registration.js";
import { cronNext as defaultCronNext, type CronNext } from "../timers/cron-next.js";
import { buildCommit } from "./commit-builder.js";
import { guardCommand } from "./command-guard.js";
import { replay, type CommandSender } from "./command-processor.js";
import { commandResult, duplicateMessage, UnroutableCommandError } from "./command-results.js";
import { AggregateRegistry, type CommandRoute } from "./registry.js";
import { ScopeRecorder } from "./scope-recorder.js";
import { timeOrderedId } from "./time-ordered-id.js";

export interface BatchDeciderOptions {
  readonly aggregates: readonly AggregateRegistration[];
  readonly clock: Clock;
  readonly services?: Services;
  readonly newId?: () => string;
  readonly cronNext?: CronNext;
  /** Sends a command whose batch commit met a version conflict: the processor with one conflict retry fewer (that commit was the first try). */
  readonly afterConflict: CommandSender;
}

/**
 * A command of a batch decided in memory, its commit not yet written: `result` completes it from what
 * the commit appended. `fallback`: not decided here; send it the ordinary way (after the batch commits).
 */
export type BatchDecision =
  | { readonly kind: "decided"; readonly commit?: Commit; readonly result: (appended?: { version: number; events: CommandResult["events"] }) => CommandResult }
  | { readonly kind: "failed"; readonly error: unknown }
  | { readonly kind: "fallback" };

const FALLBACK: BatchDecision = Object.freeze({ kind: "fallback" });

/**
 * The processor's decision (guard, replay, decide, build the commit) for many commands at once, from
 * one `loadForDecisions` read and without writing: the caller commits the whole batch in one
 * transaction (`Journal.commitBatch`). Commands of one aggregate are decided in order, each on top of
 * the previous one's commit. A technical failure (the handler threw) is `failed`, as the processor's
 * send would fail; so is a command no aggregate handles (a scheduled delivery's failure: see the timer
 * service). A command it cannot decide alone — one after a failed command on the same aggregate — falls
 * back to the ordinary path, as do commits the journal refuses (optimistic
 * concurrency: the per-command path retries them).
 */
export class BatchDecider {
  private readonly registry: AggregateRegistry;
  private readonly clock: Clock;
  private readonly services: Services;
  private readonly newId: () => string;
  private readonly cronNext: CronNext;
  readonly afterConflict: CommandSender;

  constructor(options: BatchDeciderOptions) {
    this.afterConflict = options.afterConflict;
    this.registry = new AggregateRegistry(options.aggregates);
    this.clock = options.clock;
    this.services = options.services ?? {};
    this.newId = options.newId ?? (() => timeOrderedId());
    this.cronNext = options.cronNext ?? defaultCronNext;
  }

  /** Decides `commands` in order against `journal` (which must have `loadForDecisions`). */
  async decide(journal: Journal, commands: readonly CommandMessage[]): Promise<BatchDecision[]> {
    const inputs = await journal.loadForDecisions!(commands.map((c) => ({ aggregate: c.aggregate, requestId: c.requestId })));
    /** Streams as this batch left them so far; `null`: an earlier command of the aggregate fell back. */
    const streams = new Map<string, StoredStream | null>();
    const decisions = new Array<BatchDecision>(commands.length);
    for (let i = 0; i < commands.length; i++) {
      const command = commands[i]!;
      const key = refKey(command.aggregate);
      const seen = streams.get(key);
      if (seen === null) {
        decisions[i] = FALLBACK;
        continue;
      }
      const decision = await this.decideOne(command, inputs[i]!, seen);
      if (decision.kind !== "decided") streams.set(key, null);
      else if (decision.commit) streams.set(key, after(decision.commit, seen ?? inputs[i]!.stream!));
      decisions[i] = decision;
    }
    return decisions;
  }

  /** `seen`: the stream as earlier commands of this batch left it (the input's stream is as loaded). */
  private async decideOne(command: CommandMessage, input: DecisionInput, seen: StoredStream | undefined): Promise<BatchDecision> {
    const route = this.registry.route(command.type, command.aggregate);
    // No target to decide it: the delivery's technical failure (retried, then parked), as the timer service treats the processor's answer.
    if (!route || route.aggregate.context !== command.aggregate.context || route.aggregate.aggregate !== command.aggregate.aggregate) {
      return { kind: "failed", error: new UnroutableCommandError(command) };
    }
    if (input.decided) {
      const version = input.decided.version;
      return { kind: "decided", result: () => commandResult(command, "duplicate", ErrorCodes.DuplicateRequestId, duplicateMessage(command.requestId), version) };
    }
    const stream = seen ?? input.stream;
    const guard = guardCommand(route, stream.version, stream.deleted);
    if (guard) return rejected(command, guard, stream.version);
    try {
      const scope = new ScopeRecorder(this.clock.now());
      const decided = this.run(route, stream, command, scope);
      const events = eventsOf(isPromise(decided) ? await decided : decided);
      const commit = buildCommit({
        command,
        expectedVersion: stream.version,
        events,
        schedules: scope.changes,
        deletes: route.command.delete === true,
        now: this.clock.now(),
        newId: this.newId,
        cronNext: this.cronNext,
      });
      return {
        kind: "decided",
        commit,
        result: (appended) => commandResult(command, "decided", ErrorCodes.Ok, "", appended!.version, appended!.events),
      };
    } catch (error) {
      if (error instanceof CommandRejected) return rejected(command, error, stream.version);
      return { kind: "failed", error };
    }
  }

  private run(route: CommandRoute, stream: StoredStream, command: CommandMessage, scope: ScopeRecorder): Decision | Promise<Decision> {
    return route.command.decide(replay(route.aggregate, stream.events), command, scope, servicesFor(route.command.services, this.services, command.type));
  }
}

/** A rejection is recorded under its request id (no version check), as the processor records it. */
function rejected(command: CommandMessage, error: CommandRejected, version: number): BatchDecision {
  const commit: Commit = { aggregate: command.aggregate, events: [], timers: [], request: { requestId: command.requestId, version, errorCode: error.code } };
  return { kind: "decided", commit, result: () => commandResult(command, "rejected", error.code, error.message, version) };
}

/** The stream once `commit` is appended (its events without positions: enough to decide on). */
function after(commit: Commit, stream: StoredStream): StoredStream {
  if (commit.events.length === 0 && !commit.deleted) return stream;
  return { version: commit.request.version, deleted: stream.deleted || commit.deleted === true, events: [...stream.events, ...commit.events] };
}

function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === "function";
}
