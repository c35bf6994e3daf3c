// What a saga's (or a job's) outputs become: command messages with deterministic request ids
// `<eventId>-<index>` (Wow's idea, like `timer#slot`), so handling an event again sends the same requests.
import type { AggregateRef, TargetRef } from "../model/aggregate-ref.js";
import type { Causation, CommandDraft, CommandMessage, EventMessage } from "../model/messages.js";
import type { JobCommand, JobContext, SagaCommand, SagaContext } from "../model/saga-registration.js";
import { derivedRequestId } from "../model/request-ids.js";
import type { ScheduleRule } from "../model/schedule-rule.js";
import { SystemCommands, type CancelScheduleBody, type ScheduleCommandBody } from "../processing/system-commands.js";


export const sagaContext: SagaContext = {
  command: (target: TargetRef, command: CommandDraft): SagaCommand => ({ kind: "command", target, command }),
  schedule: (key: string, rule: ScheduleRule, target: TargetRef, command: CommandDraft): SagaCommand => ({ kind: "schedule", key, rule, target, command }),
  cancel: (key: string, target: TargetRef): SagaCommand => ({ kind: "cancel", key, target }),
};

/** A run's context: its commands, and the signal that aborts at its timeout or the host's stop. */
export function jobContextOf(signal: AbortSignal): JobContext {
  return { command: (target: AggregateRef, command: CommandDraft): JobCommand => ({ kind: "command", target, command }), signal };
}

function causationOf(event: EventMessage): Causation {
  return { aggregate: event.aggregate, version: event.version, commandId: event.commandId, requestId: event.requestId };
}

function resolve(target: TargetRef, event: EventMessage): AggregateRef {
  return { context: target.context, aggregate: target.aggregate, id: target.id, tenantId: target.tenantId ?? event.aggregate.tenantId };
}

/** The message a saga output sends: the command itself, or a request to the target to (un)schedule it (request id `<eventId>-<index>` unless given). */
export function requestOf(output: SagaCommand | JobCommand, event: EventMessage, index: number, now: number, requestId = derivedRequestId(event.eventId, index)): CommandMessage {
  const aggregate = resolve(output.target, event);
  const base = { commandId: requestId, requestId, aggregate, createdAt: now, causation: causationOf(event) };
  switch (output.kind) {
    case "command":
      return { ...base, type: output.command.type, body: output.command.body };
    case "schedule": {
      const body: ScheduleCommandBody = { key: output.key, rule: output.rule, command: { type: output.command.type, body: output.command.body } };
      return { ...base, type: SystemCommands.ScheduleCommand, body };
    }
    case "cancel": {
      const body: CancelScheduleBody = { key: output.key };
      return { ...base, type: SystemCommands.CancelSchedule, body };
    }
  }
}

/** The command a rejection handler is keyed by: the scheduled command for a schedule request, else the command itself. */
export function rejectedCommand(request: CommandMessage): CommandMessage {
  if (request.type !== SystemCommands.ScheduleCommand) return request;
  const inner = (request.body as ScheduleCommandBody).command;
  return { ...request, type: inner.type, body: inner.body };
}
