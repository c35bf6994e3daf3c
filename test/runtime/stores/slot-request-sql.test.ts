// The SQL form of a slot's request id is the JS one: SQLite's claim joins a due timer to its slot's
// request record by it, so a difference would deliver an already-decided slot again.
import Database from "better-sqlite3";
import { expect, it } from "vitest";
import { slotRequestId } from "../../../runtime/index.js";
import { slotRequestIdSql } from "../../../runtime/model/request-ids.js";

it("slotRequestIdSql is slotRequestId in SQLite (ids with '#' and non-ASCII, slots up to 2^53 - 1)", () => {
  const db = new Database(":memory:");
  // Columns typed as wow_timers' are (a bound JS number is a REAL until an INTEGER column takes it).
  db.exec("CREATE TABLE timers (id TEXT NOT NULL, slot INTEGER NOT NULL)");
  const cases = [["0190f1a2-timer", 1], ["t#1", 42], ["ünïcode ✓", Number.MAX_SAFE_INTEGER], ["", 0]] as const;
  const insert = db.prepare("INSERT INTO timers (id, slot) VALUES (?, ?)");
  for (const [timer, slot] of cases) insert.run(timer, slot);
  const ids = db.prepare<[], { id: string }>(`SELECT ${slotRequestIdSql("id", "slot")} AS id FROM timers ORDER BY rowid`).all();
  expect(ids.map((row) => row.id)).toEqual(cases.map(([timer, slot]) => slotRequestId(timer, slot)));
  db.close();
});
