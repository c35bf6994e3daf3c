import type { TimerRow } from "../journal/journal.js";
import type { CommandMessage } from "../model/messages.js";
import type { Slot } from "./slot-plan.js";

/** The request id of a timer's slot: `timer#slot`. */
export function slotRequestId(timer: string, slot: number): string {
  return `${timer}#${slot}`;
}

/** The command a timer sends for a slot: tenant and causation of the commit that set it, `command.schedule` set. */
export function scheduledCommand(row: TimerRow, slot: Slot, now: number): CommandMessage {
  const requestId = slotRequestId(row.id, slot.slot);
  return {
    commandId: requestId,
    requestId,
    type: row.command.type,
    body: row.command.body,
    aggregate: row.target,
    createdAt: now,
    causation: row.causation,
    schedule: { timer: row.id, slot: slot.slot, due: slot.due },
  };
}
