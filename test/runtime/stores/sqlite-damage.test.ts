// A damaged SQLite file is never decided on: refused at start by the integrity check, or, once SQLite
// reports corruption, the host halts (no more deciding or delivering, nothing written) and says so
// through onError and its status, naming the file. A file whose history is gone is not started afresh.
// Its online backup restores and replays.
import { copyFileSync, existsSync, openSync, closeSync, readFileSync, statSync, writeSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ScheduleRule, SqliteStore, StoreDamagedError, aggregateRef, commandMessage, createHost } from "../../../runtime/index.js";
import { VirtualClock } from "../../../runtime/testing/index.js";
import { order, probe, S, shopSaga, stock } from "../sagas/saga-domain.js";
import { tempDbPath } from "../fixtures/stores.js";

const START = Date.parse("2026-10-20T00:00:00Z");
const mug = aggregateRef("shop", "Stock", "mug");

async function filled(path: string): Promise<void> {
  const store = new SqliteStore(path);
  const host = createHost({ registrations: [stock], store, clock: new VirtualClock(START) });
  for (let i = 0; i < 200; i++) await host.send(commandMessage(S.Receive, { quantity: 1, pad: "x".repeat(200) }, aggregateRef("shop", "Stock", `p-${i}`)));
  await host.send(commandMessage("wow.ScheduleCommand", { key: "k", rule: ScheduleRule.at(START + 60_000), command: { type: S.Receive, body: { quantity: 5 } } }, aggregateRef("shop", "Stock", "p-0")));
  await host.close();
  await store.close(); // a clean close: the WAL is copied into the file
}

/** Overwrites the first bytes of `table`'s root page (its b-tree page header) with garbage. */
function damage(path: string, table: string): void {
  const store = new SqliteStore(path);
  const { rootpage } = store.db.prepare("SELECT rootpage FROM sqlite_master WHERE name = ?").get(table) as { rootpage: number };
  const pageSize = store.db.pragma("page_size", { simple: true }) as number;
  store.db.close();
  const fd = openSync(path, "r+");
  writeSync(fd, Buffer.alloc(16, 0xee), 0, 16, (rootpage - 1) * pageSize);
  closeSync(fd);
}

describe("a damaged SQLite file", () => {
  it("is refused at start by the quick integrity check, naming the file and what to do", async () => {
    const path = tempDbPath();
    await filled(path);
    damage(path, "wow_events");
    expect(() => new SqliteStore(path)).toThrow(StoreDamagedError);
    expect(() => new SqliteStore(path)).toThrow(`the SQLite file ${path} failed its integrity check`);
  });

  it("once SQLite reports corruption, the host halts: one error, no more polls, sends refused with 503, nothing written", async () => {
    const path = tempDbPath();
    await filled(path);
    damage(path, "wow_timers");
    const store = new SqliteStore(path, { integrityCheck: false });
    const errors: unknown[] = [];
    const clock = new VirtualClock(START);
    const host = createHost({ registrations: [stock], store, clock, timers: { pollInterval: "1s" }, onError: (e) => void errors.push(e), http: { credentials: [{ token: "operator-token-0123456789" }] } });
    await host.start();
    await clock.advanceTime("5m"); // the timer comes due at 1m: claiming it reads the damaged page
    expect(errors.length).toBe(1);
    expect(errors[0]).toBeInstanceOf(StoreDamagedError);
    expect(host.status()).toMatchObject({ state: "halted", reason: expect.stringContaining(`the SQLite file ${path} is damaged (SQLITE_CORRUPT`) });
    expect(host.status().loops.every((loop) => !loop.running)).toBe(true);
    await expect(host.send(commandMessage(S.Receive, { quantity: 1 }, mug))).rejects.toBeInstanceOf(StoreDamagedError);
    const server = await host.listen(0);
    const { port } = server.address() as { port: number };
    const answer = await fetch(`http://127.0.0.1:${port}/shop/tenant/(0)/stock/mug/receive`, { method: "PUT", headers: { authorization: "Bearer operator-token-0123456789", "content-type": "application/json" }, body: '{"quantity":1}' });
    expect([answer.status, answer.headers.get("wow-error-code")]).toEqual([503, "StoreDamaged"]);
    await host.close();
    await store.close();
  });
});

describe("a file whose history is gone", () => {
  it("is refused (the marker beside it remembers the store), instead of starting an empty store", async () => {
    const path = tempDbPath();
    const store = new SqliteStore(path);
    const host = createHost({ registrations: [stock], store, clock: new VirtualClock(START) });
    await host.send(commandMessage(S.Receive, { quantity: 1 }, mug));
    // the process dies before a checkpoint, and the WAL is lost: only the file (empty of the commits) and the marker remain
    expect(existsSync(`${path}-wal`)).toBe(true);
    const lost = tempDbPath();
    copyFileSync(path, lost);
    copyFileSync(`${path}.store-id`, `${lost}.store-id`);
    expect(() => new SqliteStore(lost)).toThrow(`the SQLite file ${lost} holds no store, but ${lost}.store-id says store`);
    await host.close();
    await store.close();
  });

  it("a fresh file starts a store and writes its marker; reopening finds the same store", async () => {
    const path = tempDbPath();
    const store = new SqliteStore(path);
    const id = readFileSync(`${path}.store-id`, "utf8").trim();
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    await store.close();
    const again = new SqliteStore(path);
    expect(readFileSync(`${path}.store-id`, "utf8").trim()).toBe(id);
    await again.close();
  });
});

describe("durability and the WAL", () => {
  it("takes synchronous = FULL from wow.store.synchronous", async () => {
    const path = tempDbPath();
    const host = createHost({ registrations: [stock], store: path, config: { wow: { schedules: {}, timers: { "poll-interval": "1s", "max-attempts": 10 }, store: { synchronous: "FULL" } } } });
    expect((host.store as SqliteStore).db.pragma("synchronous", { simple: true })).toBe(2);
    await host.close();
  });

  it("bounds the WAL by default: a checkpoint every 10,000 pages (about 40 MB), the file cut back to 64 MB after one", async () => {
    const store = new SqliteStore(tempDbPath());
    expect(store.db.pragma("wal_autocheckpoint", { simple: true })).toBe(10_000);
    expect(store.db.pragma("journal_size_limit", { simple: true })).toBe(64 * 1024 * 1024);
    await store.close();
  });
});

describe("an online backup", () => {
  it("taken while the host runs restores: events, pending timers and subscription checkpoints; the restored host replays from there", async () => {
    const path = tempDbPath();
    const clock = new VirtualClock(START);
    const p = probe();
    const host = createHost({ registrations: [order, stock, shopSaga(p)], store: path, clock });
    await host.start();
    await host.send(commandMessage(S.Receive, { quantity: 5 }, mug));
    await host.send(commandMessage(S.CreateOrder, { product: "mug", quantity: 2 }, aggregateRef("shop", "Order", "o-1")));
    await clock.advanceTime("1s"); // the saga reserves, and asks the stock to hold the reservation for an hour
    const backup = tempDbPath();
    await host.backup(backup);
    expect(statSync(backup).size).toBeGreaterThan(0);
    await host.close();

    const restored = createHost({ registrations: [order, stock, shopSaga(p)], store: backup, clock });
    const delivered: string[] = [];
    const watched = createHost({ registrations: [order, stock, shopSaga(p)], store: new SqliteStore(backup), clock, onDelivery: (d) => void delivered.push(d.command.type) });
    await restored.close();
    expect((await watched.store.events.load(mug)).events.map((e) => e.type)).toEqual([S.Received, S.Reserved, "wow.ScheduleSet"]);
    expect(await watched.store.subscriptions.checkpoint("ShopSaga.onOrderCreated")).toBeGreaterThan(0);
    const calls = p.calls;
    await watched.start();
    await clock.advanceTime("1h");
    expect(p.calls).toBe(calls); // the restored checkpoint: OrderCreated is not handled again
    expect(delivered).toEqual([S.Release]);
    await watched.close();
  });
});
