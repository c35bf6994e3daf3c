// A saga's event handlers as durable subscriptions `<processor>.<function>`: handle the event, send
// what it returns (in order), and hand rejections to the saga's `@OnRejected` handler (`sendDerived`,
// which its jobs use too).
import type { Clock } from "../clock.js";
import { refKey } from "../model/aggregate-ref.js";
import type { CommandResult } from "../model/command-result.js";
import { ErrorCodes, UndeclaredOutputError } from "../model/errors.js";
import type { CommandMessage, EventMessage } from "../model/messages.js";
import { servicesFor, type Services } from "../model/registration.js";
import type { SagaCommand, SagaEventRegistration, SagaRegistration } from "../model/saga-registration.js";
import type { CommandSender } from "../processing/command-processor.js";
import { isUnroutable, UnroutableCommandError } from "../processing/command-results.js";
import type { EventStore } from "../store/event-store.js";
import type { Subscription } from "../subscriptions/subscription-service.js";
import { rejectedCommand, requestOf, sagaContext } from "./saga-requests.js";

export interface SagaRuntime {
  readonly send: CommandSender;
  readonly events: EventStore;
  readonly clock: Clock;
  readonly services: Services;
  /** `@Blocking` handlers' events in flight at once, per subscription (default 8). */
  readonly blockingConcurrency?: number;
}

/** A `@Blocking` handler's side-by-side settings: concurrent across aggregates, in order within one. */
export function blockingOf(fn: { readonly blocking: boolean }, runtime: SagaRuntime): Pick<Subscription, "concurrency" | "orderKey"> {
  return fn.blocking ? { concurrency: runtime.blockingConcurrency ?? 8, orderKey: (event: EventMessage) => refKey(event.aggregate) } : {};
}

export function sagaSubscriptions(saga: SagaRegistration, runtime: SagaRuntime): Subscription[] {
  return Object.entries(saga.events).map(([eventType, fn]) => {
    const services = servicesFor(fn.services, runtime.services, fn.subscription);
    return {
      name: fn.subscription,
      ...blockingOf(fn, runtime),
      accepts: (event: EventMessage) => event.type === eventType,
      handle: async (event: EventMessage) => {
        const outputs = await fn.handle(event, sagaContext, services);
        // Checked before anything is sent: a handler that breaks its declaration sends nothing.
        for (const output of outputs) checkDeclared(fn, output);
        for (const [index, output] of outputs.entries()) await sendDerived(saga, requestOf(output, event, index, runtime.clock.now()), runtime);
      },
    };
  });
}

/** What an event handler returns must be what its `.wow` declaration lists (`commands`, `schedules`). */
function checkDeclared(fn: SagaEventRegistration, output: SagaCommand): void {
  if (output.kind === "cancel") return;
  const declared = output.kind === "command" ? fn.commands : fn.schedules;
  if (!declared.includes(output.command.type)) throw new UndeclaredOutputError(output.kind === "command" ? "UndeclaredCommand" : "UndeclaredSchedule", fn.subscription, String(output.command.type), declared);
}

/**
 * Sends a command the saga derived (from an event, or a job's tick) and hands its rejection to the
 * saga's `@OnRejected` handler: it gets the rejections of every command the saga sent. A handler that
 * throws fails the delivery, which the subscription retries, then parks. Returns the rejection's code.
 */
export async function sendDerived(saga: SagaRegistration, request: CommandMessage, runtime: SagaRuntime): Promise<string | undefined> {
  const result = await runtime.send(request);
  // No aggregate takes it (not even the schedule request's target): a failure, retried then parked with
  // its reason, never a rejection that would go nowhere.
  if (isUnroutable(request, result)) throw new UnroutableCommandError(request);
  const code = await rejectionCode(result, request, runtime.events);
  if (code !== undefined) await deliverRejection(saga, request, code, result.errorMsg, runtime.services);
  return code;
}

/**
 * The rejection code of a request, if it was rejected: now, or before (a duplicate of a rejected
 * request, when the event is handled again after a failure: the rejection is delivered at least once).
 */
async function rejectionCode(result: CommandResult, request: CommandMessage, events: EventStore): Promise<string | undefined> {
  if (result.outcome === "rejected") return result.errorCode;
  if (result.outcome !== "duplicate") return undefined;
  const record = await events.findRequest(request.aggregate, request.requestId);
  return record && record.errorCode !== ErrorCodes.Ok ? record.errorCode : undefined;
}

async function deliverRejection(saga: SagaRegistration, request: CommandMessage, errorCode: string, errorMsg: string, services: Services): Promise<void> {
  const command = rejectedCommand(request);
  const handler = saga.rejections[command.type];
  if (!handler) return;
  await handler.handle({ command, errorCode, errorMsg: errorMsg || errorCode }, servicesFor(handler.services, services, handler.subscription));
}
