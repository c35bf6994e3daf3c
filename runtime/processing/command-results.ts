import type { CommandResult } from "../model/command-result.js";
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
