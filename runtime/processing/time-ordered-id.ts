import { randomFillSync } from "node:crypto";

const POOL = 4096;
const pool = Buffer.alloc(POOL);
let used = POOL;
let lastMs = 0;
let counter = 0;

function randomBytes(n: number): Buffer {
  if (used + n > POOL) {
    randomFillSync(pool);
    used = 0;
  }
  const out = pool.subarray(used, used + n);
  used += n;
  return out;
}

const hex = (n: number, width: number) => n.toString(16).padStart(width, "0");

/**
 * A UUID version 7 (RFC 9562): 48-bit Unix ms, then a 12-bit counter (monotonic within a ms in this
 * process), then 62 random bits. Ids made one after another sort together, so the B-tree indexes
 * they key (timers by id) are written at their end instead of at random pages.
 */
export function timeOrderedId(now: number = Date.now()): string {
  if (now > lastMs) {
    lastMs = now;
    counter = 0;
  } else if (++counter > 0xfff) {
    lastMs++;
    counter = 0;
  }
  const r = randomBytes(8);
  const ms = hex(lastMs, 12);
  const variant = hex(0x8000 | (r.readUInt16BE(0) & 0x3fff), 4);
  return `${ms.slice(0, 8)}-${ms.slice(8)}-7${hex(counter, 3)}-${variant}-${r.toString("hex", 2, 8)}`;
}
