// Loads the host's configuration: the declared defaults, overridden by `wow.config.json`, overridden
// by environment variables; validated with the generated JSON Schema (ajv), then each schedule's
// expression by the runtime's cron engine and its zone, and the poll interval by the duration parser.
// Every problem is reported, each with its JSON path, in one WowConfigError.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import { CronExpression } from "../cron/cron-expression.js";
import { isValidTimeZone } from "../cron/zone.js";
import { parseDuration } from "../model/duration.js";
import { WowConfigError } from "./config-error.js";
import { pointer, readEnvironment, setOwn } from "./environment.js";
import type { ConfigProblem, WowConfig } from "./types.js";

export const CONFIG_FILE_NAME = "wow.config.json";

export interface LoadWowConfigOptions<Job extends string = string> {
  /** The generated JSON Schema of the configuration. */
  readonly schema: object;
  /** The declared defaults. */
  readonly defaults: WowConfig<Job>;
  /** Known environment variables and the path each sets. */
  readonly environment?: Readonly<Record<string, readonly string[]>>;
  /** The config file; default `wow.config.json` in `cwd`, skipped when absent (a given `file` must exist). */
  readonly file?: string;
  readonly cwd?: string;
  /** Default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

const validators = new WeakMap<object, ValidateFunction>();

function validatorFor(schema: object): ValidateFunction {
  let validate = validators.get(schema);
  if (validate === undefined) {
    const ajv = new Ajv({ allErrors: true, strict: false, verbose: true });
    addFormats.default(ajv);
    validate = ajv.compile(schema);
    validators.set(schema, validate);
  }
  return validate;
}

export function loadWowConfig<Job extends string>(options: LoadWowConfigOptions<Job>): WowConfig<Job> {
  const cwd = options.cwd ?? process.cwd();
  const filePath = resolve(cwd, options.file ?? CONFIG_FILE_NAME);
  const fileLabel = options.file ?? CONFIG_FILE_NAME;
  const problems: ConfigProblem[] = [];
  let fromFile: unknown = {};
  let text: string | undefined;
  try {
    text = readFileSync(filePath, "utf8");
  } catch (error) {
    if (options.file !== undefined || (error as { code?: string }).code !== "ENOENT") {
      problems.push({ path: "", message: `cannot read the file: ${(error as Error).message}`, source: fileLabel });
    }
  }
  if (text !== undefined) {
    try {
      fromFile = JSON.parse(text);
    } catch (error) {
      problems.push({ path: "", message: `not valid JSON: ${(error as Error).message}`, source: fileLabel });
    }
  }
  const table = options.environment ?? {};
  const { overrides, sources } = readEnvironment(table, options.env ?? process.env);
  const merged = merge(merge(options.defaults, fromFile), overrides) as WowConfig<Job>;
  // A variable under a value of the file that is not an object did not land (see merge): the
  // problem there is the file's.
  const landed = [...sources].filter(([, variable]) => valueAt(merged, table[variable]!) !== undefined);
  const sourceOf = (path: string): string => {
    for (const [envPath, variable] of landed) if (envPath === path || envPath.startsWith(`${path}/`) || path.startsWith(`${envPath}/`)) return variable;
    return fileLabel;
  };
  if (problems.length === 0) {
    const validate = validatorFor(options.schema);
    if (!validate(merged)) for (const error of validate.errors ?? []) problems.push(describe(error, sourceOf));
    else problems.push(...semanticProblems(merged, sourceOf));
  }
  if (problems.length > 0) throw new WowConfigError(problems);
  return merged;
}

/** What the schema cannot say: the cron engine's verdict, the zone, the duration. */
function semanticProblems(config: WowConfig, sourceOf: (path: string) => string): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  for (const [name, schedule] of Object.entries(config.wow.schedules)) {
    const base = pointer(["wow", "schedules", name]);
    const zoneValid = isValidTimeZone(schedule.zone);
    try {
      const expression = CronExpression.parse(schedule.expression);
      if (expression.neverFires()) {
        problems.push({ path: `${base}/expression`, message: `'${schedule.expression}' never fires`, source: sourceOf(`${base}/expression`) });
      } else if (zoneValid && !expression.firesIn(schedule.zone)) {
        const message = `'${schedule.expression}' never fires in ${schedule.zone}: each time it matches falls in a daylight-saving gap`;
        problems.push({ path: `${base}/expression`, message, source: sourceOf(`${base}/expression`) });
      }
    } catch (error) {
      problems.push({ path: `${base}/expression`, message: (error as Error).message, source: sourceOf(`${base}/expression`) });
    }
    if (!zoneValid) {
      problems.push({ path: `${base}/zone`, message: `unknown time zone '${schedule.zone}' (use an IANA name such as "Europe/Paris" or "UTC")`, source: sourceOf(`${base}/zone`) });
    }
  }
  try {
    parseDuration(config.wow.timers["poll-interval"]);
  } catch (error) {
    problems.push({ path: "/wow/timers/poll-interval", message: (error as Error).message, source: sourceOf("/wow/timers/poll-interval") });
  }
  return problems;
}

function describe(error: ErrorObject, sourceOf: (path: string) => string): ConfigProblem {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === "additionalProperties") {
    const path = `${error.instancePath}/${String(params.additionalProperty).replace(/~/g, "~0").replace(/\//g, "~1")}`;
    const allowed = Object.keys(propertiesAt(error.parentSchema));
    return { path, message: `unknown property${allowed.length > 0 ? `; expected one of: ${allowed.join(", ")}` : ""}`, source: sourceOf(path) };
  }
  const detail = error.keyword === "enum" ? `: ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}` : "";
  return { path: error.instancePath, message: `${error.message ?? error.keyword}${detail}`, source: sourceOf(error.instancePath) };
}

function propertiesAt(schema: unknown): Record<string, unknown> {
  const properties = (schema as { properties?: Record<string, unknown> } | undefined)?.properties;
  return properties ?? {};
}

/**
 * `over` laid on `base`: its objects merge into `base`'s objects, its other values replace what is
 * there. An object of `over` never replaces a `base` value that is not one (`"wow": 5` in the file,
 * then an environment variable under `wow`): that value stays, for the schema to report, instead of
 * an object without the declared defaults.
 */
function merge(base: unknown, over: unknown): unknown {
  if (!isPlainObject(over)) return over === undefined ? base : over;
  if (!isPlainObject(base)) return base === undefined ? over : base;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) setOwn(out, key, Object.hasOwn(base, key) ? merge(base[key], value) : value);
  return out;
}

/** The value at `path` through own properties of plain objects, or undefined. */
function valueAt(root: unknown, path: readonly string[]): unknown {
  let node = root;
  for (const key of path) {
    if (!isPlainObject(node) || !Object.hasOwn(node, key)) return undefined;
    node = node[key];
  }
  return node;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
