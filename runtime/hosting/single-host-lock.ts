// A SQLite store serves one host: while a host runs on a file, it keeps `<file>-host` (beside SQLite's
// own `-wal` and `-shm`) fresh with its id, machine, pid and a heartbeat. A second host started on the
// file is refused with a message that points to PostgreSQL; a lock left by a host that died (its pid
// gone on this machine, or no heartbeat for a while from another) is taken over.
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";

const HEARTBEAT_MS = 2_000;
/** A lock not renewed for this long is stale (its host died on another machine). */
const STALE_MS = 10_000;

interface LockData {
  readonly host: string;
  readonly machine: string;
  readonly pid: number;
  readonly heartbeatAt: number;
}

/** A second host on a SQLite file: refused, naming the host that runs on it. */
export class SingleHostStoreError extends Error {
  readonly code = "WOW_STORE_SINGLE_HOST";
  constructor(readonly path: string, readonly holder: LockData) {
    super(
      `${path} is in use by host ${holder.host} (pid ${holder.pid} on ${holder.machine}, heartbeat ${Math.max(0, Date.now() - holder.heartbeatAt)} ms ago): a SQLite store serves one host. ` +
        `To run several hosts, share a PostgreSQL store (wow.store.url = "postgres://…", see docs/cluster.md); to restart this one, stop the other first.`,
    );
    this.name = "SingleHostStoreError";
  }
}

export class SingleHostLock {
  private readonly file: string;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly path: string, private readonly host: string) {
    this.file = `${path}-host`;
  }

  /** Takes the lock, or throws SingleHostStoreError while another live host holds it. */
  acquire(): void {
    const held = this.read();
    if (held !== undefined && held.host !== this.host && alive(held)) throw new SingleHostStoreError(this.path, held);
    this.write();
    this.timer = setInterval(() => this.write(), HEARTBEAT_MS);
    this.timer.unref();
  }

  release(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    if (this.read()?.host === this.host) rmSync(this.file, { force: true });
  }

  private write(): void {
    const data: LockData = { host: this.host, machine: hostname(), pid: process.pid, heartbeatAt: Date.now() };
    try {
      writeFileSync(this.file, JSON.stringify(data));
    } catch {
      // A read-only directory: the store itself reports what it cannot write.
    }
  }

  private read(): LockData | undefined {
    try {
      const data = JSON.parse(readFileSync(this.file, "utf8")) as Partial<LockData>;
      return typeof data.host === "string" && typeof data.pid === "number" && typeof data.heartbeatAt === "number" && typeof data.machine === "string" ? (data as LockData) : undefined;
    } catch {
      return undefined;
    }
  }
}

/** Whether the lock's host still runs: its pid on this machine, else a recent heartbeat. */
function alive(lock: LockData): boolean {
  if (lock.machine === hostname()) {
    try {
      process.kill(lock.pid, 0);
      return true;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === "EPERM";
    }
  }
  return Date.now() - lock.heartbeatAt < STALE_MS;
}
