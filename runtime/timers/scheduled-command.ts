import type { CommandMessage } from "../model/messages.js";
import { slotRequestId } from "../model/request-ids.js";
import type { TimerRow } from "../store/timer-store.js";
import type { Slot } from "./slot-plan.js";

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
