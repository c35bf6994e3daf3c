import type { CommandResult } from "../model/command-result.js";
import { ErrorCodes } from "../model/errors.js";
import type { CommandMessage, EventMessage } from "../model/messages.js";

/** A command's result, shaped like Wow's `CommandResult`. */
export function commandResult(
  command: CommandMessage,
  outcome: CommandResult["outcome"],
  errorCode: string,
  errorMsg: string,
  aggregateVersion: number,
  events: readonly EventMessage[] = [],
): CommandResult {
  return {
    outcome,
    succeeded: outcome === "decided",
    errorCode,
    errorMsg,
    type: command.type,
    commandId: command.commandId,
    requestId: command.requestId,
    aggregate: command.aggregate,
    aggregateVersion,
    events,
  };
}

/** The message of a duplicate's result. */
export function duplicateMessage(requestId: string): string {
  return `request ${requestId} was already decided`;
}

/** Why `command` has no route: no registered aggregate of its target's kind handles its type. */
export function unroutableMessage(command: CommandMessage): string {
  return `no aggregate ${command.aggregate.context}.${command.aggregate.aggregate} handles ${command.type}`;
}

/** The processor's answer to a command no aggregate handles: rejected, IllegalArgument, nothing recorded. */
export function unroutableResult(command: CommandMessage): CommandResult {
  return commandResult(command, "rejected", ErrorCodes.IllegalArgument, unroutableMessage(command), 0);
}

/**
 * Whether `result` is `unroutableResult(command)` (also as copied by a wrapper): no target decided it, so
 * for a scheduled delivery it is a technical failure (a deploy may add the handler), not a rejection.
 */
export function isUnroutable(command: CommandMessage, result: CommandResult): boolean {
  return result.outcome === "rejected" && result.errorCode === ErrorCodes.IllegalArgument && result.errorMsg === unroutableMessage(command);
}

/** A scheduled command no aggregate handles, as its delivery's technical failure (retried, then parked). */
export class UnroutableCommandError extends Error {
  constructor(command: CommandMessage) {
    super(unroutableMessage(command));
    this.name = "UnroutableCommandError";
  }
}
