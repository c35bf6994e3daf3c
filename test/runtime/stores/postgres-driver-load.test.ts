// A host on SQLite (the embedded default) never loads the PostgreSQL driver: it is loaded when the first
// PostgreSQL store is made. (A process of its own: the test runner's own process may have loaded it.)
import { execFileSync } from "node:child_process";
import { expect, it } from "vitest";

const SCRIPT = `
import { createRequire } from "node:module";
const cache = createRequire(import.meta.url).cache;
const loaded = () => Object.keys(cache).some((path) => path.includes("/node_modules/pg/"));
const { PostgresStore, SqliteStore } = await import("./runtime/index.ts");
const { mkdtempSync, rmSync } = await import("node:fs");
const { tmpdir } = await import("node:os");
const dir = mkdtempSync(tmpdir() + "/wowc-pg-load-");
const sqlite = new SqliteStore(dir + "/store.db");
const before = loaded();
await sqlite.close();
rmSync(dir, { recursive: true });
const pg = new PostgresStore({ url: "postgres://127.0.0.1:1/none" });
const after = loaded();
await pg.close();
console.log(JSON.stringify({ before, after }));
`;

it("loads the pg driver only when a PostgreSQL store is made", () => {
  const out = execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", SCRIPT], { encoding: "utf8" });
  expect(JSON.parse(out.trim().split("\n").at(-1)!)).toEqual({ before: false, after: true });
});
