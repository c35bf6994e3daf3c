// A handler that throws (no rejection) on a body its schema validated is a technical failure: a 500
// that the server logs, never a 400 that tells the client its body was wrong (a client does not retry
// a 4xx). Without a body schema nothing checked the body, and a TypeError still blames it.
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createHost, MemoryStore, type AggregateRegistration, type WowHost } from "../../runtime/index.js";

const TOKEN = "operator-token-0123456789";

const AMOUNT = { type: "object", additionalProperties: false, required: ["amount"], properties: { amount: { type: "integer", minimum: -2147483648, maximum: 2147483647 } } };

/** `bank.Price` fetches a rate; the fetch fails the way Node's does: a TypeError. */
function price(withSchema: boolean): AggregateRegistration<Record<string, never>> {
  const decide = () => {
    throw new TypeError("fetch failed");
  };
  return { context: "bank", aggregate: "Quote", initialState: () => ({}), commands: { "bank.Price": { create: true, decide, ...(withSchema ? { bodySchema: AMOUNT } : {}) } }, events: {} };
}

let host: WowHost | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

async function post(withSchema: boolean, serverErrors: unknown[]) {
  host = createHost({
    registrations: [price(withSchema)],
    store: new MemoryStore(),
    http: { credentials: [{ token: TOKEN }], onServerError: (error) => serverErrors.push(error) },
    onError: () => {},
  });
  await host.start();
  const server = await host.listen(0);
  const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/bank/tenant/(0)/quote/price`, {
    method: "POST",
    headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify({ amount: 5 }),
  });
  return { status: response.status, code: response.headers.get("wow-error-code") };
}

describe("a handler that throws", () => {
  it("on a validated body is a 500, logged", async () => {
    const serverErrors: unknown[] = [];
    expect(await post(true, serverErrors)).toEqual({ status: 500, code: "InternalError" });
    expect(serverErrors.map((e) => (e as Error).message)).toEqual(["fetch failed"]);
  });

  it("with no schema to check the body, blames the body (400)", async () => {
    const serverErrors: unknown[] = [];
    expect(await post(false, serverErrors)).toEqual({ status: 400, code: "CommandValidation" });
    expect(serverErrors).toEqual([]);
  });
});
