import type { AggregateRef } from "./aggregate-ref.js";
import type { CommandDraft } from "./messages.js";
import type { ScheduleRule } from "./schedule-rule.js";

export const SystemEvents = {
  ScheduleSet: "wow.ScheduleSet",
  ScheduleCancelled: "wow.ScheduleCancelled",
  AggregateDeleted: "wow.AggregateDeleted",
} as const;

export interface ScheduleSetBody {
  readonly key: string;
  /** The timer's id: unique per ScheduleSet (it is this event's id), so a replaced key never collides. */
  readonly timer: string;
  readonly rule: ScheduleRule;
  readonly command: CommandDraft;
  readonly target: AggregateRef;
  /** The first slot's due time (epoch ms). */
  readonly due: number;
}

export interface ScheduleCancelledBody {
  readonly key: string;
}

export function isSystemEvent(type: string): boolean {
  return type.startsWith("wow.");
}
