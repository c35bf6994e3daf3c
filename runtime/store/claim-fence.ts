// Fencing of timer claims for the stores that claim by reading (memory, SQLite): each claim of a timer
// gets a number no earlier claim had, and a batch may settle or commit a timer only while the timer's
// latest claim is still its own. A store shared by hosts keeps this in the database instead.
import type { DueBatch, TimerSettlement } from "./timer-store.js";

/** A batch's claims: each timer's claim number. */
export type ClaimNumbers = ReadonlyMap<string, number>;

export class ClaimFence {
  private last = 0;
  /** Each claimed timer's latest claim. */
  private readonly latest = new Map<string, number>();

  /** Claims `ids` anew: earlier claims of them are lost. */
  claim(ids: readonly string[]): ClaimNumbers {
    const numbers = new Map<string, number>();
    for (const id of ids) {
      const n = ++this.last;
      this.latest.set(id, n);
      numbers.set(id, n);
    }
    return numbers;
  }

  /** Whether `claims` no longer holds the settlement's timer (a later claim took it, or it was settled since). */
  lost(claims: ClaimNumbers | undefined, settlement: TimerSettlement): boolean {
    const mine = claims?.get(settlement.id);
    return mine !== undefined && this.latest.get(settlement.id) !== mine;
  }

  /** The settlements `claims` still holds, and the ids of those it lost. */
  split(claims: ClaimNumbers | undefined, settlements: readonly TimerSettlement[]): { held: TimerSettlement[]; lost: string[] } {
    const held: TimerSettlement[] = [];
    const lost: string[] = [];
    for (const s of settlements) {
      if (this.lost(claims, s)) lost.push(s.id);
      else held.push(s);
    }
    return { held, lost };
  }

  /** Ends the claims of settled timers: a settlement under an older claim is lost from now on. */
  release(settlements: readonly TimerSettlement[]): void {
    for (const s of settlements) this.latest.delete(s.id);
  }
}

/** The claim numbers a memory or SQLite batch carries. */
export function claimNumbersOf(batch: DueBatch): ClaimNumbers | undefined {
  return (batch.token as { claims?: ClaimNumbers } | undefined)?.claims;
}
