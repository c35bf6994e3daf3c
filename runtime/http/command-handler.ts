// `PUT|POST|DELETE /{context}/tenant/{tenantId}/{aggregate}/[{id}/]{command}`: Wow's request headers
// in, a Wow-shaped command result out (status per error code).
import { createHash, randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { AggregateRef } from "../model/aggregate-ref.js";
import type { CommandResult } from "../model/command-result.js";
import { ErrorCodes } from "../model/errors.js";
import { isValidId } from "../model/ids.js";
import type { CommandMessage } from "../model/messages.js";
import type { CommandSender } from "../processing/command-processor.js";
import { HttpError, statusOfCode } from "./http-error.js";
import type { CommandRoute } from "./routes.js";

/** Wow's command request headers. */
export const Headers = {
  RequestId: "command-request-id",
  AggregateId: "command-aggregate-id",
  AggregateVersion: "command-aggregate-version",
  TenantId: "command-tenant-id",
  WaitStage: "command-wait-stage",
  WaitTimeout: "command-wait-timeout",
} as const;

export function checkId(what: string, value: string): string {
  if (!isValidId(value)) throw new HttpError(400, ErrorCodes.IllegalArgument, `${what} ${JSON.stringify(value.slice(0, 80))} is not a valid id`);
  return value;
}

export function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export async function handleCommand(
  req: IncomingMessage,
  route: CommandRoute,
  tenantId: string,
  pathId: string | undefined,
  body: Record<string, unknown>,
  send: CommandSender,
): Promise<{ status: number; result: Record<string, unknown>; errorCode: string }> {
  const requestId = header(req, Headers.RequestId);
  if (requestId !== undefined && (requestId.length === 0 || requestId.length > 200)) throw new HttpError(400, ErrorCodes.IllegalArgument, "Command-Request-Id must have 1 to 200 characters");
  const givenId = header(req, Headers.AggregateId);
  const id = pathId ?? (givenId !== undefined ? checkId("Command-Aggregate-Id", givenId) : newAggregateId(route, tenantId, requestId));
  const aggregate: AggregateRef = { context: route.context, aggregate: route.aggregate, tenantId, id };
  const expected = header(req, Headers.AggregateVersion);
  if (expected !== undefined) {
    if (!/^\d{1,15}$/.test(expected)) throw new HttpError(400, ErrorCodes.IllegalArgument, "Command-Aggregate-Version must be a non-negative integer");
  }
  const commandId = randomUUID();
  const command: CommandMessage = { commandId, requestId: requestId ?? commandId, type: route.type, body, aggregate, createdAt: Date.now(), ...(expected === undefined ? {} : { expectedVersion: Number(expected) }) };
  const result = await send(command);
  return { status: statusOf(result), result: wowResult(result), errorCode: result.errorCode };
}

/**
 * The id of an aggregate a create command makes when the client names none. With a request id it
 * derives from it (and the tenant and aggregate type), so a client that retries a create after
 * losing the reply reaches the same aggregate and gets `DuplicateRequestId`, not a second aggregate.
 */
function newAggregateId(route: CommandRoute, tenantId: string, requestId: string | undefined): string {
  if (requestId === undefined) return randomUUID();
  const hex = createHash("sha256").update(JSON.stringify([tenantId, route.context, route.aggregate, requestId])).digest("hex");
  // Shaped as a UUID (version 8: "custom") so that it reads like the ids the server makes otherwise.
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function statusOf(result: CommandResult): number {
  return result.outcome === "decided" ? 200 : statusOfCode(result.errorCode);
}

/** Wow's `CommandResult` fields. */
export function wowResult(r: CommandResult): Record<string, unknown> {
  return {
    id: r.commandId,
    stage: "PROCESSED",
    contextName: r.aggregate.context,
    aggregateName: r.aggregate.aggregate,
    tenantId: r.aggregate.tenantId,
    aggregateId: r.aggregate.id,
    aggregateVersion: r.aggregateVersion,
    requestId: r.requestId,
    commandId: r.commandId,
    function: r.type,
    errorCode: r.errorCode,
    errorMsg: r.errorMsg,
    succeeded: r.succeeded,
    outcome: r.outcome,
    result: { events: r.events.filter((e) => !e.type.startsWith("wow.")).map((e) => ({ type: e.type, body: e.body, version: e.version })) },
  };
}
