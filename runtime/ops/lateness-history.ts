// Delivery lateness per minute over the last hours (the console's chart): a histogram per minute on
// fixed bounds, so a quantile is the upper bound of its bucket (never above the minute's maximum).

/** Upper bounds of the buckets, in ms; the last takes everything above. */
const BOUNDS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 30_000, 60_000, Infinity];
const MINUTE = 60_000;
/** Minutes kept: a day. */
const KEPT = 24 * 60;

export interface LatenessMinute {
  /** The minute's start, epoch ms. */
  readonly at: number;
  readonly count: number;
  readonly p50Ms: number;
  readonly p95Ms: number;
  readonly maxMs: number;
}

interface Minute {
  readonly at: number;
  readonly counts: number[];
  count: number;
  max: number;
}

export class LatenessHistory {
  private readonly kept: Minute[] = [];

  constructor(private readonly now: () => number) {}

  observe(latenessMs: number): void {
    const at = Math.floor(this.now() / MINUTE) * MINUTE;
    let minute = this.kept[this.kept.length - 1];
    if (minute === undefined || minute.at !== at) {
      minute = { at, counts: BOUNDS.map(() => 0), count: 0, max: 0 };
      this.kept.push(minute);
      if (this.kept.length > KEPT) this.kept.shift();
    }
    let bucket = 0;
    while (latenessMs > BOUNDS[bucket]!) bucket++;
    minute.counts[bucket]!++;
    minute.count++;
    minute.max = Math.max(minute.max, latenessMs);
  }

  /** The last `minutes` minutes up to now, oldest first; a minute without deliveries has count 0. */
  minutes(minutes: number): LatenessMinute[] {
    const last = Math.floor(this.now() / MINUTE) * MINUTE;
    const byStart = new Map(this.kept.map((m) => [m.at, m]));
    const out: LatenessMinute[] = [];
    for (let at = last - (Math.min(minutes, KEPT) - 1) * MINUTE; at <= last; at += MINUTE) {
      const m = byStart.get(at);
      out.push(m === undefined ? { at, count: 0, p50Ms: 0, p95Ms: 0, maxMs: 0 } : { at, count: m.count, p50Ms: quantile(m, 0.5), p95Ms: quantile(m, 0.95), maxMs: m.max });
    }
    return out;
  }
}

function quantile(minute: Minute, q: number): number {
  const rank = Math.ceil(q * minute.count);
  let seen = 0;
  for (let i = 0; i < BOUNDS.length; i++) {
    seen += minute.counts[i]!;
    if (seen >= rank) return Math.min(BOUNDS[i]!, minute.max);
  }
  return minute.max;
}
