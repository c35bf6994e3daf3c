// What only the SQLite journal promises: a versioned schema, and nothing committed lost on reopen.
import { existsSync, statSync } from "node:fs";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { SCHEMA_VERSION, ScheduleRule, SqliteStore, VersionConflictError, aggregateRef, refKey, type SqliteStoreOptions } from "../../../runtime/index.js";
import { refOfKey } from "../../../runtime/model/aggregate-ref.js";
import { MIGRATIONS } from "../../../runtime/store/sqlite/schema.js";
import { tempDbPath } from "../fixtures/stores.js";

const A = aggregateRef("ctx", "agg", "a-1");

describe("SQLite journal", () => {
  it("creates a file with the page size asked for; an existing file keeps its own", async () => {
    const path = tempDbPath();
    const j = new SqliteStore(path, { pageSize: 16384 });
    expect(j.db.pragma("page_size", { simple: true })).toBe(16384);
    expect(j.db.pragma("journal_mode", { simple: true })).toBe("wal");
    await j.events.append({ aggregate: A, expectedVersion: 0, events: [], request: { requestId: "r", version: 0, errorCode: "Ok" }, timers: [] });
    await j.close();
    const reopened = new SqliteStore(path, { pageSize: 4096 });
    expect(reopened.db.pragma("page_size", { simple: true })).toBe(16384);
    expect(await reopened.events.findRequest(A, "r")).toBeDefined();
    await reopened.close();
  });

  it("leaves the WAL file at its size after a checkpoint when under walSizeLimitMb (64 MB by default), or cuts it back to it", async () => {
    const walAfterBurst = async (options: { walSizeLimitMb?: number }) => {
      const path = tempDbPath();
      const j = new SqliteStore(path, options);
      // A burst of about 3 MB, checkpointed when idle; the next commit starts the WAL over.
      const body = { text: "x".repeat(3000) };
      for (let v = 1; v <= 1000; v++) {
        const event = { eventId: `e${v}`, type: "ctx.E", body, aggregate: A, version: v, sequence: 1, commandId: `c${v}`, requestId: `c${v}`, createdAt: v };
        await j.events.append({ aggregate: A, expectedVersion: v - 1, events: [event], request: { requestId: `c${v}`, version: v, errorCode: "Ok" }, timers: [] });
      }
      const limit = j.db.pragma("journal_size_limit", { simple: true });
      const burst = statSync(`${path}-wal`).size;
      await j.idle();
      await j.events.append({ aggregate: A, expectedVersion: 1000, events: [], request: { requestId: "after", version: 1000, errorCode: "Ok" }, timers: [] });
      const after = statSync(`${path}-wal`).size;
      expect(await j.events.findRequest(A, "after")).toBeDefined();
      await j.close();
      return { limit, burst, after };
    };
    const kept = await walAfterBurst({});
    expect(kept.burst).toBeGreaterThan(3_000_000);
    expect(kept.after).toBe(kept.burst);
    expect(kept.limit).toBe(64 * 1024 * 1024); // a burst under the limit is overwritten in place
    const cut = await walAfterBurst({ walSizeLimitMb: 1 });
    expect(cut.burst).toBeGreaterThan(3_000_000);
    expect(cut.after).toBeLessThanOrEqual(1024 * 1024);
  });

  it("refuses an option SQLite would not take as meant, naming it, before creating any file", () => {
    const bad: [Record<string, unknown>, RegExp][] = [
      [{ pageSize: 3000 }, /pageSize must be a power of two from 512 to 65536 \(bytes\), got 3000/],
      [{ pageSize: 131072 }, /pageSize/],
      [{ walSizeLimitMb: -1 }, /walSizeLimitMb must be a number ≥ 0 \(MB\), got -1/],
      [{ walSizeLimitMb: Number.NaN }, /walSizeLimitMb .* got NaN/],
      [{ walAutocheckpoint: 1.5 }, /walAutocheckpoint/],
      [{ cacheMb: 0 }, /cacheMb/],
      [{ busyTimeout: -5 }, /busyTimeout/],
      [{ synchronous: "OFF" }, /synchronous must be "NORMAL" or "FULL", got OFF/],
    ];
    for (const [options, message] of bad) {
      const path = tempDbPath();
      expect(() => new SqliteStore(path, options as SqliteStoreOptions)).toThrow(message);
      expect(existsSync(path)).toBe(false);
    }
    for (const good of [{ pageSize: 512 }, { pageSize: 65536 }, { walSizeLimitMb: 0 }, { walAutocheckpoint: 0 }, { synchronous: "FULL" as const }]) {
      const j = new SqliteStore(tempDbPath(), good);
      expect(j.schemaVersion).toBe(SCHEMA_VERSION);
      j.db.close();
    }
  });

  it("reads back every aggregate from its stream key, whatever characters its parts hold", () => {
    const parts = ["", "x1", "(0)", '"', "\\", '","', 'a","b', "\u0001", "ü", "[", "]", ",", '\\"'];
    for (const context of parts)
      for (const aggregate of parts)
        for (const id of parts) {
          const ref = aggregateRef(context, aggregate, id, parts[(context.length + id.length) % parts.length]);
          expect(refOfKey(refKey(ref))).toEqual(ref);
        }
  });

  it("creates its schema, records schema_version, uses WAL", async () => {
    const path = tempDbPath();
    const j = new SqliteStore(path);
    expect(j.schemaVersion).toBe(SCHEMA_VERSION);
    expect(j.db.pragma("journal_mode", { simple: true })).toBe("wal");
    const row = j.db.prepare("SELECT value FROM wow_meta WHERE key = 'schema_version'").get() as { value: string };
    expect(Number(row.value)).toBe(SCHEMA_VERSION);
    await j.close();
    // reopening migrates nothing and keeps the version
    const again = new SqliteStore(path);
    expect(again.schemaVersion).toBe(SCHEMA_VERSION);
    await again.close();
  });

  it("refuses a database written by a newer runtime", async () => {
    const path = tempDbPath();
    await new SqliteStore(path).close();
    const db = new Database(path);
    db.prepare("UPDATE wow_meta SET value = ? WHERE key = 'schema_version'").run(String(SCHEMA_VERSION + 1));
    db.close();
    expect(() => new SqliteStore(path)).toThrow(/newer/);
  });

  it("upgrades a version 1 store: its timers and recorded requests read back unchanged", async () => {
    const path = tempDbPath();
    const db = new Database(path);
    db.exec("CREATE TABLE wow_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID");
    db.exec(MIGRATIONS[0]!.sql);
    db.prepare("INSERT INTO wow_meta (key, value) VALUES ('schema_version', '1')").run();
    const B = aggregateRef("ctx", "other", "b-1", "t2");
    const rule = ScheduleRule.at(9000);
    const insert = db.prepare("INSERT INTO wow_timers (id, owner, key, spec, slot, due, fire_at, status, attempts, last_error) VALUES (?, ?, ?, ?, 1, 9000, 9000, ?, ?, ?)");
    // as version 1 wrote them: target (unless the owner) and causation in the spec
    insert.run("t1", refKey(A), "k1", JSON.stringify({ rule, command: { type: "ctx.C", body: { n: 1 } }, causation: { version: 3, commandId: "c", requestId: "c" } }), 0, 0, null);
    insert.run(
      "t2",
      refKey(A),
      "k2",
      JSON.stringify({ rule, command: { type: "ctx.C", body: {} }, target: B, causation: { version: 2, commandId: "c2", requestId: "r2", aggregate: B } }),
      1,
      10,
      "boom",
    );
    db.prepare("INSERT INTO wow_requests (stream, request_id, version, error_code) VALUES (?, ?, ?, ?)").run(refKey(A), "r-old", 3, "Ok");
    db.prepare("INSERT INTO wow_requests (stream, request_id, version, error_code) VALUES (?, ?, ?, ?)").run(refKey(B), "r-old", 1, "Rejected");
    db.close();
    const j = new SqliteStore(path);
    expect(j.schemaVersion).toBe(SCHEMA_VERSION);
    // The command type, read out of the old rows' specs into its own column (version 8): listings by it find them.
    expect((await j.timers.list({ status: "pending", command: "ctx.C" })).map((t) => t.id)).toEqual(["t1"]);
    expect(await j.timers.list({ status: "pending", command: "ctx.D" })).toEqual([]);
    // The owner's tenant and id, likewise (version 9): t1 pending, t2 parked, both owned by A.
    expect((await j.timers.list({ status: "pending", tenantId: A.tenantId, aggregateId: A.id })).map((t) => t.id)).toEqual(["t1"]);
    expect((await j.timers.list({ status: "parked", tenantId: A.tenantId })).map((t) => t.id)).toEqual(["t2"]);
    expect(await j.timers.list({ status: "pending", aggregateId: B.id })).toEqual([]);
    expect(await j.timers.counts(99_999, A.tenantId)).toEqual({ due: 1, parked: 1 });
    expect(await j.events.findRequest(A, "r-old")).toEqual({ requestId: "r-old", version: 3, errorCode: "Ok" });
    expect(await j.events.findRequest(B, "r-old")).toEqual({ requestId: "r-old", version: 1, errorCode: "Rejected" });
    expect(await j.events.findRequest(A, "r-new")).toBeUndefined();
    expect(await j.timers.timer("t1")).toEqual({
      id: "t1",
      owner: A,
      key: "k1",
      rule,
      command: { type: "ctx.C", body: { n: 1 } },
      target: A,
      causation: { aggregate: A, version: 3, commandId: "c", requestId: "c" },
      slot: 1,
      due: 9000,
      status: "pending",
      fireAt: 9000,
      attempts: 0,
    });
    expect(await j.timers.timer("t2")).toMatchObject({ target: B, causation: { aggregate: B, version: 2, commandId: "c2", requestId: "r2" }, status: "parked", attempts: 10, lastError: "boom" });
    expect((await j.timers.claimDue(9000, 10, { owner: "me", until: 10_000 })).timers.map((t) => t.id)).toEqual(["t1"]);
    await j.close();
  });

  it("keeps events, request ids and timers across a reopen of the file", async () => {
    const path = tempDbPath();
    const j = new SqliteStore(path);
    await j.events.append({
      aggregate: A,
      expectedVersion: 0,
      events: [{ eventId: "e1", type: "ctx.E", body: { x: 1 }, aggregate: A, version: 1, sequence: 1, commandId: "c", requestId: "r", createdAt: 5 }],
      request: { requestId: "r", version: 1, errorCode: "Ok" },
      timers: [
        {
          kind: "set",
          timer: { id: "t", owner: A, key: "k", rule: ScheduleRule.after("5m"), command: { type: "ctx.C", body: {} }, target: A, causation: { aggregate: A, version: 1, commandId: "c", requestId: "r" }, slot: 1, due: 300_005 },
        },
      ],
    });
    // no close: as if the process died after the append returned
    const reopened = new SqliteStore(path);
    expect((await reopened.events.load(A)).events.map((e) => e.eventId)).toEqual(["e1"]);
    expect(await reopened.events.findRequest(A, "r")).toBeDefined();
    expect((await reopened.timers.timersOf(A)).map((t) => t.id)).toEqual(["t"]);
    await reopened.close();
    await j.close();
  });

  it("checks a batch's versions against what another process committed after the batch's claim", async () => {
    const path = tempDbPath();
    const j = new SqliteStore(path);
    const other = new SqliteStore(path);
    const at = (version: number, requestId: string) => ({
      aggregate: A,
      expectedVersion: version,
      events: [{ eventId: requestId, type: "ctx.E", body: {}, aggregate: A, version: version + 1, sequence: 1, commandId: requestId, requestId, createdAt: 5 }],
      request: { requestId, version: version + 1, errorCode: "Ok" },
      timers: [],
    });
    const timer = { id: "t", owner: A, key: "k", rule: ScheduleRule.at(1), command: { type: "ctx.C", body: {} }, target: A, causation: { aggregate: A, version: 1, commandId: "r1", requestId: "r1" }, slot: 1, due: 1 };
    await j.events.append({ ...at(0, "r1"), timers: [{ kind: "set", timer }] });
    const batch = await j.timers.claimDue(10, 10, { owner: "me", until: 100 });
    expect(batch.inputs[0]!.stream!.version).toBe(1);
    await other.events.append(at(1, "r3"));
    const outcomes = await j.timers.commitBatch(batch, [{ commit: at(1, "t#1"), settlement: { id: "t", slot: 1, outcome: { kind: "done" } } }]);
    expect(outcomes[0]).toMatchObject({ ok: false, error: expect.any(VersionConflictError) });
    expect((await j.events.load(A)).events.map((e) => e.eventId)).toEqual(["r1", "r3"]);
    expect(await j.timers.timer("t")).toMatchObject({ status: "pending" });
    await other.close();
    await j.close();
  });

  it("idle() copies the WAL into the database file (a checkpoint); commits alone leave it in the WAL", async () => {
    const path = tempDbPath();
    const j = new SqliteStore(path);
    const body = { text: "x".repeat(2_000) };
    for (let v = 0; v < 200; v++) {
      const requestId = `r${v}`;
      await j.events.append({
        aggregate: A,
        expectedVersion: v,
        events: [{ eventId: requestId, type: "ctx.E", body, aggregate: A, version: v + 1, sequence: 1, commandId: requestId, requestId, createdAt: 5 }],
        request: { requestId, version: v + 1, errorCode: "Ok" },
        timers: [],
      });
    }
    const before = statSync(path).size;
    await j.idle();
    expect(statSync(path).size).toBeGreaterThan(before + 200 * 2_000);
    expect((await j.events.load(A)).events).toHaveLength(200);
    await j.close();
  });

  it("claims with an indexed, limited query (never a scan of all pending timers)", () => {
    const j = new SqliteStore(tempDbPath());
    const plan = j.db
      .prepare("EXPLAIN QUERY PLAN SELECT id FROM wow_timers WHERE status = 0 AND fire_at <= 5 ORDER BY fire_at LIMIT 10")
      .all() as { detail: string }[];
    expect(plan.map((p) => p.detail).join(" ")).toMatch(/USING (COVERING )?INDEX wow_timers_pending/);
  });
});
