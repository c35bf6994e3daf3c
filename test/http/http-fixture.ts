// A host of the shop domain on the real clock (nothing waits on it here), served on 127.0.0.1.
import type { AddressInfo } from "node:net";
import { createHost, MemoryStore, type WowHost } from "../../runtime/index.js";
import { order, probe, receiveJob, shopSaga, stock, suppliers, type Probe } from "../runtime/sagas/saga-domain.js";

export const OPERATOR = "operator-token-0123456789";
export const ACME = "acme-tenant-token-0123456789";
export const GLOBEX = "globex-tenant-token-0123456789";

/** The shop's command fields, as `wow-manifest.json` lists them. */
export const SHOP_MANIFEST = {
  contexts: {
    shop: {
      aggregates: {
        Order: {
          commands: {
            CreateOrder: { qualifiedName: "shop.CreateOrder", fields: [field("product", "string"), field("quantity", "int"), { name: "holdOn", type: { kind: "builtin", name: "string", array: false, optional: true } }, optionalField("placedAt", "instant"), optionalField("grace", "duration")] },
            CancelOrder: { qualifiedName: "shop.CancelOrder", fields: [] },
            ArchiveOrder: { qualifiedName: "shop.ArchiveOrder", fields: [] },
          },
        },
        Stock: {
          commands: {
            Receive: { qualifiedName: "shop.Receive", fields: [field("quantity", "int")] },
            Reserve: { qualifiedName: "shop.Reserve", fields: [field("order", "string"), field("quantity", "int")] },
            Release: { qualifiedName: "shop.Release", fields: [field("order", "string")] },
            Explode: { qualifiedName: "shop.Explode", fields: [] },
          },
        },
      },
    },
  },
};

function field(name: string, type: string) {
  return { name, type: { kind: "builtin", name: type, array: false, optional: false } };
}

function optionalField(name: string, type: string) {
  return { name, type: { kind: "builtin", name: type, array: false, optional: true } };
}

export interface Served {
  readonly host: WowHost;
  readonly base: string;
  readonly probe: Probe;
  call(method: string, path: string, options?: { token?: string | null; body?: unknown; raw?: string; headers?: Record<string, string> }): Promise<{ status: number; code: string | null; json: any }>;
  close(): Promise<void>;
}

export async function serve(): Promise<Served> {
  const p = probe();
  const host = createHost({
    registrations: [order, stock, shopSaga(p, [receiveJob(), receiveJob({ name: "report", function: "report", subscription: "ShopSaga.report", scope: "TENANT" }), receiveJob({ name: "shards", function: "shards", subscription: "ShopSaga.shards", sharded: true })])],
    store: new MemoryStore(),
    services: { "shop.Suppliers": suppliers },
    timers: { pollInterval: "50ms", maxAttempts: 1 },
    subscriptions: { pollInterval: "50ms", maxAttempts: 1 },
    http: {
      credentials: [{ token: OPERATOR }, { token: ACME, tenant: "acme" }, { token: GLOBEX, tenant: "globex" }],
      bodyLimit: 64 * 1024,
      manifest: SHOP_MANIFEST,
      onServerError: (error) => {
        throw error;
      },
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
    async call(method, path, options = {}) {
      const token = options.token === undefined ? OPERATOR : options.token;
      const headers: Record<string, string> = { ...(token === null ? {} : { authorization: `Bearer ${token}` }), ...options.headers };
      const body = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
      if (body !== undefined) headers["content-type"] = "application/json";
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
