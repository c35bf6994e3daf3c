// The request ids the runtime derives, defined once: a redelivered slot or a re-handled event sends
// the same requests, which its target recognises as duplicates and does not decide again.

/** The request id of a timer's slot: `timer#slot`. */
export function slotRequestId(timer: string, slot: number): string {
  return `${timer}#${slot}`;
}

/** `slotRequestId` as an SQL expression, over the expressions of a timer's id and its integer slot. */
export function slotRequestIdSql(timer: string, slot: string): string {
  return `${timer} || '#' || ${slot}`;
}

/** The request id of the `index`-th (0-based) command derived from an event: `<eventId>-<index>`. */
export function derivedRequestId(eventId: string, index: number): string {
  return `${eventId}-${index}`;
}

/**
 * The request id of the `index`-th command a job's run derives for the slot of `instance` (a refKey)
 * due at `due`: the same for the scheduled run and any backfill of that slot, so a slot run again
 * sends nothing new.
 */
export function jobSlotRequestId(instance: string, due: number, index: number): string {
  return `${instance}@${due}-${index}`;
}
