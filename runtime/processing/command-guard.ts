import { CommandRejected, ErrorCodes } from "../model/errors.js";
import { hasCreateCommand, type Services } from "../model/registration.js";
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

/** The services a handler gets: the ones its registration lists, each required from the host. */
export function servicesFor(route: CommandRoute, services: Services): Services {
  const names = route.command.services ?? [];
  const picked: Record<string, unknown> = {};
  for (const name of names) {
    if (!(name in services)) throw new Error(`service ${name} is not provided by the host`);
    picked[name] = services[name];
  }
  return picked;
}
