import type { TargetRef } from "../model/aggregate-ref.js";
import type { DecideScope, ScheduleChange } from "../model/decide-scope.js";
import type { CommandDraft } from "../model/messages.js";
import type { ScheduleRule } from "../model/schedule-rule.js";

/** The DecideScope a handler gets: it records schedule changes in order, for the commit. */
export class ScopeRecorder implements DecideScope {
  readonly changes: ScheduleChange[] = [];

  constructor(readonly now: number) {}

  schedule(key: string, rule: ScheduleRule, command: CommandDraft, target?: TargetRef): void {
    if (typeof key !== "string" || key === "") throw new TypeError("a schedule key must be a non-empty string");
    this.changes.push(target === undefined ? { kind: "set", key, rule, command } : { kind: "set", key, rule, command, target });
  }

  cancelSchedule(key: string): void {
    this.changes.push({ kind: "cancel", key });
  }
}
