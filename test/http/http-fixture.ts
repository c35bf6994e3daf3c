// A host of the shop domain on the real clock (nothing waits on it here), served on 127.0.0.1.
import type { AddressInfo } from "node:net";
import { createHost, MemoryStore, type AggregateRegistration, type WowHost } from "../../runtime/index.js";
import { order, probe, receiveJob, shopSaga, stock, suppliers, type Probe } from "../runtime/sagas/saga-domain.js";

export const OPERATOR = "operator-token-0123456789";
export const ACME = "acme-tenant-token-0123456789";
export const GLOBEX = "globex-tenant-token-0123456789";

// The shop's command bodies as the compiler describes them (JSON Schema, draft 2020-12).
const STRING = { type: "string" };
const INT = { type: "integer", minimum: -2147483648, maximum: 2147483647 };
const INSTANT = { anyOf: [{ type: "string", format: "date-time" }, { type: "integer" }], "x-wow-decode": "instant" };
const DURATION = { anyOf: [{ type: "string", minLength: 1 }, { type: "integer", minimum: 0 }], "x-wow-decode": "duration" };
const optional = (schema: object) => ({ anyOf: [schema, { type: "null" }] });

function body(required: Record<string, object>, optionals: Record<string, object> = {}): object {
  const properties = { ...required, ...Object.fromEntries(Object.entries(optionals).map(([k, v]) => [k, optional(v)])) };
  return { $schema: "https://json-schema.org/draft/2020-12/schema", type: "object", additionalProperties: false, required: Object.keys(required), properties };
}

export const SHOP_BODIES: Readonly<Record<string, object>> = {
  "shop.CreateOrder": body({ product: STRING, quantity: INT }, { holdOn: STRING, placedAt: INSTANT, grace: DURATION }),
  "shop.CancelOrder": body({}),
  "shop.ArchiveOrder": body({}),
  "shop.Receive": body({ quantity: INT }),
  "shop.Reserve": body({ order: STRING, quantity: INT }),
  "shop.Release": body({ order: STRING }),
  "shop.Explode": body({}),
};

/** `registration` with each command's body schema, as generated registrations carry them. */
export function withBodySchemas<S>(registration: AggregateRegistration<S>): AggregateRegistration<S> {
  const commands = Object.fromEntries(Object.entries(registration.commands).map(([type, command]) => [type, SHOP_BODIES[type] ? { ...command, bodySchema: SHOP_BODIES[type] } : command]));
  return { ...registration, commands };
}

export interface Served {
  readonly host: WowHost;
  readonly base: string;
  readonly probe: Probe;
  /** What the server reported as its faults (5xx), and the requests whose clients went away. */
  readonly serverErrors: unknown[];
  readonly aborts: unknown[];
  call(method: string, path: string, options?: { token?: string | null; body?: unknown; raw?: string; headers?: Record<string, string> }): Promise<{ status: number; code: string | null; json: any }>;
  close(): Promise<void>;
}

export async function serve(): Promise<Served> {
  const p = probe();
  const serverErrors: unknown[] = [];
  const aborts: unknown[] = [];
  const host = createHost({
    registrations: [withBodySchemas(order), withBodySchemas(stock), shopSaga(p, [receiveJob(), receiveJob({ name: "report", function: "report", subscription: "ShopSaga.report", scope: "TENANT" }), receiveJob({ name: "shards", function: "shards", subscription: "ShopSaga.shards", sharded: true })])],
    store: new MemoryStore(),
    services: { "shop.Suppliers": suppliers },
    timers: { pollInterval: "50ms", maxAttempts: 1 },
    subscriptions: { pollInterval: "50ms", maxAttempts: 1 },
    http: {
      credentials: [{ token: OPERATOR }, { token: ACME, tenant: "acme" }, { token: GLOBEX, tenant: "globex" }],
      bodyLimit: 64 * 1024,
      onServerError: (error) => void serverErrors.push(error),
      onClientAbort: (error) => void aborts.push(error),
    },
    onError: () => {},
  });
  await host.start();
  const server = await host.listen(0);
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    host,
    base,
    probe: p,
    serverErrors,
    aborts,
    async call(method, path, options = {}) {
      const token = options.token === undefined ? OPERATOR : options.token;
      const headers: Record<string, string> = { ...(token === null ? {} : { authorization: `Bearer ${token}` }), ...options.headers };
      const body = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
      if (body !== undefined && !Object.keys(headers).some((k) => k.toLowerCase() === "content-type")) headers["content-type"] = "application/json";
      const response = await fetch(base + path, { method, headers, ...(body === undefined ? {} : { body }) });
      const text = await response.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = text;
      }
      return { status: response.status, code: response.headers.get("wow-error-code"), json };
    },
    close: () => host.close(),
  };
}

/** Waits (real time, bounded) until `check` holds: for work the host does after answering. */
export async function eventually(check: () => Promise<boolean>, ms = 3000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 20));
  }
}
