// `@OnSchedule` jobs: name, cron (Spring `CronExpression` semantics, through the runtime's engine),
// zone, scope, sharded, misfire, commands, and how its runs go: overlap, timeout, jitter, `@Retry`.
import type { JobDeclaration, Location, QualifiedName } from "../ast.js";
import type { CommandSymbol, ContextScope } from "../binder/symbols.js";
import type { JobMisfire, JobModel, JobOverlap, JobScope } from "../model.js";
import { CronSyntaxError, zoneNames, zoneSpelling, type SkippedTime } from "../../runtime/cron/index.js";
import { readAnnotations } from "./annotations.js";
import { checkRetry, durationArgument } from "./run-policy.js";
import type { CheckContext } from "./context.js";
import { resolveList, resolveServices, sentCommands } from "./references.js";
import type { DiagnosticArgs } from "../diagnostics/messages.js";
import { where } from "../diagnostics/reporter.js";
import { locationInString } from "./string-offsets.js";
import { didYouMean, nearest } from "../diagnostics/suggest.js";

const jobNamePattern = /^[A-Za-z0-9_-]+$/;
const scopes: readonly JobScope[] = ["SYSTEM", "TENANT"];
const misfires: readonly JobMisfire[] = ["COALESCE", "CATCH_UP"];
const overlaps: readonly JobOverlap[] = ["BUFFER_ALL", "BUFFER_ONE", "SKIP"];

/** A checked job: its model when it has no error, and the commands it lists either way. */
export interface CheckedJob {
  readonly model: JobModel | undefined;
  /** What the job sends, even when it has an error elsewhere: its saga's rejection handlers count on it. */
  readonly commands: readonly CommandSymbol[];
}

export function checkJob(decl: JobDeclaration, saga: string, scope: ContextScope, cx: CheckContext): CheckedJob {
  const { reporter, resolver } = cx;
  const annotations = readAnnotations(decl.annotations, "job", reporter);
  const services = resolveServices(decl.params, scope, resolver, reporter);
  if (!annotations.has("OnSchedule")) {
    if (!decl.annotations.some((a) => a.name.text === "OnSchedule")) {
      reporter.report("WOW4003", { name: decl.name.text }, decl.name.loc);
    }
    return { model: undefined, commands: [] };
  }
  let valid = true;

  const name = annotations.string("OnSchedule", "name");
  if (name !== undefined) {
    const invalid = !jobNamePattern.test(name.value) ? "use only letters, digits, '_' and '-'" : name.value === "__proto__" ? "a JavaScript object cannot hold it as a key of the runtime configuration" : undefined;
    if (invalid !== undefined) {
      reporter.report("WOW4005", { name: name.value, reason: invalid }, name.loc);
      valid = false;
    } else {
      const key = `${scope.name}/${name.value}`;
      const other = cx.jobNames.get(key);
      if (other !== undefined) {
        reporter.report("WOW4004", { name: name.value, context: scope.name, other: where(other) }, name.loc, [other]);
        valid = false;
      } else cx.jobNames.set(key, name.loc);
    }
  } else valid = false;

  const cron = annotations.string("OnSchedule", "cron");
  const cronValid = cron !== undefined && checkCron(cron.value, cron.loc, cx);
  valid = cronValid && valid;

  const zone = annotations.string("OnSchedule", "zone");
  if (zone !== undefined && !cx.verdicts.zone(zone.value)) {
    reporter.report("WOW4006", { zone: zone.value, suggestion: zoneSuggestion(zone.value) }, zone.loc);
    valid = false;
  } else if (cronValid && zone !== undefined && !cx.verdicts.firesIn(cron.value, zone.value)) {
    reporter.report("WOW4010", { expression: cron.value, zone: zone.value }, cron.loc);
    valid = false;
  } else if (cronValid && zone !== undefined) {
    const skipped = cx.verdicts.firstSkipped(cron.value, zone.value);
    if (skipped !== null) reporter.report("WOW4011", skippedArguments(cron.value, zone.value, skipped), cron.loc);
  }

  const jobScope = enumValue(annotations.name("OnSchedule", "scope"), "scope", scopes, cx);
  const misfire = enumValue(annotations.name("OnSchedule", "misfire"), "misfire", misfires, cx);
  const sharded = annotations.boolean("OnSchedule", "sharded");
  if (sharded?.value === true && jobScope === "TENANT") {
    reporter.report("WOW4007", {}, sharded.loc);
    valid = false;
  }
  const overlap = enumValue(annotations.name("OnSchedule", "overlap"), "overlap", overlaps, cx);
  const timeout = durationArgument(annotations, "OnSchedule", "timeout", cx);
  const jitter = durationArgument(annotations, "OnSchedule", "jitter", cx);
  const retry = checkRetry(annotations, cx);
  const commands = resolveList(annotations.names("OnSchedule", "commands"), scope, sentCommands, resolver, reporter);
  if (!valid || jobScope === null || misfire === null || overlap === null || timeout === null || jitter === null || retry === null) return { model: undefined, commands };
  const model: JobModel = {
    decl,
    saga,
    name: name!.value,
    function: decl.name.text,
    cron: cron!.value,
    zone: zone?.value ?? "UTC",
    scope: jobScope ?? "SYSTEM",
    sharded: sharded?.value ?? false,
    misfire: misfire ?? "COALESCE",
    commands,
    services,
    blocking: annotations.has("Blocking"),
    overlap: overlap ?? "BUFFER_ALL",
    ...(timeout === undefined ? {} : { timeout: timeout.text }),
    ...(jitter === undefined ? {} : { jitter: jitter.text }),
    ...(retry === undefined ? {} : { retry }),
  };
  return { model, commands };
}

/** Reports a cron expression Spring would refuse (pointing at the field inside the quotes) or one that never fires. */
function checkCron(expression: string, literal: Location, cx: CheckContext): boolean {
  const verdict = cx.verdicts.cron(expression);
  if (verdict instanceof CronSyntaxError) {
    cx.reporter.report("WOW4001", { detail: verdict.detail }, locationInString(literal, verdict.offset, verdict.length));
    return false;
  }
  if (verdict === "never") {
    cx.reporter.report("WOW4002", { expression }, literal);
    return false;
  }
  return true;
}

/** A job enum argument: undefined when absent (the default applies), null when invalid (reported). */
function enumValue<T extends string>(ref: QualifiedName | undefined, argument: string, allowed: readonly T[], cx: CheckContext): T | undefined | null {
  if (ref === undefined) return undefined;
  if (ref.context === undefined && (allowed as readonly string[]).includes(ref.name.text)) return ref.name.text as T;
  cx.reporter.report(
    "WOW4008",
    { argument, value: ref.text, suggestion: didYouMean(nearest(ref.text, allowed)), allowed: allowed.join(", ") },
    ref.loc,
  );
  return null;
}

/** The start of WOW4006's hint: the zone's right spelling when only its case is wrong, else the nearest name. */
function zoneSuggestion(zone: string): string {
  const spelling = zoneSpelling(zone);
  if (spelling === undefined) return didYouMean(nearest(zone, zoneNames()));
  return `${didYouMean(spelling)}Zone names are case-sensitive: Java's \`ZoneId\` (Wow, Spring) refuses any other spelling. `;
}

/** WOW4011's words: the day skipped, the local time, and a `--from` just before it for `wowc cron`. */
function skippedArguments(expression: string, zone: string, skipped: SkippedTime): DiagnosticArgs<"WOW4011"> {
  const [date, time] = skipped.local.split("T") as [string, string];
  const from = new Date(skipped.skippedAtMs - 86_400_000).toISOString().replace(".000Z", "Z");
  return { expression, zone, date, time, from };
}
