// What the HTTP API refuses, and how it says so: bodies that are not JSON (415), values outside their
// declared type's range, an unbounded cron rule, a client that goes away (not a server fault), a
// decision that breaks its declaration (500 with the code), and credentials that could never work.
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHost, Decision, MemoryStore, WowConfigError, type AggregateRegistration } from "../../runtime/index.js";
import { eventually, serve, type Served } from "./http-fixture.js";

let s: Served;
beforeAll(async () => {
  s = await serve();
});
afterAll(async () => {
  await s.close();
});

const receive = "/shop/tenant/(0)/stock/mug/receive";

describe("bodies", () => {
  it.each([
    ["text/plain", 415],
    ["application/x-www-form-urlencoded", 415],
    ["application/json; charset=iso-8859-1", 415],
    ["application/json", 200],
    ["application/json; charset=utf-8", 200],
    ["application/merge-patch+json", 200],
  ])("Content-Type %s → %i", async (type, status) => {
    const r = await s.call("PUT", receive, { raw: '{"quantity": 1}', headers: { "content-type": type } });
    expect(r.status).toBe(status);
    if (status === 415) expect([r.code, r.json.errorMsg]).toEqual(["UnsupportedMediaType", `the body must be JSON (Content-Type: application/json), got ${JSON.stringify(type)}`]);
  });

  it("an int field takes the 32-bit range only, naming the field", async () => {
    expect((await s.call("PUT", receive, { body: { quantity: 2147483647 } })).status).toBe(200);
    const over = await s.call("PUT", receive, { body: { quantity: 2147483648 } });
    expect([over.status, over.code, over.json.errorMsg]).toEqual([400, "CommandValidation", "the body does not fit the command: quantity: must be <= 2147483647"]);
    expect((await s.call("PUT", receive, { body: { quantity: -2147483649 } })).json.errorMsg).toContain("quantity: must be >= -2147483648");
  });

  it("names each bad field, with instants and durations described as such", async () => {
    const r = await s.call("POST", "/shop/tenant/(0)/order/create_order", { body: { product: 3, quantity: "two", placedAt: "2026-03-01T10:00:00", grace: { any: "thing" }, extra: true } });
    expect(r.json.errorMsg.replace("the body does not fit the command: ", "").split("; ").sort()).toEqual([
      "extra: unknown field",
      'grace: must be a duration ("15m", "PT15M", or milliseconds)',
      "placedAt: must be an instant (an ISO-8601 date-time with Z or an offset, or epoch milliseconds)",
      "product: must be a string",
      "quantity: must be an integer",
    ]);
  });
});

describe("cron rules", () => {
  it("an oversized expression is a 400 that says so, at once, and nothing is stored", async () => {
    const expression = `${"1,".repeat(25_000)}1 * * * * *`;
    const started = Date.now();
    const r = await s.call("POST", "/shop/schedule/receive/wow.schedule.reschedule", { body: { expression } });
    expect([r.status, r.code]).toEqual([400, "CommandValidation"]);
    expect(r.json.errorMsg).toContain(`A cron expression has at most 1024 characters, this one has ${expression.length}`);
    expect(Date.now() - started).toBeLessThan(2_000); // a parse of the whole text took seconds
    const jobs = await s.call("GET", "/wow/jobs");
    expect(JSON.stringify(jobs.json)).not.toContain("1,1,1,1");
  });
});

describe("a client that goes away", () => {
  it("is not a server fault: nothing is logged as one, and the server goes on", async () => {
    const url = new URL(s.base);
    await new Promise<void>((resolve) => {
      const socket = connect(Number(url.port), url.hostname, () => {
        socket.write(`PUT ${receive} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer operator-token-0123456789\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"quant`);
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 50);
      });
    });
    await eventually(async () => s.aborts.length > 0);
    expect(s.serverErrors).toEqual([]);
    expect((await s.call("GET", "/wow/jobs")).status).toBe(200);
  });
});

describe("a decision that breaks its declaration", () => {
  it("answers 500 with its code and what to change; nothing is committed", async () => {
    const gadget: AggregateRegistration<object> = {
      context: "lab",
      aggregate: "Gadget",
      initialState: () => ({}),
      commands: { "lab.Poke": { create: true, produces: ["lab.Poked"], decide: () => Decision.events({ type: "lab.Exploded", body: {} }) } },
      events: {},
    };
    const errors: unknown[] = [];
    const host = createHost({ registrations: [gadget], store: new MemoryStore(), http: { credentials: [{ token: "operator-token-0123456789" }], onServerError: (e) => void errors.push(e) } });
    const server = await host.listen(0);
    const address = server.address() as { port: number };
    const response = await fetch(`http://127.0.0.1:${address.port}/lab/tenant/(0)/gadget/poke`, { method: "POST", headers: { authorization: "Bearer operator-token-0123456789" } });
    const body = (await response.json()) as { errorCode: string; errorMsg: string };
    expect([response.status, response.headers.get("wow-error-code"), body.errorCode]).toEqual([500, "UndeclaredEvent", "UndeclaredEvent"]);
    expect(body.errorMsg).toBe("lab.Poke produces the event lab.Exploded, which its declaration does not list (produces = [lab.Poked]): add it to the .wow declaration, or stop producing it");
    expect(errors).toHaveLength(1);
    expect((await host.store.events.read(0, 10)).length).toBe(0);
    await host.close();
  });
});

describe("credentials", () => {
  const host = (credentials: { token: string; tenant?: string }[]) => () => createHost({ registrations: [], store: new MemoryStore(), http: { credentials } });
  const problems = (make: () => unknown) => {
    try {
      make();
    } catch (error) {
      if (error instanceof WowConfigError) return error.problems.map((p) => `${p.path}: ${p.message}`);
      throw error;
    }
    return [];
  };

  it("refuses a token given twice, naming both entries (one token, one scope)", () => {
    expect(problems(host([{ token: "shared-token-0123456789" }, { token: "shared-token-0123456789", tenant: "acme" }]))).toEqual([
      "/wow/http/credentials/1/token: is the token of credential 0 too: each token must be unique (one token, one scope)",
    ]);
  });

  it("refuses tokens no Authorization header can carry, and tenants no request can name", () => {
    expect(problems(host([{ token: "                    " }, { token: "token with spaces 0123456789" }, { token: "short" }, { token: "fine-token-0123456789", tenant: "../x" }]))).toEqual([
      "/wow/http/credentials/0/token: holds a character a bearer token cannot carry (space, quote, …): use letters, digits and - . _ ~ + /",
      "/wow/http/credentials/1/token: holds a character a bearer token cannot carry (space, quote, …): use letters, digits and - . _ ~ + /",
      "/wow/http/credentials/2/token: must have at least 16 characters",
      `/wow/http/credentials/3/tenant: "../x" is not a tenant id a request can name (1 to 200 of letters, digits and . _ ~ : @ ! $ ' ( ) * + , ; = -)`,
    ]);
  });

  it("authenticates by token, whatever the length of the one given", async () => {
    for (const token of ["x", "operator-token-0123456789x", "operator-token-012345678", "o".repeat(4_000)]) {
      expect((await s.call("GET", "/wow/jobs", { token })).status).toBe(401);
    }
    expect((await s.call("GET", "/wow/jobs")).status).toBe(200);
  });
});
