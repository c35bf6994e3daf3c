// A host of a cluster runs on the store's clock: its own clock plus the offset it measured from the
// store. Each measurement is read as if the store answered at the end of its round trip, so the
// estimate is never ahead of the store's clock (a host with a fast clock never judges a timer due
// early); the offset used is the largest such estimate of the last minute (the closest to the truth).
import type { Clock, SleepOptions } from "../clock.js";

/** How long a measurement counts towards the offset. */
export const OFFSET_WINDOW_MS = 60_000;
/** Above this, the host warns that its clock is off. */
export const OFFSET_WARN_MS = 1_000;

interface Sample {
  /** When taken, on the host's own clock. */
  readonly at: number;
  readonly offset: number;
}

export class OffsetClock implements Clock {
  private samples: Sample[] = [];
  private current = 0;
  private measured = false;

  constructor(readonly base: Clock) {}

  now(): number {
    return this.base.now() + this.current;
  }

  sleep(ms: number, signal?: AbortSignal, options?: SleepOptions): Promise<void> {
    return this.base.sleep(ms, signal, options);
  }

  track<T>(work: Promise<T>): Promise<T> {
    return this.base.track === undefined ? work : this.base.track(work);
  }

  /** The offset applied (store clock − own clock, ms). */
  get offset(): number {
    return this.current;
  }

  /** Whether a measurement was taken yet. */
  get known(): boolean {
    return this.measured;
  }

  /** Takes the store's time `store`, read in a round trip that ended at `answeredAt` on the host's own clock; returns the offset now applied. */
  sample(store: number, answeredAt: number): number {
    const offset = store - answeredAt;
    this.samples = this.samples.filter((s) => answeredAt - s.at < OFFSET_WINDOW_MS && s.at <= answeredAt);
    this.samples.push({ at: answeredAt, offset });
    this.current = Math.max(...this.samples.map((s) => s.offset));
    this.measured = true;
    return this.current;
  }

  /** Measures the offset with one read of `storeTime`. */
  async measure(storeTime: () => Promise<number>): Promise<number> {
    const store = await storeTime();
    return this.sample(store, this.base.now());
  }
}
