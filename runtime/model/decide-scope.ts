import type { TargetRef } from "./aggregate-ref.js";
import type { CommandDraft } from "./messages.js";
import type { ScheduleRule } from "./schedule-rule.js";

/** What a command handler may do besides returning events: schedule commands and cancel schedules. */
export interface DecideScope {
  /** The time of the decision (the clock at the commit). */
  readonly now: number;
  /** Schedules `command` under `key` on this aggregate (replacing the key); it goes to `target`, this aggregate by default. */
  schedule(key: string, rule: ScheduleRule, command: CommandDraft, target?: TargetRef): void;
  /** Cancels the schedule under `key`. A command already sent is not recalled. */
  cancelSchedule(key: string): void;
}

/** One schedule change a decision asked for, in the order asked. */
export type ScheduleChange =
  | { readonly kind: "set"; readonly key: string; readonly rule: ScheduleRule; readonly command: CommandDraft; readonly target?: TargetRef }
  | { readonly kind: "cancel"; readonly key: string };
