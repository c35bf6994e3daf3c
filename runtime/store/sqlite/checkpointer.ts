// WAL checkpoints on a thread of their own: a checkpoint copies the WAL's pages into the database file
// and syncs it, tens of milliseconds under a burst of deliveries, which the commit that reaches
// `walAutocheckpoint` would otherwise wait for on the event loop. The thread copies (PASSIVE: it never
// waits for the store's own connection, nor holds it up) at most once per interval while the store is
// used, and sleeps while it is not; the automatic checkpoint stays the bound. Only its RESTART of a long
// WAL takes the write lock, for the few pages written since its copy.
import { statSync } from "node:fs";
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import Database from "better-sqlite3";

/** The shared counters' slots. */
const USED = 0;
const STOP = 1;
const DONE = 2;

/**
 * WAL frames after which the thread, having copied them all, also starts the WAL over (RESTART): it
 * waits for no one (a commit in progress makes it give up until next time), and what it still has to
 * copy then is only what was written during its PASSIVE pass, so no commit waits on a whole copy.
 */
const RESTART_FRAMES = 2_500;

/** The thread starts once the WAL file has grown past this many bytes (a small store never needs it). */
const CHECKPOINTER_START_BYTES = 4 * 1024 * 1024;

// The thread's code, as a script (the runtime may run from TypeScript sources, which a worker would not
// load): wait for a use, checkpoint (and start a long WAL over), rest `interval` ms, repeat; report a
// failed checkpoint and go on. Its connection has no busy timeout: a RESTART that finds a commit in
// progress gives up at once rather than hold up the next one.
const THREAD = `
const { workerData, parentPort } = require("node:worker_threads");
const Database = require(workerData.driver);
const shared = new Int32Array(workerData.shared);
const db = new Database(workerData.path, { fileMustExist: true, timeout: 0 });
try {
  for (;;) {
    const seen = Atomics.load(shared, ${USED});
    if (Atomics.load(shared, ${STOP}) === 1) break;
    try {
      const [copied] = db.pragma("wal_checkpoint(PASSIVE)");
      if (copied.log >= workerData.restartFrames) db.pragma("wal_checkpoint(RESTART)");
      Atomics.add(shared, ${DONE}, 1);
    } catch (error) {
      parentPort.postMessage({ code: String(error.code ?? "ERROR"), message: String(error.message) });
    }
    Atomics.wait(shared, ${STOP}, 0, workerData.interval);
    Atomics.wait(shared, ${USED}, seen);
  }
} finally {
  db.close();
}
`;

export class Checkpointer {
  private readonly shared = new Int32Array(new SharedArrayBuffer(12));
  private worker: Worker | undefined;
  /** Settles when the thread has ended (it ends only when stopped, or if it fails to start). */
  private exited: Promise<void> | undefined;
  private checkedAt = 0;

  /**
   * `interval`: the least time between two checkpoints (ms); `onFailure`: a checkpoint's error, as SQLite's
   * (the store marks itself damaged on a corruption error; any other is retried at the next checkpoint).
   */
  constructor(
    private readonly path: string,
    private readonly interval: number,
    private readonly onFailure: (error: Error) => void,
  ) {}

  /** After a use of the store: wakes the thread, or starts it once the WAL has grown past the start size. */
  used(): void {
    if (this.worker !== undefined) {
      Atomics.add(this.shared, USED, 1);
      Atomics.notify(this.shared, USED);
      return;
    }
    if (this.exited !== undefined) return;
    const now = performance.now();
    if (now - this.checkedAt < this.interval) return;
    this.checkedAt = now;
    if (walBytes(this.path) > CHECKPOINTER_START_BYTES) this.start();
  }

  /** Checkpoints the thread completed so far, failed ones not counted (for tests and benches). */
  get completed(): number {
    return Atomics.load(this.shared, DONE);
  }

  get running(): boolean {
    return this.worker !== undefined;
  }

  /** Ends the thread (after its checkpoint in progress, if any) and closes its connection. */
  async stop(): Promise<void> {
    this.exited ??= Promise.resolve();
    // Held until it ends: an unreferenced thread would let the process exit with this promise pending.
    this.worker?.ref();
    this.worker = undefined;
    Atomics.store(this.shared, STOP, 1);
    Atomics.add(this.shared, USED, 1);
    Atomics.notify(this.shared, STOP);
    Atomics.notify(this.shared, USED);
    await this.exited;
  }

  private start(): void {
    const driver = createRequire(import.meta.url).resolve("better-sqlite3");
    const worker = new Worker(THREAD, { eval: true, workerData: { driver, path: this.path, shared: this.shared.buffer, interval: this.interval, restartFrames: RESTART_FRAMES } });
    worker.on("message", ({ code, message }: { code: string; message: string }) => this.onFailure(new Database.SqliteError(message, code)));
    worker.on("error", (error) => this.onFailure(error));
    this.exited = new Promise((resolve) => worker.once("exit", () => resolve()));
    void this.exited.then(() => {
      if (this.worker === worker) this.worker = undefined;
    });
    // A store left open does not keep the process alive; an interrupted checkpoint is redone by the next.
    worker.unref();
    this.worker = worker;
  }
}

function walBytes(path: string): number {
  try {
    return statSync(`${path}-wal`).size;
  } catch {
    return 0;
  }
}
