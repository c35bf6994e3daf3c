/** Wow's error codes, as results carry them ("Ok" on success). */
export const ErrorCodes = {
  Ok: "Ok",
  NotFound: "NotFound",
  IllegalArgument: "IllegalArgument",
  IllegalState: "IllegalState",
  IllegalAccessDeletedAggregate: "IllegalAccessDeletedAggregate",
  DuplicateRequestId: "DuplicateRequestId",
  EventVersionConflict: "EventVersionConflict",
  CommandValidation: "CommandValidation",
} as const;

/** A domain rejection: the handler (or a runtime guard) refuses the command. A result, not a failure. */
export class CommandRejected extends Error {
  constructor(readonly code: string, message: string = code) {
    super(message);
    this.name = "CommandRejected";
  }
}

/** Throw from a handler to reject the command: `throw reject("OrderPaid", "already paid")` or `reject(...)` alone. */
export function reject(code: string, message?: string): never {
  throw new CommandRejected(code, message);
}

export function isRejection(error: unknown): error is CommandRejected {
  return error instanceof CommandRejected;
}

/**
 * A decision that does what its declaration does not allow: an event the `.wow` file's `produces`
 * does not list, a schedule of a command its `schedules` does not list, or a saga or job command its
 * `commands` does not list. A bug in the handler (its types were cast away), not the command's fault:
 * nothing of the decision is committed, and it fails as a technical failure (a scheduled delivery or a
 * saga event is retried, then parked; an HTTP caller gets a 500 with this code).
 */
export class UndeclaredOutputError extends Error {
  constructor(
    readonly code: "UndeclaredEvent" | "UndeclaredSchedule" | "UndeclaredCommand",
    /** The handler: a command type, or a saga's subscription. */
    readonly handler: string,
    /** The type it is not allowed to produce or send. */
    readonly type: string,
    readonly declared: readonly string[],
  ) {
    const what = code === "UndeclaredEvent" ? "produces the event" : code === "UndeclaredSchedule" ? "schedules the command" : "sends the command";
    const list = code === "UndeclaredEvent" ? "produces" : code === "UndeclaredSchedule" ? "schedules" : "commands";
    super(`${handler} ${what} ${type}, which its declaration does not list (${list} = [${declared.join(", ")}]): add it to the .wow declaration, or stop ${code === "UndeclaredEvent" ? "producing" : "sending"} it`);
    // Stored errors (parked timers and events) start with their name: the code says what broke.
    this.name = code;
  }
}
