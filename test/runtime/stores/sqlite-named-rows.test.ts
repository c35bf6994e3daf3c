// SQLite statements' rows by name: the objects NamedRows builds from the driver's arrays are the rows
// the driver would have made (same keys in the same order, same values, a repeated name's last column).
import Database from "better-sqlite3";
import { expect, it } from "vitest";
import { NamedRows } from "../../../runtime/store/sqlite/named-rows.js";

it("gives the driver's rows: every column by name, nulls, a repeated name's last value, no row as undefined", () => {
  const db = new Database(":memory:");
  db.exec("CREATE TABLE t (id TEXT, n INTEGER, x REAL, b BLOB, gone TEXT); INSERT INTO t VALUES ('a', 1, 1.5, x'00ff', NULL), ('it''s \"q\"', -2, 0, NULL, 'z')");
  const sql = "SELECT id, n, x, b, gone, n * 10 AS n, id || '!' AS \"odd name\" FROM t ORDER BY n";
  const rows = new NamedRows<[], Record<string, unknown>>(db.prepare(sql));
  const driver = db.prepare(sql).all() as Record<string, unknown>[];
  expect(rows.all()).toEqual(driver);
  expect(rows.all().map((row) => Object.keys(row))).toEqual(driver.map((row) => Object.keys(row)));
  expect(rows.all()[1]!["n"]).toBe(10);
  expect(new NamedRows<[string], Record<string, unknown>>(db.prepare("SELECT * FROM t WHERE id = ?")).get("a")).toEqual({ id: "a", n: 1, x: 1.5, b: Buffer.from([0, 255]), gone: null });
  expect(new NamedRows<[string], unknown>(db.prepare("SELECT * FROM t WHERE id = ?")).get("none")).toBeUndefined();
  expect(() => new NamedRows(db.prepare("SELECT 1 AS __proto__"))).toThrow(/__proto__/);
  db.close();
});
