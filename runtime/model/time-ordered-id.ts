import { randomUUID } from "node:crypto";

let lastMs = 0;
let counter = 0;
/** `lastMs` as the id's first two groups ("xxxxxxxx-xxxx-"), made once per millisecond. */
let prefix = "";

const hex = (n: number, width: number) => n.toString(16).padStart(width, "0");

/**
 * A UUID version 7 (RFC 9562): 48-bit Unix ms, then a 12-bit counter (monotonic within a ms in this
 * process), then 62 random bits (with the variant: the tail of a `randomUUID`, whose entropy Node draws in
 * bulk). Ids made one after another sort together, so the B-tree indexes they key (timers by id) are
 * written at their end instead of at random pages.
 */
export function timeOrderedId(now: number = Date.now()): string {
  if (now > lastMs) {
    lastMs = now;
    counter = 0;
    prefix = "";
  } else if (++counter > 0xfff) {
    lastMs++;
    counter = 0;
    prefix = "";
  }
  if (prefix === "") {
    const ms = hex(lastMs, 12);
    prefix = `${ms.slice(0, 8)}-${ms.slice(8)}-`;
  }
  return `${prefix}7${hex(counter, 3)}-${randomUUID().slice(19)}`;
}

