// A command's result maps to Wow's HTTP status by its error code, one table for the whole API
// (http-error.ts): a handler's rejection with Wow's 403 or 409 codes is not a 400.
import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { handleCommand } from "../../runtime/http/command-handler.js";
import { MemoryStore, type CommandMessage, type CommandResult } from "../../runtime/index.js";

const route = { method: "PUT", context: "shop", aggregate: "Order", type: "shop.CancelOrder", create: false } as never;
const request = { headers: {} } as IncomingMessage;

function rejectedWith(errorCode: string) {
  return async (command: CommandMessage): Promise<CommandResult> =>
    ({ commandId: command.commandId, requestId: command.requestId, type: command.type, aggregate: command.aggregate, aggregateVersion: 1, outcome: "rejected", errorCode, errorMsg: "no", succeeded: false, events: [] }) as unknown as CommandResult;
}

describe("the status of a rejected command", () => {
  it.each([
    ["IllegalAccessOwnerAggregate", 403],
    ["CommandExpectVersionConflict", 409],
    ["EventVersionConflict", 409],
    ["NotFound", 404],
    ["IllegalAccessDeletedAggregate", 410],
    ["OutOfStock", 400],
  ])("%s is %i", async (code, status) => {
    const answer = await handleCommand(request, route, "(0)", "o-1", {}, rejectedWith(code));
    expect([answer.status, answer.errorCode]).toEqual([status, code]);
  });
});
