import Database from "better-sqlite3";
import { mkdtempSync } from "node:fs"; import { tmpdir } from "node:os"; import { join } from "node:path";
const { SqliteStore } = await import("../../dist/runtime/index.js");
const { SQL } = await import("../../dist/runtime/store/sqlite/statements.js");
const { slotRequestId } = await import("../../dist/runtime/model/request-ids.js");
const path = join(mkdtempSync(join(tmpdir(), "claim-")), "s.db");
new SqliteStore(path);
const db = new Database(path);
db.function("wow_slot_request", { deterministic: true }, (id, slot) => slotRequestId(String(id), Number(slot)));
const ins = db.prepare("INSERT INTO wow_timers (id, owner, tenant_id, aggregate_id, key, target, spec, command_type, slot, due, fire_at) VALUES (?,?,?,?,?,?,?,?,?,?,?)");
const spec = JSON.stringify({ rule: { kind: "at", at: 1 }, command: { type: "orders.Expire", body: { orderId: "x".repeat(20) } }, causation: { version: 1, commandId: "0190abcdef0123456789" } });
db.transaction(() => { for (let i = 0; i < 100000; i++) ins.run("t" + String(i).padStart(8, "0"), JSON.stringify(["orders", "Order", "(0)", "o" + i]), "(0)", "o"+i, "expire", null, spec, "orders.Expire", 0, 1000 + i, 1000 + i); })();
const cur = SQL.dueWithInputs;
const cols = "SELECT id, owner, spec, key, slot, due, fire_at, status, attempts, last_error, parked_at, target, rowid, coalesce(target, owner) AS stream FROM";
const variants = {
  cur,
  noOrder: cur.replace(/\n\s*ORDER BY t.due$/, ""),
  cols: cur.replace("SELECT *, rowid, coalesce(target, owner) AS stream FROM", cols),
  colsNoOrder: cur.replace("SELECT *, rowid, coalesce(target, owner) AS stream FROM", cols).replace(/\n\s*ORDER BY t.due$/, ""),
  colsNoOrderConcat: cur.replace("SELECT *, rowid, coalesce(target, owner) AS stream FROM", cols).replace(/\n\s*ORDER BY t.due$/, "").replace("wow_slot_request(t.id, t.slot)", "t.id || '#' || t.slot"),
};
const stmts = Object.fromEntries(Object.entries(variants).map(([k, sql]) => [k, db.prepare(sql).raw()]));
const sums = {};
for (let round = 0; round < 12; round++) {
  for (const [k, s] of Object.entries(stmts)) {
    const t = process.hrtime.bigint();
    for (let n = 0; n < 20; n++) s.all(200000, 1000);
    (sums[k] ??= []).push(Number(process.hrtime.bigint() - t) / 20 / 1000);
  }
}
for (const [k, v] of Object.entries(sums)) { v.sort((a, b) => a - b); console.log(k.padEnd(20), "median ns/row", v[6].toFixed(0), "min", v[0].toFixed(0)); }
