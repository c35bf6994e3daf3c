// Each aggregate ref's key (`refKey`), made once per ref object: a delivery's target is looked up,
// loaded and appended to, and a ref read from a row already comes with its key. The SQL stores'
// connections are built on it.
import { refKey, type AggregateRef } from "../model/aggregate-ref.js";

export class RefKeys {
  private readonly keys = new WeakMap<AggregateRef, string>();

  /** `refKey`, computed once per ref object. */
  keyOf(ref: AggregateRef): string {
    let key = this.keys.get(ref);
    if (key === undefined) {
      key = refKey(ref);
      this.keys.set(ref, key);
    }
    return key;
  }

  /** Tells `keyOf` the key of a ref read from a row (no key made again). */
  knowKey(ref: AggregateRef, key: string): void {
    this.keys.set(ref, key);
  }
}
