// The rule a job instance runs by: the declaration, overridden by the host's config
// (`wow.schedules.<name>`), overridden by the instance's own rule (a tenant's `wow.schedule.Enable`).
import { CronExpression } from "../cron/cron-expression.js";
import { isValidTimeZone } from "../cron/zone.js";
import type { ScheduleConfig } from "../config/types.js";
import { ErrorCodes, reject } from "../model/errors.js";
import type { SagaJobRegistration } from "../model/saga-registration.js";
import type { JobRule, RuleBody } from "./job-messages.js";

/** The host's rule of a job: its declaration with `wow.schedules.<name>` applied. */
export function hostRule(job: SagaJobRegistration, override?: Partial<ScheduleConfig>): JobRule {
  return {
    expression: override?.expression ?? job.cron,
    zone: override?.zone ?? job.zone,
    misfire: override?.misfire ?? job.misfire,
  };
}

export function sameRule(a: JobRule | undefined, b: JobRule): boolean {
  return a !== undefined && a.expression === b.expression && a.zone === b.zone && a.misfire === b.misfire;
}

/** True when the body names any part of a rule. */
export function hasRule(body: RuleBody): boolean {
  return body.expression !== undefined || body.zone !== undefined || body.misfire !== undefined;
}

/** A body's rule over `base` (fields left out keep the base's), validated: a bad one is a `CommandValidation` rejection. */
export function ruleFrom(body: RuleBody, base: JobRule): JobRule {
  const rule: JobRule = { expression: body.expression ?? base.expression, zone: body.zone ?? base.zone, misfire: body.misfire ?? base.misfire };
  if (typeof rule.expression !== "string") reject(ErrorCodes.CommandValidation, "expression must be a string (six cron fields)");
  try {
    if (CronExpression.parse(rule.expression).neverFires()) reject(ErrorCodes.CommandValidation, `expression '${rule.expression}' never fires`);
  } catch (error) {
    if ((error as Error).name === "CommandRejected") throw error;
    reject(ErrorCodes.CommandValidation, `expression: ${(error as Error).message}`);
  }
  if (typeof rule.zone !== "string" || !isValidTimeZone(rule.zone)) reject(ErrorCodes.CommandValidation, `zone: unknown time zone ${JSON.stringify(rule.zone)}`);
  if (rule.misfire !== "COALESCE" && rule.misfire !== "CATCH_UP") reject(ErrorCodes.CommandValidation, `misfire must be "COALESCE" or "CATCH_UP", got ${JSON.stringify(rule.misfire)}`);
  return rule;
}
