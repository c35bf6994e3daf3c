// Lists kept for a whole build (the AST's, the program model's) at their exact length. An array
// filled by `push` gets room for 16 more elements at its first push (V8 grows a backing store by
// half, plus 16): a one-item list keeps ~150 bytes where 24 do, and the garbage collector copies
// every kept byte out of the young generation. On a 1.3 MB project the AST's lists kept 5.7 MB.
// Empty lists are one shared frozen array: a third of the AST's lists are empty (no annotations,
// no parameters…), and each `[]` is an object of its own (32 bytes).

/** The one empty list of the AST and the model. */
export const EMPTY: readonly never[] = Object.freeze([]);

/**
 * The shared empty list when `items` is empty, else an exact-length copy. Short lists (most of them)
 * are copied by array literals rather than `slice`: V8 may allocate a literal's arrays straight in
 * the old generation once it has seen that they are kept (see source-name.ts), never a `slice`'s.
 */
export function exact<T>(items: readonly T[]): readonly T[] {
  switch (items.length) {
    case 0:
      return EMPTY;
    case 1:
      return [items[0]!];
    case 2:
      return [items[0]!, items[1]!];
    case 3:
      return [items[0]!, items[1]!, items[2]!];
    case 4:
      return [items[0]!, items[1]!, items[2]!, items[3]!];
    default:
      return items.slice();
  }
}
