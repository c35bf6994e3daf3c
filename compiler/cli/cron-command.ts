// `wowc cron "<expression>" [--zone Z] [--from ISO] [--count N] [--json]`: previews a cron rule (a
// job's, or a host override) by printing its next fire times as UTC instants with their local time
// and offset, or a diagnostic pointing into the expression.
//
// Exit codes: 0 fire times printed (possibly none in that zone), 1 the expression is invalid or can
// never fire (WOW4001 / WOW4002), 2 usage error: unknown option, missing or bad value, and an
// unknown time zone (it is an option value, like a bad --from).
import { CronExpression, CronSyntaxError, isValidTimeZone, type SkippedTime } from "../../runtime/cron/index.js";
import { fireTime, type FireTime } from "../../runtime/cron/fire-time.js";
import type { SourceFile } from "../ast.js";
import { createDiagnostic, type Diagnostic } from "../diagnostics/diagnostic.js";
import { formatDiagnostics } from "../diagnostics/format.js";
import { commandSpec, unknownOption } from "./commands.js";

export interface CommandIo {
  stdout(s: string): void;
  stderr(s: string): void;
}

export interface CronCommandOptions {
  /** The default for --from, in epoch ms (tests pin it). Default: the wall clock. */
  readonly now?: () => number;
}

export const CRON_USAGE = `Usage: wowc cron "<expression>" [--zone Z] [--from ISO] [--count N] [--json]

Prints the next fire times of a Spring cron expression (second minute hour day-of-month month
day-of-week, or @daily, @hourly…) as UTC instants with their local time and offset.

  --zone Z      IANA time zone the fields are read in (default UTC), e.g. Europe/Berlin
  --from ISO    start after this instant (default now), e.g. 2025-03-29T00:00:00Z
  --count N     how many fire times, 1-1000 (default 5)
  --json        one JSON object: {"expression","zone","from","next":[{"utc","local","offset"}]}
                (also --format json, as the other commands say it)

Exit status: 0 ok, 1 invalid expression or one that never fires (in the zone), 2 usage error (incl. unknown zone).
`;

const MAX_COUNT = 1000;

interface Request {
  readonly expression: string;
  readonly zone: string;
  readonly from: number;
  readonly count: number;
  readonly json: boolean;
}

class UsageError extends Error {}

function parseArgs(args: readonly string[], now: () => number): Request | "help" {
  let expression: string | undefined;
  let zone = "UTC";
  let from: number | undefined;
  let count = 5;
  let json = false;
  let operands = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    // `--`: what follows is the expression, even one starting with '-'.
    if (arg === "--" && !operands) {
      operands = true;
      continue;
    }
    if (operands) {
      if (expression !== undefined) throw new UsageError(`Only one expression may be given; quote it: wowc cron "${[expression, arg].join(" ")}"`);
      expression = arg;
      continue;
    }
    if (arg === "--help" || arg === "-h") return "help";
    if (arg === "--json") {
      json = true;
      continue;
    }
    const option = /^(--zone|--from|--count|--format)(?:=(.*))?$/.exec(arg);
    if (option !== null) {
      const value = option[2] ?? args[++i];
      if (value === undefined) throw new UsageError(`${option[1]} needs a value`);
      if (option[1] === "--zone") zone = value;
      else if (option[1] === "--format") json = parseFormat(value);
      else if (option[1] === "--from") from = parseInstant(value);
      else count = parseCount(value);
      continue;
    }
    if (arg.startsWith("--")) throw new UsageError(unknownOption(arg, commandSpec("cron")));
    if (expression !== undefined) {
      throw new UsageError(`Only one expression may be given; quote it: wowc cron "${[expression, arg].join(" ")}"`);
    }
    expression = arg;
  }
  if (expression === undefined) throw new UsageError("The cron expression is missing");
  if (!isValidTimeZone(zone)) throw new UsageError(`Unknown time zone '${zone}': use an IANA name such as Europe/Berlin, or UTC`);
  return { expression, zone, from: from ?? now(), count, json };
}

/** `--format json` is `--json` (as `wowc --format json cron …` says it); `--format text` the default. */
function parseFormat(value: string): boolean {
  if (value !== "json" && value !== "text") throw new UsageError(`--format is 'text' or 'json', not '${value}'`);
  return value === "json";
}

function parseInstant(value: string): number {
  const ms = /^\d{4}-\d{2}-\d{2}(T.*)?$/.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(ms)) throw new UsageError(`--from '${value}' is not an ISO instant (e.g. 2025-03-29T00:00:00Z)`);
  return ms;
}

function parseCount(value: string): number {
  const count = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!(count >= 1 && count <= MAX_COUNT)) throw new UsageError(`--count '${value}' must be a whole number from 1 to ${MAX_COUNT}`);
  return count;
}

/** The expression as a one-line source file, so diagnostics can point into it. */
function expressionDiagnostic(expression: string, error: unknown): Diagnostic {
  const file: SourceFile = { path: "<expression>", text: expression };
  if (error instanceof CronSyntaxError) {
    return createDiagnostic("WOW4001", { detail: error.detail }, { file, start: error.offset, end: error.offset + error.length });
  }
  return createDiagnostic("WOW4002", { expression }, { file, start: 0, end: expression.length });
}

function table(request: Request, fires: readonly FireTime[]): string {
  const rows = fires.map((f) => [f.utc, `${f.local.replace("T", " ")} ${f.offset}`, request.zone]);
  const header = ["UTC", "Local", "Zone"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join("  ");
  let out = `Next ${request.count} fire time${request.count === 1 ? "" : "s"} of "${request.expression}" in ${request.zone}, after ${new Date(request.from).toISOString()}:\n`;
  if (rows.length > 0) out += `${[header, ...rows].map(line).join("\n")}\n`;
  if (fires.length < request.count) {
    out += fires.length === 0
      ? `No fire time within 400 years: every matching local time falls into a DST gap in ${request.zone}.\n`
      : `No further fire time within 400 years.\n`;
  }
  return out;
}

/** The matches DST gaps skip between two instants (the span the listed fire times cover). */
function skippedBetween(cron: CronExpression, zone: string, fromMs: number, untilMs: number): SkippedTime[] {
  const out: SkippedTime[] = [];
  for (let at = fromMs; out.length < MAX_COUNT; ) {
    const next = cron.firstSkipped(zone, at, untilMs);
    if (next === null) break;
    out.push(next);
    at = next.skippedAtMs;
  }
  return out;
}

export function runCronCommand(args: string[], io: CommandIo, options: CronCommandOptions = {}): number {
  let request: Request | "help";
  try {
    request = parseArgs(args, options.now ?? Date.now);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr(`wowc cron: ${error.message}\n\n${CRON_USAGE}`);
    return 2;
  }
  if (request === "help") {
    io.stdout(CRON_USAGE);
    return 0;
  }
  let cron: CronExpression | undefined;
  let failure: unknown;
  try {
    cron = CronExpression.parse(request.expression);
  } catch (error) {
    if (!(error instanceof CronSyntaxError)) throw error;
    failure = error;
  }
  if (cron === undefined || cron.neverFires()) {
    const diagnostic = expressionDiagnostic(request.expression, failure);
    if (request.json) io.stdout(formatDiagnostics([diagnostic], { format: "json" }));
    else io.stderr(formatDiagnostics([diagnostic], { summary: false }));
    return 1;
  }
  const fires: FireTime[] = [];
  let after = request.from;
  for (let i = 0; i < request.count; i++) {
    const next = cron.nextAfterMs(after, request.zone);
    if (next === null) break;
    fires.push(fireTime(next, request.zone));
    after = next;
  }
  const skipped = skippedBetween(cron, request.zone, request.from, after);
  if (request.json) {
    const from = new Date(request.from).toISOString();
    io.stdout(`${JSON.stringify({ expression: request.expression, zone: request.zone, from, next: fires, skipped })}\n`);
  } else {
    io.stdout(table(request, fires));
    for (const s of skipped) {
      io.stdout(`Skipped: ${s.local.replace("T", " ")} does not exist in ${request.zone} (the clocks skip ahead at ${new Date(s.skippedAtMs).toISOString()}), so the rule does not fire that day (WOW4011 in a build).\n`);
    }
  }
  // None at all: every match falls into a DST gap of the zone, so it never fires there (WOW4010 in a build).
  return fires.length === 0 ? 1 : 0;
}
