// The host's runtime configuration as the declarations shape it: the JSON Schema of
// `wow.config.json` (`wow.schedules` holds exactly the declared job names, `wow.timers` the timer
// settings), the declared defaults, and the environment variables that override the file.
import { jobConfigs, type JobConfig } from "../checker/job-variables.js";
import type { JobModel, ProgramModel } from "../model.js";
import { declaredEnvironment, environmentVariable as settingVariable } from "../../runtime/config/config-keys.js";
import { lineComment, propertyAccess, propertyKey, stringLiteral } from "./escape.js";
import { compare } from "./imports.js";
import { DURATION_SCHEMA, RUNTIME_SECTIONS_SCHEMA } from "../../runtime/config/runtime-sections.js";

export const CONFIG_SCHEMA_FILE = "wow.config.schema.json";

/** Six whitespace-separated fields, or one of Spring's macros. The cron engine checks the fields at load. */
export const EXPRESSION_PATTERN = "^\\s*(@(yearly|annually|monthly|weekly|daily|midnight|hourly)|\\S+(\\s+\\S+){5})\\s*$";
const DURATION_PATTERN = DURATION_SCHEMA.pattern;

export interface EnvironmentEntry {
  readonly variable: string;
  readonly path: readonly string[];
}

export interface ConfigView {
  readonly jobNames: string;
  readonly defaults: string;
  /** `configJobs`' rows: `["key", "job name", "context.Saga", "SCOPE"]`. */
  readonly jobs: readonly string[];
  /** The rows of `jobConfigKeys`: by context, the key of each of its jobs. */
  readonly configKeys: readonly ConfigKeysContext[];
  /** The body of `jobSchema(row)`: an object literal over `name`, `saga`, `scope`, `expression`, `zone`, `misfire`. */
  readonly jobSchema: string;
  readonly schema: string;
  /** A line naming one job's variable and the setting it sets, for config.ts's comment on the table. */
  readonly environmentExample: string;
}

export function configSchema(model: ProgramModel): object {
  const schedules = Object.create(null) as Record<string, object>; // a dictionary from the start: one entry per job
  for (const { key, job, context } of jobConfigs(model)) {
    schedules[key] = jobSchema(jobDescription([job.name, `${context}.${job.saga}`, job.cron, job.zone, job.misfire, job.scope]), job);
  }
  return schemaOf(schedules);
}

/** A job's run policy settings, which every job's schema refers to. */
const JOB_POLICY_DEFINITIONS = {
  jobOverlap: { enum: ["BUFFER_ALL", "BUFFER_ONE", "SKIP"], description: "A slot that comes while a run is in progress: BUFFER_ALL queues it, BUFFER_ONE keeps at most one waiting, SKIP skips it (default: the declaration's, else BUFFER_ALL)." },
  jobTimeout: { ...DURATION_SCHEMA, description: "A run past it fails and is retried as a failure (default: the declaration's, else none)." },
  jobJitter: { ...DURATION_SCHEMA, description: "Each slot runs up to this much after its due time, by a delay fixed per slot (default: the declaration's, else none)." },
  jobRetry: {
    type: "object",
    additionalProperties: false,
    description: "Attempts after a failed run, over the declaration's @Retry (default: wow.timers).",
    properties: {
      "max-attempts": { type: "integer", minimum: 1, maximum: 1000, description: "Attempts in all, the first included, before the run is parked." },
      backoff: { ...DURATION_SCHEMA, description: "The delay after the first failure; it doubles after each further one." },
      "max-backoff": { ...DURATION_SCHEMA, description: "The longest delay." },
    },
  },
} as const;

/** The schema of wow.config.json around `schedules`, the properties of `wow.schedules`. */
function schemaOf(schedules: unknown): object {
  return {
    $schema: "http://json-schema.org/draft-07/schema#",
    $id: CONFIG_SCHEMA_FILE,
    title: "wowc runtime configuration (wow.config.json)",
    definitions: JOB_POLICY_DEFINITIONS,
    type: "object",
    additionalProperties: false,
    properties: {
      $schema: { type: "string" },
      wow: {
        type: "object",
        additionalProperties: false,
        properties: {
          schedules: { type: "object", description: "Host overrides of the declared @OnSchedule jobs, by job name.", additionalProperties: false, properties: schedules },
          timers: {
            type: "object",
            additionalProperties: false,
            properties: {
              "poll-interval": { type: ["string", "integer"], minimum: 1, pattern: DURATION_PATTERN, default: "1s", description: 'How often due timers are polled: milliseconds, "250ms", "1s", "1h30m" or ISO-8601 "PT1S".' },
              "max-attempts": { type: "integer", minimum: 1, default: 10, description: "Attempts to send a scheduled command before it is parked." },
            },
          },
          ...RUNTIME_SECTIONS_SCHEMA,
        },
      },
    },
  };
}

/** The schema of one job's overrides: its declared values are the defaults. */
function jobSchema(description: unknown, declared: { readonly cron: unknown; readonly zone: unknown; readonly misfire: unknown }): object {
  return {
    type: "object",
    description,
    additionalProperties: false,
    properties: {
      expression: { type: "string", pattern: EXPRESSION_PATTERN, default: declared.cron, description: "Six fields: second minute hour day-of-month month day-of-week (Spring CronExpression)." },
      zone: { type: "string", minLength: 1, default: declared.zone, description: "IANA time zone the expression is read in." },
      misfire: { enum: ["COALESCE", "CATCH_UP"], default: declared.misfire, description: "Missed slots: COALESCE runs only the latest, CATCH_UP runs each." },
      enabled: { type: "boolean", default: true, description: "false keeps a SYSTEM instance disabled at start." },
      // Written once under `definitions`: a project's schema holds one entry per job.
      overlap: { $ref: "#/definitions/jobOverlap" },
      timeout: { $ref: "#/definitions/jobTimeout" },
      jitter: { $ref: "#/definitions/jobJitter" },
      retry: { $ref: "#/definitions/jobRetry" },
    },
  };
}

/** `[name, saga, cron, zone, misfire, scope]` → the description of a job's schema. */
function jobDescription([name, saga, cron, zone, misfire, scope]: readonly string[]): string {
  return `Job '${name}' of saga ${saga} (declared: cron "${cron}", zone ${zone}, misfire ${misfire}, scope ${scope}).`;
}

/**
 * config.ts builds each job's schema at load from a row of `configJobs` and `configDefaults`
 * (`jobSchemaCode`) rather than spelling out a copy per job: the schema of 1,000 jobs is 1 MB as a
 * literal. The description is a concatenation of escaped literals and the row's variables.
 */
function jobSchemaCode(): object {
  const variables = ["name", "saga", "expression", "zone", "misfire", "scope"];
  const pieces = jobDescription(variables.map((v) => `\u0000${v}\u0000`)).split("\u0000");
  const description = pieces.map((piece, i) => (i % 2 === 1 ? piece : stringLiteral(piece))).join(" + ");
  return jobSchema(new Code(description), { cron: new Code("expression"), zone: new Code("zone"), misfire: new Code("misfire") });
}

/** Code inside a value printed by tsLiteral: written as it is. */
class Code {
  constructor(readonly text: string) {}
}

export function configDefaults(model: ProgramModel): object {
  const schedules = Object.create(null) as Record<string, object>; // a dictionary from the start: one entry per job
  for (const { key, job } of jobConfigs(model)) schedules[key] = { expression: job.cron, zone: job.zone, misfire: job.misfire, enabled: true };
  return { wow: { schedules, timers: { "poll-interval": "1s", "max-attempts": 10 } } };
}

/** `WOW_SCHEDULES__RECEIVE_DELIVERIES__EXPRESSION` → `wow/schedules/receive-deliveries/expression`: the table config.ts builds at load. */
export function environmentEntries(model: ProgramModel): EnvironmentEntry[] {
  return Object.entries(declaredEnvironment(jobConfigs(model).map((j) => j.key))).map(([variable, path]) => ({ variable, path }));
}

function environmentExample(jobs: readonly JobConfig[]): string {
  const path = jobs.length === 0 ? ["wow", "timers", "poll-interval"] : ["wow", "schedules", jobs[0]!.key, "expression"];
  return lineComment(`e.g. ${settingVariable(path)} sets /${path.join("/")}`);
}

export function configView(model: ProgramModel): ConfigView {
  const jobs = jobConfigs(model);
  return {
    jobNames: jobs.length === 0 ? "never" : jobs.map((j) => stringLiteral(j.key)).join(" | "),
    defaults: tsLiteral(configDefaults(model), ""),
    configKeys: configKeysRows(jobs),
    jobs: jobs.map(({ key, job, context }) => `[${[key, job.name, `${context}.${job.saga}`, job.scope].map(stringLiteral).join(", ")}]`),
    jobSchema: tsLiteral(jobSchemaCode(), "  "),
    schema: tsLiteral(schemaOf(new Code("Object.fromEntries(configJobs.map(jobSchema))")), ""),
    environmentExample: environmentExample(jobs),
  };
}

/**
 * The name config.ts exports the key of each job under (its rows: by context, then job name). The
 * root index.ts does not re-export it: the sagas' registrations read it from config.ts directly.
 */
export const CONFIG_KEYS_EXPORT = "jobConfigKeys";

export interface ConfigKeysContext {
  readonly key: string;
  readonly jobs: readonly { readonly key: string; readonly value: string }[];
}

/**
 * The rows of config.ts's `jobConfigKeys`: each job's key under `wow.schedules` (from `jobConfigs`,
 * like the keys of `configDefaults` and of the schema), by context, then job name. A job's key
 * depends on the other contexts' job names, so the sagas' registrations read it there rather than
 * spelling it: a context's own files depend on its model alone (the watcher regenerates them with it).
 */
function configKeysRows(jobs: readonly JobConfig[]): ConfigKeysContext[] {
  const byContext = new Map<string, { key: string; value: string; name: string }[]>();
  for (const { key, job, context } of jobs) {
    const rows = byContext.get(context) ?? [];
    rows.push({ key: propertyKey(job.name), value: stringLiteral(key), name: job.name });
    byContext.set(context, rows);
  }
  return [...byContext]
    .sort(([a], [b]) => compare(a, b))
    .map(([context, rows]) => ({ key: propertyKey(context), jobs: rows.sort((a, b) => compare(a.name, b.name)).map(({ key, value }) => ({ key, value })) }));
}

/** The import of `jobConfigKeys` in a sagas module, as `$jobConfigKeys`: `.wow` names hold no `$`, so no declaration meets it. */
export const CONFIG_KEYS_IMPORT = `import { ${CONFIG_KEYS_EXPORT} as $${CONFIG_KEYS_EXPORT} } from "../config.js";`;

/** The expression a saga's registration reads its job's key with: `$jobConfigKeys["ctx-a"].sweep`. */
export function configKeyExpression(context: string, job: string): string {
  return propertyAccess(`$${CONFIG_KEYS_EXPORT}[${stringLiteral(context)}]`, job);
}

/** A TypeScript object literal for JSON data, every key and string escaped. */
export function tsLiteral(value: unknown, indent: string): string {
  if (value instanceof Code) return value.text;
  if (value === null || typeof value === "number" || typeof value === "boolean") return String(value);
  if (typeof value === "string") return stringLiteral(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) return value.length === 0 ? "[]" : `[${value.map((v) => tsLiteral(v, inner)).join(", ")}]`;
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return "{}";
  return `{\n${entries.map(([k, v]) => `${inner}${propertyKey(k)}: ${tsLiteral(v, inner)},`).join("\n")}\n${indent}}`;
}
