/**
 * Runs tasks one after another per key, tasks of different keys side by side. A key is kept only while
 * a task holds or awaits it (memory stays bounded by the keys in use). Not reentrant: a task that
 * waits for another task of its own key never ends.
 */
export class KeyedLock {
  /** Per key, the promise the next task waits for: settled when the last task queued so far ends. */
  private readonly tails = new Map<string, Promise<void>>();

  /** Keys held or awaited now. */
  get size(): number {
    return this.tails.size;
  }

  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const before = this.tails.get(key);
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    this.tails.set(key, mine);
    try {
      if (before !== undefined) await before; // never rejects
      return await task();
    } finally {
      if (this.tails.get(key) === mine) this.tails.delete(key); // nobody queued behind: drop the key
      release();
    }
  }
}

/** One lock per store object, shared by every processor over it in this process (two hosts over one store decide in turn too). */
const locksByStore = new WeakMap<object, KeyedLock>();

/** The per-aggregate lock (by `refKey`) of the processors over `store` in this process. */
export function aggregateLocks(store: object): KeyedLock {
  let lock = locksByStore.get(store);
  if (lock === undefined) {
    lock = new KeyedLock();
    locksByStore.set(store, lock);
  }
  return lock;
}
