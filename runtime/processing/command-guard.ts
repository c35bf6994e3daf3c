import { CommandRejected, ErrorCodes } from "../model/errors.js";
import { hasCreateCommand } from "../model/registration.js";
import type { CommandRoute } from "./registry.js";

/** The create/delete rules a command meets before its handler runs: a refusal, or undefined to decide it. */
export function guardCommand(route: CommandRoute, version: number, deleted: boolean): CommandRejected | undefined {
  if (deleted) return new CommandRejected(ErrorCodes.IllegalAccessDeletedAggregate, "the aggregate was deleted");
  const exists = version > 0;
  if (route.command.create === true && exists) return new CommandRejected(ErrorCodes.IllegalState, "the aggregate already exists");
  if (route.command.create !== true && !exists && (route.command.existing === true || hasCreateCommand(route.aggregate))) {
    return new CommandRejected(ErrorCodes.NotFound, "the aggregate does not exist");
  }
  return undefined;
}
