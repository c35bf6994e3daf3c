// The SQLite store's options, checked before any file is opened, and the connection settings they give.
import type Database from "better-sqlite3";

export interface SqliteStoreOptions {
  /**
   * `NORMAL` (default): in WAL mode a commit survives the death of the process (it is in the OS
   * before `append` returns), not necessarily a power loss. `FULL` also survives a power loss.
   */
  readonly synchronous?: "NORMAL" | "FULL";
  /** Milliseconds to wait for another process's write lock (default 5000). */
  readonly busyTimeout?: number;
  /** SQLite page cache per connection, in MB (default 64). */
  readonly cacheMb?: number;
  /**
   * WAL pages after which a commit checkpoints the WAL into the database file (default 10,000 ≈ 40 MB;
   * SQLite's own default is 1,000). A checkpoint syncs both files and writes each page once however
   * often it was re-written, and it holds up the commit that runs it; the background checkpoints
   * (`checkpointInterval`) and the timer poller's whenever nothing is due before its next poll (`idle`)
   * leave it little to copy, so this is the bound, reached under load that never lets the WAL start
   * over. The bound is what a start after a crash reads back (recovery reads the whole WAL):
   * `bench:timers` measures both sides.
   */
  readonly walAutocheckpoint?: number;
  /**
   * Checkpoints on a thread of their own, at most one per this many milliseconds while the store is in
   * use (default 250; 0: none, only the committing connection's own at `walAutocheckpoint`). The thread
   * starts once the WAL file passes 4 MB; a commit waits at most for its start-over of a long WAL (the
   * pages written since its copy), not for a whole copy and sync, and the automatic checkpoint, still
   * the bound, finds little left.
   */
  readonly checkpointInterval?: number;
  /**
   * The size in MB that the WAL file is cut back to once a checkpoint has copied it into the database
   * file (default 64, above the checkpoint bound, so a WAL of ordinary bursts is overwritten in place:
   * extending the file as it is written costs the kernel more per WAL page). A WAL grown past it by a
   * transaction larger than the bound shrinks back after its checkpoint.
   */
  readonly walSizeLimitMb?: number;
  /**
   * SQLite page size in bytes for a file created now (a power of two, 512 to 65536; default 4096); an
   * existing file keeps the size it was created with.
   */
  readonly pageSize?: number;
  /**
   * SQLite's quick integrity check of an existing file at start (default true): a damaged file is
   * refused before the host decides anything on it. It reads every page once (about 20–40 ms per
   * 100 MB on a warm cache).
   */
  readonly integrityCheck?: boolean;
}

/**
 * Refuses an option SQLite would not take as meant (it ignores a page size that is not a power of two,
 * reads a negative size limit as none, and `NaN` is not SQL), before any file is opened.
 */
export function checkOptions(options: SqliteStoreOptions): void {
  const check = <T>(name: keyof SqliteStoreOptions, ok: (value: T) => boolean, expected: string): void => {
    const value = options[name] as T | undefined;
    if (value !== undefined && !ok(value)) throw new RangeError(`SqliteStore: ${name} must be ${expected}, got ${String(value)}`);
  };
  const integerFrom = (min: number) => (v: number) => Number.isInteger(v) && v >= min;
  check<string>("synchronous", (v) => v === "NORMAL" || v === "FULL", '"NORMAL" or "FULL"');
  check("busyTimeout", integerFrom(0), "an integer ≥ 0 (milliseconds)");
  check<number>("cacheMb", (v) => Number.isFinite(v) && v > 0, "a number > 0 (MB)");
  check("walAutocheckpoint", integerFrom(0), "an integer ≥ 0 (pages; 0 turns automatic checkpoints off)");
  check("checkpointInterval", integerFrom(0), "an integer ≥ 0 (milliseconds; 0 turns background checkpoints off)");
  check<number>("walSizeLimitMb", (v) => Number.isFinite(v) && v >= 0, "a number ≥ 0 (MB)");
  check<number>("pageSize", (v) => integerFrom(512)(v) && v <= 65536 && (v & (v - 1)) === 0, "a power of two from 512 to 65536 (bytes)");
}

export const DEFAULT_WAL_PAGES = 10_000;
export const DEFAULT_WAL_LIMIT_MB = 64;
export const DEFAULT_CHECKPOINT_INTERVAL = 250;

/** The connection's settings (WAL, durability, waits, cache). */
export function configure(db: Database.Database, options: SqliteStoreOptions): void {
  // Only an empty file takes a new page size, and only before WAL mode is on.
  if (options.pageSize !== undefined) db.pragma(`page_size = ${options.pageSize}`);
  db.pragma("journal_mode = WAL");
  db.pragma(`synchronous = ${options.synchronous ?? "NORMAL"}`);
  db.pragma(`busy_timeout = ${options.busyTimeout ?? 5000}`);
  db.pragma(`cache_size = -${options.cacheMb ?? 64}000`);
  db.pragma("temp_store = MEMORY");
  // Checkpoints run on their own thread (`Checkpointer`) and when the timer poller has nothing due soon
  // (`idle`); the automatic one is the bound under load that never lets the WAL start over.
  db.pragma(`wal_autocheckpoint = ${options.walAutocheckpoint ?? DEFAULT_WAL_PAGES}`);
  db.pragma(`journal_size_limit = ${Math.round((options.walSizeLimitMb ?? DEFAULT_WAL_LIMIT_MB) * 1024 * 1024)}`);
}
