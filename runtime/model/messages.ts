import { randomUUID } from "node:crypto";
import type { AggregateRef } from "./aggregate-ref.js";

/** The commit that caused a message: for a scheduled command, the commit that set the schedule. */
export interface Causation {
  readonly aggregate: AggregateRef;
  readonly version: number;
  readonly commandId: string;
  readonly requestId: string;
}

/** What a scheduled delivery carries: which timer, which slot (1-based), and the slot's due time (epoch ms). */
export interface ScheduleInfo {
  readonly timer: string;
  readonly slot: number;
  readonly due: number;
}

/** A command body with its fully qualified type (`"<context>.<Name>"`), before it has an address. */
export interface CommandDraft<B = unknown> {
  readonly type: string;
  readonly body: B;
}

export interface CommandMessage<B = unknown> {
  readonly commandId: string;
  /** Idempotency key: a request id already decided for the aggregate is a duplicate. Defaults to the command id. */
  readonly requestId: string;
  readonly type: string;
  readonly body: B;
  readonly aggregate: AggregateRef;
  readonly createdAt?: number;
  readonly causation?: Causation;
  readonly schedule?: ScheduleInfo;
  /**
   * Optimistic concurrency asked by the sender (`Command-Aggregate-Version`): the version the aggregate
   * must be at when the command is decided. Checked in the decision, after the duplicate check; a
   * mismatch, or a commit that meets another writer, is `CommandExpectVersionConflict` (not re-decided).
   */
  readonly expectedVersion?: number;
}

export interface EventMessage<B = unknown> {
  readonly eventId: string;
  readonly type: string;
  readonly body: B;
  readonly aggregate: AggregateRef;
  /** The aggregate version of the commit that holds the event (one version per commit). */
  readonly version: number;
  /** 1-based index of the event within its commit. */
  readonly sequence: number;
  readonly commandId: string;
  readonly requestId: string;
  readonly createdAt: number;
  /** Global, ordered position in the journal; set once committed. */
  readonly position?: number;
}

export interface CommandOptions {
  readonly commandId?: string;
  readonly requestId?: string;
  readonly createdAt?: number;
  readonly causation?: Causation;
  readonly schedule?: ScheduleInfo;
}

/** Builds a command message; the request id defaults to the command id (as in Wow). */
export function commandMessage<B>(type: string, body: B, aggregate: AggregateRef, options: CommandOptions = {}): CommandMessage<B> {
  const commandId = options.commandId ?? randomUUID();
  return {
    commandId,
    requestId: options.requestId ?? commandId,
    type,
    body,
    aggregate,
    ...(options.createdAt === undefined ? {} : { createdAt: options.createdAt }),
    ...(options.causation === undefined ? {} : { causation: options.causation }),
    ...(options.schedule === undefined ? {} : { schedule: options.schedule }),
  };
}

/** `"eshop-order.CancelOrder"` → `"eshop-order"`. */
export function contextOfType(type: string): string {
  const dot = type.lastIndexOf(".");
  return dot < 0 ? "" : type.slice(0, dot);
}
