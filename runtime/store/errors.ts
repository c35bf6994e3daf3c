// What a store refuses a commit for: the commit's own fault, never the store's. A refused commit
// writes nothing.
import type { AggregateRef } from "../model/aggregate-ref.js";

export class VersionConflictError extends Error {
  constructor(readonly aggregate: AggregateRef, readonly expected: number, readonly actual: number) {
    super(`version conflict on ${aggregate.context}.${aggregate.aggregate}/${aggregate.id}: expected ${expected}, found ${actual}`);
    this.name = "VersionConflictError";
  }
}

export class DuplicateRequestError extends Error {
  constructor(readonly aggregate: AggregateRef, readonly requestId: string) {
    super(`request ${requestId} was already decided for ${aggregate.context}.${aggregate.aggregate}/${aggregate.id}`);
    this.name = "DuplicateRequestError";
  }
}

/**
 * A commit holding a value the store cannot keep. What is stored is exactly what a JSON round trip of
 * it gives back, so an event body or a scheduled command holding anything that would not come back as
 * it is — a Date, Map, Set, RegExp, class instance, function, symbol, BigInt, NaN or ±Infinity,
 * `undefined` in an array, a cycle — is refused, as is an event whose type is not a non-empty string.
 * (An `undefined` object property is left out, as JSON leaves it out; -0 is stored as 0.) Found before
 * anything is written, so it fails that commit alone. `where`: the event (its number in the commit and
 * type) or the schedule; `problem`: the offending value's path and what it is, e.g. `body.since: a Date`.
 */
export class UnstorableCommitError extends Error {
  constructor(
    readonly aggregate: AggregateRef,
    readonly requestId: string,
    readonly where: string,
    readonly problem: string,
    cause?: unknown,
  ) {
    super(`cannot store the commit of request ${requestId} on ${aggregate.context}.${aggregate.aggregate}/${aggregate.id}: ${where}: ${problem}`, cause === undefined ? undefined : { cause });
    this.name = "UnstorableCommitError";
  }
}

/** A refusal of one commit (as opposed to a failure of the store). */
export type CommitRefusal = VersionConflictError | DuplicateRequestError | UnstorableCommitError;

export function isCommitRefusal(error: unknown): error is CommitRefusal {
  return error instanceof VersionConflictError || error instanceof DuplicateRequestError || error instanceof UnstorableCommitError;
}

/**
 * The store's file is damaged (or is not a store at all, or lost its history): the host stops deciding
 * and delivering, and every further read or write is refused with this error, which names the file
 * and what to do. Nothing is written into a damaged file.
 */
export class StoreDamagedError extends Error {
  constructor(
    readonly file: string,
    /** What was found: SQLite's error code, or what the check saw. */
    readonly finding: string,
    message: string,
    cause?: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = "StoreDamagedError";
  }
}

/** Why a store could not be reached or opened: a code to match on, and a message naming the server (never a password). */
export type StoreErrorCode =
  | "WOW_STORE_BAD_URL"
  | "WOW_STORE_UNREACHABLE"
  | "WOW_STORE_NO_DATABASE"
  | "WOW_STORE_LOGIN_REFUSED"
  | "WOW_STORE_SCHEMA_NEWER"
  | "WOW_STORE_LOST";

/**
 * The store's server could not be used: a URL that is not one, a server that does not answer, a refused
 * login, a missing database, a schema from a newer wowc, or a connection lost while running. `target`:
 * `host:port/database`.
 */
export class StoreError extends Error {
  constructor(
    readonly code: StoreErrorCode,
    readonly target: string,
    message: string,
    cause?: unknown,
  ) {
    super(`${code}: ${message}`, cause === undefined ? undefined : { cause });
    this.name = "StoreError";
  }
}
