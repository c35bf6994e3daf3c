// "Did you mean X?": the nearest candidate by edit distance, used by every unknown-name diagnostic.

/** Three rows of the distance table, reused by every call (grown as needed). */
let beforeRow = new Int32Array(64);
let previousRow = new Int32Array(64);
let currentRow = new Int32Array(64);

/**
 * Optimal string alignment distance of two names already in lower case (Levenshtein, and two
 * adjacent characters swapped count as one edit: `buidl` is one from `build`); stops early once it
 * exceeds `limit`. Allocates nothing: an unknown name is compared with every declared name of its kinds.
 */
function lowerCaseDistance(s: string, t: string, limit: number): number {
  const m = t.length;
  if (previousRow.length <= m) {
    beforeRow = new Int32Array(m + 1);
    previousRow = new Int32Array(m + 1);
    currentRow = new Int32Array(m + 1);
  }
  let before = beforeRow;
  let previous = previousRow;
  let current = currentRow;
  for (let j = 0; j <= m; j++) previous[j] = j;
  let previousMin = 0;
  for (let i = 1; i <= s.length; i++) {
    const char = s.charCodeAt(i - 1);
    const last = i > 1 ? s.charCodeAt(i - 2) : -1;
    current[0] = i;
    let rowMin = i;
    for (let j = 1; j <= m; j++) {
      let value = previous[j]! + 1;
      const insert = current[j - 1]! + 1;
      if (insert < value) value = insert;
      const replace = previous[j - 1]! + (char === t.charCodeAt(j - 1) ? 0 : 1);
      if (replace < value) value = replace;
      if (j > 1 && char === t.charCodeAt(j - 2) && last === t.charCodeAt(j - 1) && before[j - 2]! + 1 < value) value = before[j - 2]! + 1;
      current[j] = value;
      if (value < rowMin) rowMin = value;
    }
    // A swap reaches back two rows: stop only when neither this row nor the one before can come back under the limit.
    if (rowMin > limit && previousMin + 1 > limit) return limit + 1;
    previousMin = rowMin;
    const oldest = before;
    before = previous;
    previous = current;
    current = oldest;
  }
  return previous[m]!;
}

/**
 * The candidate nearest to `name`, if near enough to be a plausible typo: at most a third of the
 * name's length (at least 1) edits away. Ties go to the alphabetically first candidate, so the
 * suggestion does not depend on declaration order.
 */
export function nearest(name: string, candidates: Iterable<string>): string | undefined {
  return new Candidates(candidates).nearest(name);
}

/**
 * Names to suggest from, prepared once for many look-ups (a misspelt import can leave hundreds of
 * distinct unknown names, each compared with every declared one).
 */
export class Candidates {
  /**
   * Edit distances one set of candidates computes at most: a flood of distinct unknown names (a
   * generated file with a systematic typo) would otherwise cost unknowns × candidates of them
   * (8,000 × 2,000 alike names: 5 s). Past it, later unknown names get no suggestion; the first
   * ones, which the user reads, have theirs.
   */
  static readonly BUDGET = 2_000_000;
  private spent = 0;
  private readonly names: string[] = [];
  private readonly lowerCase: string[] = [];
  /** `charactersOf` of each name. */
  private readonly masks: number[] = [];

  constructor(names: Iterable<string>) {
    for (const name of names) {
      this.names.push(name);
      this.lowerCase.push(name.toLowerCase());
      this.masks.push(charactersOf(name));
    }
  }

  nearest(name: string): string | undefined {
    if (this.spent >= Candidates.BUDGET) return undefined;
    const limit = Math.max(1, Math.floor(name.length / 3));
    const mask = charactersOf(name);
    const lower = name.toLowerCase();
    let best: string | undefined;
    let bestDistance = limit + 1;
    for (let i = 0; i < this.names.length; i++) {
      const candidate = this.names[i]!;
      if (candidate === name || Math.abs(candidate.length - name.length) > limit) continue;
      // An edit adds or removes at most two characters of the set: a cheap bound skips most candidates.
      if (bitCount(mask ^ this.masks[i]!) > 2 * limit) continue;
      this.spent++;
      const distance = lowerCaseDistance(lower, this.lowerCase[i]!, limit);
      if (distance < bestDistance || (distance === bestDistance && best !== undefined && candidate < best)) {
        best = candidate;
        bestDistance = distance;
      }
    }
    return bestDistance <= limit ? best : undefined;
  }
}

/** The characters a name holds, as bits: a-z (either case) 0-25, digits 26-30 (shared), anything else 31. */
function charactersOf(name: string): number {
  let bits = 0;
  for (let i = 0; i < name.length; i++) {
    const code = name.charCodeAt(i);
    const lower = code | 0x20;
    if (lower >= 97 && lower <= 122) bits |= 1 << (lower - 97);
    else if (code >= 48 && code <= 57) bits |= 1 << (26 + ((code - 48) % 5));
    else bits |= 1 << 31;
  }
  return bits;
}

function bitCount(bits: number): number {
  let v = bits - ((bits >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** The sentence a hint starts with: `Did you mean 'X'? ` or nothing. */
export function didYouMean(suggestion: string | undefined): string {
  return suggestion === undefined ? "" : `Did you mean '${suggestion}'? `;
}
