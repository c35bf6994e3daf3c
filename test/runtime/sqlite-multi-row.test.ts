// Many rows in few statements: every row written once, in order, whatever the count.
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { MultiRowStatement } from "../../runtime/store/sqlite/multi-row.js";

describe("MultiRowStatement", () => {
  it.each([0, 1, 2, 63, 64, 65, 100, 129, 1000])("inserts %i rows, each once and in order", (count) => {
    const db = new Database(":memory:");
    db.exec("CREATE TABLE t (n INTEGER NOT NULL, s TEXT NOT NULL)");
    const insert = MultiRowStatement.insert(db, "INSERT INTO t (n, s)", 2);
    insert.run(Array.from({ length: count }, (_, i) => [i, `r${i}`]).flat());
    expect(db.prepare("SELECT n, s FROM t ORDER BY rowid").raw().all()).toEqual(Array.from({ length: count }, (_, i) => [i, `r${i}`]));
    db.close();
  });

  it("deletes the rows whose ids it is given, and no other", () => {
    const db = new Database(":memory:");
    db.exec("CREATE TABLE t (n INTEGER NOT NULL)");
    MultiRowStatement.insert(db, "INSERT INTO t (n)", 1).run(Array.from({ length: 300 }, (_, i) => i));
    const remove = new MultiRowStatement(db, 1, (rows) => `DELETE FROM t WHERE rowid IN (${new Array<string>(rows).fill("?").join(", ")})`);
    const odd = Array.from({ length: 150 }, (_, i) => 2 * i + 2); // rowids of the odd n
    remove.run(odd);
    expect(db.prepare("SELECT n FROM t").pluck().all()).toEqual(Array.from({ length: 150 }, (_, i) => 2 * i));
    db.close();
  });
});
