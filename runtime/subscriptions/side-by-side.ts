// A `@Blocking` subscription's events in flight: dispatched as they are read, side by side up to a
// limit, those of one order key (one aggregate) one after another; the subscription's position is
// the last one below every event still in flight (or left unsettled by a stop), so a restart
// re-reads exactly what was not done.
import type { EventMessage } from "../model/messages.js";

export class SideBySide {
  /** The last position read (dispatched or passed over). */
  dispatched: number;
  private readonly inflight = new Map<number, Promise<boolean>>();
  /** Events a stop cut short: the position stays below them. */
  private readonly unsettled = new Set<number>();
  private readonly tails = new Map<string, Promise<boolean>>();

  constructor(
    from: number,
    private readonly limit: number,
    private readonly orderKey: (event: EventMessage) => string,
    /** Handles one event; true once it is settled (handled or parked), false when `signal` cut it short. */
    private readonly handle: (event: EventMessage, signal: AbortSignal) => Promise<boolean>,
    /** Called whenever the settled position may have moved. */
    private readonly onSettled: () => void,
  ) {
    this.dispatched = from;
  }

  /** Starts the event (after its key's earlier ones), waiting first while `limit` events are in flight. */
  async dispatch(event: EventMessage, signal: AbortSignal): Promise<boolean> {
    while (this.inflight.size >= this.limit && !signal.aborted) await Promise.race(this.inflight.values());
    if (signal.aborted) return false;
    const position = event.position!;
    const key = this.orderKey(event);
    const task = (this.tails.get(key) ?? Promise.resolve(true)).then((ok) => (ok ? this.handle(event, signal) : false));
    this.tails.set(key, task);
    this.inflight.set(position, task);
    this.dispatched = position;
    void task.then(
      (ok) => this.done(position, key, task, ok),
      () => this.done(position, key, task, false),
    );
    return true;
  }

  /** An event it does not take: only passed over. */
  pass(event: EventMessage): void {
    this.dispatched = event.position!;
  }

  /** The position below every event in flight or cut short. */
  settled(): number {
    let floor = Infinity;
    for (const position of this.inflight.keys()) floor = Math.min(floor, position);
    for (const position of this.unsettled) floor = Math.min(floor, position);
    return floor === Infinity ? this.dispatched : floor - 1;
  }

  /** Resolves once nothing is in flight. */
  async drained(): Promise<void> {
    while (this.inflight.size > 0) await Promise.allSettled([...this.inflight.values()]);
  }

  private done(position: number, key: string, task: Promise<boolean>, ok: boolean): void {
    this.inflight.delete(position);
    if (!ok) this.unsettled.add(position);
    if (this.tails.get(key) === task) this.tails.delete(key);
    this.onSettled();
  }
}
