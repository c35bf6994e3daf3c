// Names that a generated spelling could merge: snake_case routes (`PayNow`, `PAY_NOW` → `pay_now`)
// and SCREAMING_SNAKE environment variables (`nightly`, `Nightly` → `NIGHTLY`). Two names can only
// be spelled alike when they are equal in lower case once every character but letters and digits
// is dropped, so the checks compare real spellings only for names that meet on a hash of that:
// in most builds, none.

/** The hash of `name` so reduced, continuing `seed` (to hash a pair of names as one). */
export function looseHash(name: string, seed = 0): number {
  let hash = (Math.imul(seed, 31) + 47) | 0; // separates a pair's parts
  for (let i = 0; i < name.length; i++) {
    let code = name.charCodeAt(i);
    if (code >= 65 && code <= 90) code += 32;
    else if (!((code >= 97 && code <= 122) || (code >= 48 && code <= 57))) continue;
    hash = (Math.imul(hash, 31) + code) | 0;
  }
  return hash;
}

/**
 * Calls `clash` for each item whose spelling an earlier item (in the order given) already has. An
 * item is spelled (`spell`) only when its `hash` (a `looseHash`) meets an earlier item's.
 */
export function forEachSpelledAlike<T>(
  items: Iterable<T>,
  hash: (item: T) => number,
  spell: (item: T) => string,
  clash: (item: T, earlier: T, spelling: string) => void,
): void {
  const byHash = new Map<number, T[]>();
  for (const item of items) {
    const key = hash(item);
    const earlier = byHash.get(key);
    if (earlier === undefined) {
      byHash.set(key, [item]);
      continue;
    }
    const spelling = spell(item);
    const other = earlier.find((e) => spell(e) === spelling);
    if (other !== undefined) clash(item, other, spelling);
    earlier.push(item);
  }
}
