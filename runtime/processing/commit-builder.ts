import type { AggregateRef } from "../model/aggregate-ref.js";
import type { ScheduleChange } from "../model/decide-scope.js";
import type { EventDraft } from "../model/decision.js";
import { CommandRejected, ErrorCodes } from "../model/errors.js";
import type { Causation, CommandMessage, EventMessage } from "../model/messages.js";
import { SystemEvents, type ScheduleCancelledBody, type ScheduleSetBody } from "../model/system-events.js";
import type { CronNext } from "../cron/cron-next.js";
import { UnstorableCommitError } from "../store/errors.js";
import type { Commit, TimerChange } from "../store/event-store.js";
import { firstDue } from "./first-due.js";

export interface CommitInput {
  readonly command: CommandMessage;
  readonly expectedVersion: number;
  readonly events: readonly EventDraft[];
  readonly schedules: readonly ScheduleChange[];
  readonly deletes: boolean;
  readonly now: number;
  readonly newId: () => string;
  readonly cronNext: CronNext;
}

/**
 * Turns a decision into one atomic commit: the handler's events, then a `wow.ScheduleSet` /
 * `wow.ScheduleCancelled` per schedule change (in the order asked), then `wow.AggregateDeleted`
 * for a delete command; the timer changes ride in the same commit.
 */
export function buildCommit(input: CommitInput): Commit {
  const { command, now } = input;
  const aggregate = command.aggregate;
  const version = input.expectedVersion + 1;
  const causation: Causation = { aggregate, version, commandId: command.commandId, requestId: command.requestId };
  input.events.forEach((e, i) => {
    // A handler's bug (e.g. a misspelt constant read as undefined), not the command's fault: not a rejection
    // recorded under its request id, but the failure the journal would give it, before any id is drawn.
    const type: unknown = e.type;
    if (typeof type !== "string" || type === "") {
      const shown = typeof type === "string" ? '""' : typeof type === "function" ? "a function" : typeof type === "object" && type !== null ? "an object" : String(type);
      throw new UnstorableCommitError(aggregate, command.requestId, `event ${i + 1}`, `type: ${shown}, not a non-empty string`);
    }
  });
  const drafts: { id: string; type: string; body: unknown }[] = input.events.map((e) => ({ id: input.newId(), type: e.type, body: e.body }));
  const timers: TimerChange[] = [];
  for (const change of input.schedules) {
    const id = input.newId();
    if (change.kind === "cancel") {
      const body: ScheduleCancelledBody = { key: change.key };
      drafts.push({ id, type: SystemEvents.ScheduleCancelled, body });
      timers.push({ kind: "cancel", key: change.key });
      continue;
    }
    const first = firstDue(change.rule, now, input.cronNext);
    // An invalid rule (bad syntax, unknown zone, one that never fires) is the command's fault: a rejection, not a failure.
    if ("problem" in first) throw new CommandRejected(ErrorCodes.IllegalArgument, `schedule ${change.key}: ${first.problem}`);
    const due = first.due;
    const target: AggregateRef = change.target
      ? { context: change.target.context, aggregate: change.target.aggregate, id: change.target.id, tenantId: change.target.tenantId ?? aggregate.tenantId }
      : aggregate;
    const body: ScheduleSetBody = { key: change.key, timer: id, rule: change.rule, command: { type: change.command.type, body: change.command.body }, target, due };
    drafts.push({ id, type: SystemEvents.ScheduleSet, body });
    timers.push({ kind: "set", timer: { id, owner: aggregate, key: change.key, rule: change.rule, command: body.command, target, causation, slot: 1, due } });
  }
  if (input.deletes) {
    drafts.push({ id: input.newId(), type: SystemEvents.AggregateDeleted, body: {} });
    timers.push({ kind: "cancelAll" });
  }
  const events: EventMessage[] = drafts.map((draft, index) => ({
    eventId: draft.id,
    type: draft.type,
    body: draft.body,
    aggregate,
    version,
    sequence: index + 1,
    commandId: command.commandId,
    requestId: command.requestId,
    createdAt: now,
  }));
  return {
    aggregate,
    expectedVersion: input.expectedVersion,
    events,
    request: { requestId: command.requestId, version: events.length > 0 ? version : input.expectedVersion, errorCode: ErrorCodes.Ok },
    timers,
    deleted: input.deletes,
  };
}
