// System commands every aggregate handles: a saga asks a target to set or cancel a schedule on
// itself. They route by the command's aggregate ref (not by type), and the target must exist.
import { Decision } from "../model/decision.js";
import { ErrorCodes, reject } from "../model/errors.js";
import type { CommandDraft } from "../model/messages.js";
import type { CommandRegistration } from "../model/registration.js";
import type { ScheduleRule } from "../model/schedule-rule.js";

export const SystemCommands = {
  ScheduleCommand: "wow.ScheduleCommand",
  CancelSchedule: "wow.CancelSchedule",
} as const;

export interface ScheduleCommandBody {
  readonly key: string;
  readonly rule: ScheduleRule;
  readonly command: CommandDraft;
}

export interface CancelScheduleBody {
  readonly key: string;
}

/** System command types start with `wow.`: they are routed by the command's aggregate ref. */
export function isSystemCommand(type: string): boolean {
  return type.startsWith("wow.");
}

const scheduleCommand: CommandRegistration = {
  existing: true,
  decide(_state, command, scope) {
    const body = command.body as Partial<ScheduleCommandBody> | null;
    if (!body || typeof body.key !== "string" || body.key === "" || !body.rule || !body.command || typeof body.command.type !== "string") {
      reject(ErrorCodes.CommandValidation, "wow.ScheduleCommand needs { key, rule, command: { type, body } }");
    }
    scope.schedule(body.key, body.rule, { type: body.command.type, body: body.command.body });
    return Decision.noOp;
  },
};

const cancelSchedule: CommandRegistration = {
  existing: true,
  decide(_state, command, scope) {
    const body = command.body as Partial<CancelScheduleBody> | null;
    if (!body || typeof body.key !== "string" || body.key === "") reject(ErrorCodes.CommandValidation, "wow.CancelSchedule needs { key }");
    scope.cancelSchedule(body.key);
    return Decision.noOp;
  },
};

/** The system commands any aggregate handles (an aggregate's own `commands` may add more, e.g. `wow.schedule.*`). */
export const UNIVERSAL_SYSTEM_COMMANDS: Readonly<Record<string, CommandRegistration>> = {
  [SystemCommands.ScheduleCommand]: scheduleCommand,
  [SystemCommands.CancelSchedule]: cancelSchedule,
};
