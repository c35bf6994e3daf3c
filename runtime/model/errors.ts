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
