// Errors as the API answers them: JSON `{ errorCode, errorMsg }`, the `Wow-Error-Code` header, and
// Wow's status mapping.
import { ErrorCodes } from "../model/errors.js";

export class HttpError extends Error {
  constructor(readonly status: number, readonly code: string, message: string, readonly details?: unknown) {
    super(message);
    this.name = "HttpError";
  }
}

/** Wow's statuses per error code; any other (a domain rejection) is a 400. */
export function statusOfCode(code: string): number {
  switch (code) {
    case ErrorCodes.Ok:
      return 200;
    case ErrorCodes.NotFound:
      return 404;
    case ErrorCodes.IllegalAccessDeletedAggregate:
      return 410;
    case ErrorCodes.EventVersionConflict:
    case "CommandExpectVersionConflict":
      return 409;
    case "IllegalAccessOwnerAggregate":
    case "Forbidden":
      return 403;
    case "Unauthorized":
      return 401;
    default:
      return 400;
  }
}
