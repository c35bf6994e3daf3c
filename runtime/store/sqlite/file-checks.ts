// What the SQLite store checks about its file: that it is a sound database (a quick integrity check at
// start, and SQLite's own corruption errors at any time), and that it is the store it was (a marker
// beside the file keeps the store's id, so a file whose history is gone is not silently started afresh).
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, writeSync } from "node:fs";
import Database from "better-sqlite3";
import { StoreDamagedError } from "../errors.js";

const DAMAGE = /^SQLITE_(CORRUPT|NOTADB)/;

/** `error` as the damage it reveals in the file at `path`, if it is SQLite's corruption error. */
export function damageOf(error: unknown, path: string): StoreDamagedError | undefined {
  if (error instanceof StoreDamagedError) return error;
  if (!(error instanceof Database.SqliteError) || !DAMAGE.test(error.code)) return undefined;
  return new StoreDamagedError(
    path,
    error.code,
    `the SQLite file ${path} is damaged (${error.code}: ${error.message}): this host stopped deciding and delivering, and writes nothing more into it; restore the file from a backup (host.backup) or repair it, then start again`,
    error,
  );
}

/**
 * SQLite's quick check (b-tree structure, page and record formats; not the UNIQUE indexes' content).
 * It reads every page once: about 20–40 ms per 100 MB on a warm cache, at start only.
 */
export function checkIntegrity(db: Database.Database, path: string): void {
  const rows = db.pragma("quick_check(3)") as { quick_check: string }[];
  const findings = rows.map((r) => r.quick_check).filter((r) => r !== "ok");
  if (findings.length > 0) {
    throw new StoreDamagedError(path, findings.join("; "), `the SQLite file ${path} failed its integrity check (${findings.join("; ")}): restore it from a backup (host.backup) or repair it before starting; to start without the check, set the store's integrityCheck: false`);
  }
}

/** The marker beside the file: the id of the store that was created in it. */
export function markerPath(path: string): string {
  return `${path}.store-id`;
}

/** Whether the file already holds a store (the runtime's schema table), before anything is created in it. */
export function holdsStore(db: Database.Database): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'wow_meta'").get() !== undefined;
}

/**
 * Refuses to create a store over a file whose store's history is gone: the marker says a store was
 * created here, but the file holds none (its WAL deleted or damaged before a checkpoint, or the file
 * emptied). A file holding another store than the marker's is refused too.
 */
export function checkMarker(path: string, storeId: string | undefined): void {
  if (path === ":memory:" || path === "" || !existsSync(markerPath(path))) return;
  const marked = readFileSync(markerPath(path), "utf8").trim();
  if (storeId === undefined) {
    throw new StoreDamagedError(
      path,
      "history gone",
      `the SQLite file ${path} holds no store, but ${markerPath(path)} says store ${marked} was created in it: its history is gone (the WAL deleted or damaged before it was copied into the file?). Restore the file (and its -wal) from a backup; to start a new, empty store here, delete ${markerPath(path)}`,
    );
  }
  if (marked !== storeId) {
    throw new StoreDamagedError(
      path,
      "another store",
      `the SQLite file ${path} holds store ${storeId}, but ${markerPath(path)} says store ${marked} was created in it: another file was put in its place. If that is meant (a copy of another store), delete ${markerPath(path)}`,
    );
  }
}

/** Writes the marker (durably) when there is none. */
export function writeMarker(path: string, storeId: string): void {
  if (path === ":memory:" || path === "" || existsSync(markerPath(path))) return;
  const fd = openSync(markerPath(path), "w");
  try {
    writeSync(fd, `${storeId}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
