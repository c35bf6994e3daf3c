// "Did you mean X?": the nearest candidate by edit distance, used by every unknown-name diagnostic.

/** Levenshtein distance, case-insensitive; stops early once it exceeds `limit`. */
export function editDistance(a: string, b: string, limit = Infinity): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  if (Math.abs(s.length - t.length) > limit) return limit + 1;
  let previous = Array.from({ length: t.length + 1 }, (_, i) => i);
  for (let i = 1; i <= s.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= t.length; j++) {
      const cost = s.charCodeAt(i - 1) === t.charCodeAt(j - 1) ? 0 : 1;
      const value = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      current.push(value);
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > limit) return limit + 1;
    previous = current;
  }
  return previous[t.length];
}

/**
 * The candidate nearest to `name`, if near enough to be a plausible typo: at most a third of the
 * name's length (at least 1) edits away. Ties go to the alphabetically first candidate, so the
 * suggestion does not depend on declaration order.
 */
export function nearest(name: string, candidates: Iterable<string>): string | undefined {
  const limit = Math.max(1, Math.floor(name.length / 3));
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const candidate of candidates) {
    if (candidate === name) continue;
    const distance = editDistance(name, candidate, limit);
    if (distance < bestDistance || (distance === bestDistance && best !== undefined && candidate < best)) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return bestDistance <= limit ? best : undefined;
}

/** The sentence a hint starts with: `Did you mean 'X'? ` or nothing. */
export function didYouMean(suggestion: string | undefined): string {
  return suggestion === undefined ? "" : `Did you mean '${suggestion}'? `;
}
