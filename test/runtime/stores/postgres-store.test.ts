// What only the PostgreSQL store does: its schema's versions, its errors when the server cannot be used
// (naming host, port and database, never the password), its group commit when one member breaks a
// constraint, and a host that loses its connections mid-run.
import net from "node:net";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { PostgresStore, StoreError, aggregateRef, commandMessage, createHost, type Commit, type WowConfig } from "../../../runtime/index.js";
import { PgConnection } from "../../../runtime/store/postgres/connection.js";
import { withDefaultUser } from "../../../runtime/store/postgres/options.js";
import { MIGRATIONS, SCHEMA_VERSION, migrate } from "../../../runtime/store/postgres/schema.js";
import { scheduleSpec } from "../../../runtime/testing/index.js";
import { silentLogger as silent } from "../../../runtime/ops/log.js";
import { postgresUrl, testSchema } from "../../support/postgres.js";
import { START } from "../fixtures/harness.js";
import { order, T } from "../fixtures/order-domain.js";

const PG_URL = postgresUrl();
const services = { paymentPolicy: { gracePeriod: "15m" }, probe: () => {} };

/** A TCP proxy to the server that can go down (cutting its connections, refusing new ones) and come back. */
async function tcpProxy(server: URL): Promise<{ port: number; down(): void; up(): void; close(): Promise<void> }> {
  let open = true;
  const sockets = new Set<net.Socket>();
  const proxy = net.createServer((client) => {
    if (!open) return client.destroy();
    const upstream = net.connect(Number(server.port || 5432), server.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("error", () => undefined);
      socket.on("close", () => sockets.delete(socket));
    }
    client.pipe(upstream).pipe(client);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  return {
    port: (proxy.address() as net.AddressInfo).port,
    down() {
      open = false;
      for (const socket of sockets) socket.destroy();
    },
    up() {
      open = true;
    },
    close: () => new Promise<void>((resolve) => proxy.close(() => resolve())),
  };
}

/** A URL on the test server with another database (or port, user, password). */
function variant(change: (url: URL) => void): string {
  const url = new URL(withDefaultUser(PG_URL!));
  change(url);
  return url.toString();
}

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: withDefaultUser(PG_URL!) });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const stores: PostgresStore[] = [];
const store = (options: { url?: string; schema?: string } = {}) => {
  const s = new PostgresStore({ url: options.url ?? PG_URL!, schema: options.schema ?? testSchema(PG_URL!), pool: 2 });
  stores.push(s);
  return s;
};
afterAll(async () => {
  for (const s of stores) await s.close();
});

describe.skipIf(PG_URL === undefined)("PostgreSQL store", () => {
  it("creates its schema at version 1 and refuses a schema a newer wowc migrated, naming both versions", async () => {
    const schema = testSchema(PG_URL!);
    const first = store({ schema });
    expect(await first.schemaVersion()).toBe(SCHEMA_VERSION);
    await admin((c) => c.query(`INSERT INTO "${schema}".wow_schema_version (version) VALUES ($1)`, [SCHEMA_VERSION + 1]));
    const error = await store({ schema }).open().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect(error).toMatchObject({ code: "WOW_STORE_SCHEMA_NEWER" });
    expect((error as Error).message).toContain(`version ${SCHEMA_VERSION + 1}, newer than this wowc's ${SCHEMA_VERSION}`);
    expect((error as Error).message).toContain(`"${schema}"`);
  });

  it("upgrades a version 2 schema: its timers are listed by their command type, tenant and aggregate id", async () => {
    const schema = testSchema(PG_URL!);
    await admin(async (c) => {
      await migrate(c, schema, MIGRATIONS.slice(0, 2));
      const spec = JSON.stringify({ rule: { kind: "at", at: 9000 }, command: { type: "ctx.C", body: {} }, causation: { version: 1, commandId: "c", requestId: "c" } });
      await c.query(`INSERT INTO "${schema}".wow_timers (id, owner, key, spec, slot, due, fire_at) VALUES ('t1', $1, 'k1', $2, 1, 9000, 9000)`, [JSON.stringify(["ctx", "agg", "(0)", "a-1"]), spec]);
    });
    const upgraded = store({ schema });
    expect(await upgraded.schemaVersion()).toBe(SCHEMA_VERSION);
    expect((await upgraded.timers.list({ status: "pending", command: "ctx.C" })).map((t) => t.id)).toEqual(["t1"]);
    expect(await upgraded.timers.list({ status: "pending", command: "ctx.D" })).toEqual([]);
    // (versions 3 and 4 read the command type, then the owner's tenant and id, out of the old rows)
    expect((await upgraded.timers.list({ status: "pending", tenantId: "(0)", aggregateId: "a-1" })).map((t) => t.id)).toEqual(["t1"]);
    expect(await upgraded.timers.list({ status: "pending", aggregateId: "a-2" })).toEqual([]);
    expect(await upgraded.timers.counts(10_000, "(0)")).toEqual({ due: 1, parked: 0 });
  });

  it("names host, port and database when the server cannot be used, never the password", async () => {
    const unreachable = await store({ url: variant((u) => ((u.port = "1"), (u.password = "s3cret-pw"))) }).open().catch((e: unknown) => e);
    expect(unreachable).toMatchObject({ name: "StoreError", code: "WOW_STORE_UNREACHABLE" });
    const at = new URL(PG_URL!).hostname;
    expect((unreachable as Error).message).toContain(`${at}:1/`);
    const missing = await store({ url: variant((u) => ((u.pathname = "/wow_no_such_db"), (u.password = "s3cret-pw"))) }).open().catch((e: unknown) => e);
    expect(missing).toMatchObject({ code: "WOW_STORE_NO_DATABASE" });
    expect((missing as Error).message).toContain("/wow_no_such_db does not exist");
    for (const e of [unreachable, missing]) expect(JSON.stringify({ message: (e as Error).message, e })).not.toContain("s3cret-pw");
    // a URL that is not one is refused when the store is made, before anything connects
    expect(() => new PostgresStore({ url: "postgres://:pw@[bad" })).toThrow(/WOW_STORE_BAD_URL: the store URL is not a PostgreSQL URL/);
    // a refused login (this server trusts every login, so the server's answer is given as it would come)
    const refused = new PgConnection({ url: variant((u) => (u.password = "s3cret-pw")) }).failure(Object.assign(new Error('password authentication failed for user "app"'), { code: "28P01" }));
    expect(refused).toMatchObject({ code: "WOW_STORE_LOGIN_REFUSED" });
    expect((refused as Error).message).toMatch(/refused the login .*check the user and password/);
    expect((refused as Error).message).not.toContain("s3cret-pw");
  });

  it("a createHost on an unreachable server does not start, and says why", async () => {
    const config = { wow: { schedules: {}, timers: {}, store: { url: variant((u) => (u.port = "1")), schema: "wow" } } } as unknown as WowConfig;
    const host = createHost({ registrations: [order], config, services, logger: silent });
    await expect(host.start()).rejects.toMatchObject({ code: "WOW_STORE_UNREACHABLE" });
    expect(host.status().state).toBe("stopped");
    await host.close();
  });

  it("group commit: a commit that breaks a constraint fails alone; the others of its group land", async () => {
    const s = store();
    const ref = (id: string) => aggregateRef("f", "thing", id);
    const commit = (id: string, sequences: number[]): Commit => {
      const aggregate = ref(id);
      const events = sequences.map((sequence) => ({ eventId: `${id}-${sequence}`, type: "f.Fired", body: {}, aggregate, version: 1, sequence, commandId: `c-${id}`, requestId: `c-${id}`, createdAt: START }));
      return { aggregate, expectedVersion: 0, events, request: { requestId: `c-${id}`, version: 1, errorCode: "Ok" }, timers: [] };
    };
    await s.open();
    const results = await Promise.allSettled([s.events.append(commit("good1", [1])), s.events.append(commit("bad", [1, 1])), s.events.append(commit("good2", [1, 2]))]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(String((results[1] as PromiseRejectedResult).reason)).toContain("wow_events_stream");
    expect((await s.events.load(ref("good2"))).events).toHaveLength(2);
    expect(await s.events.load(ref("bad"))).toMatchObject({ version: 0, events: [] });
    expect((await s.events.read(0, 10)).map((e) => e.position)).toEqual([1, 2, 3]);
  });

  it("a host that loses its server mid-run reports it (onError, readiness), retries, and delivers each timer once", async () => {
    const proxy = await tcpProxy(new URL(withDefaultUser(PG_URL!)));
    const s = store({ url: variant((u) => ((u.hostname = "127.0.0.1"), (u.port = String(proxy.port)))) });
    await s.open();
    const spec = scheduleSpec({ aggregates: [order], services, start: START, store: s, timers: { pollInterval: "1s" }, logger: silent });
    const id = (n: number) => aggregateRef("eshop-order", "order", `o-${n}`);
    for (let n = 0; n < 3; n++) {
      await spec.send(commandMessage(T.CreateOrder, { items: ["mug"] }, id(n)));
      await spec.send(commandMessage(T.ConfirmOrder, {}, id(n)));
    }
    // the server goes away (its connections cut, new ones refused) before the timers are due
    proxy.down();
    await expect(spec.advanceTime("16m")).rejects.toMatchObject({ name: "StoreError" });
    expect(spec.errors.length).toBeGreaterThan(0);
    for (const error of spec.errors) expect(["WOW_STORE_LOST", "WOW_STORE_UNREACHABLE"]).toContain((error as StoreError).code);
    expect(await spec.app.readiness()).toMatchObject({ ready: false, reason: expect.stringContaining("the postgres store takes no writes") });
    expect(spec.sent.filter((d) => d.result !== undefined)).toEqual([]);
    // back: the loops' next polls (after their backoff) deliver each timer once
    proxy.up();
    await spec.advanceTime("2m");
    expect(spec.sent.filter((d) => d.result?.outcome === "decided").map((d) => d.command.aggregate.id).sort()).toEqual(["o-0", "o-1", "o-2"]);
    for (let n = 0; n < 3; n++) expect((await s.events.load(id(n))).events.filter((e) => e.type === T.OrderCancelled)).toHaveLength(1);
    expect(await s.timers.list({ status: "pending" })).toEqual([]);
    expect(await spec.app.readiness()).toEqual({ ready: true });
    await spec.stop();
    await proxy.close();
  });
});
