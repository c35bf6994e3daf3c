// Seeded randomness for property and fuzz tests: a failure names its seed and reproduces.

export type Random = () => number;

/** mulberry32: a small, fast PRNG with a 32-bit seed; values in [0, 1). */
export function mulberry32(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

/** An integer in [low, high]. */
export function intBetween(random: Random, low: number, high: number): number {
  return low + Math.floor(random() * (high - low + 1));
}
