import type { AggregateRef } from "./aggregate-ref.js";
import type { EventMessage } from "./messages.js";

/** decided: committed (events or no-op); rejected: a guard refused it; duplicate: its request id was decided before. */
export type CommandOutcome = "decided" | "rejected" | "duplicate";

/** The result of processing a command, shaped like Wow's `CommandResult`. */
export interface CommandResult {
  readonly outcome: CommandOutcome;
  readonly succeeded: boolean;
  /** "Ok" on success, else a Wow error code or the handler's rejection code. */
  readonly errorCode: string;
  readonly errorMsg: string;
  readonly type: string;
  readonly commandId: string;
  readonly requestId: string;
  readonly aggregate: AggregateRef;
  readonly aggregateVersion: number;
  /** The events committed by this command (domain and system events), empty otherwise. */
  readonly events: readonly EventMessage[];
}
