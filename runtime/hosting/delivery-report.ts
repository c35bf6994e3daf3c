// What a host makes of a timer's delivery attempt: counted (outcome, lateness), logged (a retry or a
// park as a warning; the rest at debug), and a park alerted.
import type { ParkedEventAlert } from "../ops/alerts.js";
import { errorField } from "../ops/log.js";
import type { ParkedEvent } from "../store/subscription-store.js";
import type { Delivery } from "../timers/timer-service.js";
import type { HostOps } from "./host-ops.js";

export function describeDelivery(delivery: Delivery, ops: HostOps): void {
  const { command, timer, outcome } = delivery;
  ops.sink.delivered(outcome, delivery.result === undefined ? undefined : delivery.sentAt - timer.due);
  const failed = outcome === "retrying" || outcome === "parked";
  if (!failed && !ops.log.isLevelEnabled("debug")) return;
  const fields = {
    event: outcome === "parked" ? "timer.parked" : outcome === "retrying" ? "timer.retrying" : "timer.delivered",
    timer: timer.id,
    slot: timer.slot,
    due: new Date(timer.due).toISOString(),
    attempt: timer.attempt,
    outcome,
    command: command.type,
    commandId: command.commandId,
    requestId: command.requestId,
    target: command.aggregate,
    ...(command.causation === undefined ? {} : { causation: command.causation }),
    ...(delivery.result === undefined ? { err: errorField(delivery.error) } : delivery.result.succeeded ? {} : { errorCode: delivery.result.errorCode }),
  };
  if (!failed) return ops.log.debug(fields, `timer ${timer.id} slot ${timer.slot}: ${outcome}`);
  ops.log.warn(fields, `timer ${timer.id} slot ${timer.slot}: ${outcome}`);
  if (outcome === "parked") {
    ops.alerts.parked({
      kind: "timer",
      id: timer.id,
      slot: timer.slot,
      due: timer.due,
      command: command.type,
      commandId: command.commandId,
      target: command.aggregate,
      attempts: timer.attempt,
      error: delivery.error instanceof Error ? `${delivery.error.name}: ${delivery.error.message}` : String(delivery.error),
    });
  }
}

export function parkedEventAlert(entry: ParkedEvent): ParkedEventAlert {
  return {
    kind: "event",
    id: entry.id,
    subscription: entry.subscription,
    position: entry.position,
    eventId: entry.event.eventId,
    eventType: entry.event.type,
    aggregate: entry.event.aggregate,
    attempts: entry.attempts,
    error: entry.error.split("\n")[0]!,
  };
}
