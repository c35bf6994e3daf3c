// Loads the host's configuration: the declared defaults, overridden by `wow.config.json`, overridden
// by environment variables; validated with the generated JSON Schema (ajv), then each schedule's
// expression by the runtime's cron engine and its zone, and the poll interval by the duration parser.
// Every problem is reported, each with its JSON path, in one WowConfigError.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import { CronExpression } from "../cron/cron-expression.js";
import { isValidTimeZone, zoneAdvice } from "../cron/zone.js";
import { parseDuration } from "../model/duration.js";
import { DURATION_SCHEMA } from "./runtime-sections.js";
import { WowConfigError } from "./config-error.js";
import { isConfigVariable, runtimeEnvironment } from "./config-keys.js";
import { credentialProblems } from "./credentials.js";
import { pointer, readEnvironment, setOwn } from "./environment.js";
import { nearestName } from "./nearest-name.js";
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
  const table = { ...runtimeEnvironment(), ...options.environment };
  const env = options.env ?? process.env;
  problems.push(...unknownVariables(table, env));
  const { overrides, sources } = readEnvironment(table, env);
  // The file's object where a default is a scalar stays, for the schema to report; an environment
  // variable under a file's scalar does not replace it (the file's value is the one to report).
  const merged = merge(merge(options.defaults, fromFile, "over"), overrides, "base") as WowConfig<Job>;
  // A variable under a value of the file that is not an object did not land (see merge): the
  // problem there is the file's.
  const landed = [...sources].filter(([, variable]) => valueAt(merged, table[variable]!) !== undefined);
  const sourceOf = (path: string): string => {
    for (const [envPath, variable] of landed) if (envPath === path || envPath.startsWith(`${path}/`) || path.startsWith(`${envPath}/`)) return variable;
    return fileLabel;
  };
  if (problems.length === 0) {
    // The schema's problems and the semantic ones together, so that one round of fixes is enough;
    // a value the schema already refused is not reported twice.
    const validate = validatorFor(options.schema);
    const schemaProblems = validate(merged) ? [] : (validate.errors ?? []).map((error) => describe(error, sourceOf));
    const refused = new Set(schemaProblems.map((problem) => problem.path));
    const more = [...semanticProblems(merged, sourceOf), ...valueProblems(options.schema, merged, "", sourceOf, options.schema)];
    problems.push(...schemaProblems, ...more.filter((problem) => !refused.has(problem.path)));
  }
  if (problems.length > 0) throw new WowConfigError(problems);
  return merged;
}

/**
 * What the schema cannot say: the cron engine's verdict, the zone, the duration. It runs on a
 * configuration the schema may have refused elsewhere, so it reads only values of the right type.
 */
function semanticProblems(config: unknown, sourceOf: (path: string) => string): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const problem = (path: string, message: string) => problems.push({ path, message, source: sourceOf(path) });
  const wow = record(record(config)?.wow);
  for (const [name, value] of Object.entries(record(wow?.schedules) ?? {})) {
    const schedule = record(value);
    const base = pointer(["wow", "schedules", name]);
    const zone = typeof schedule?.zone === "string" ? schedule.zone : undefined;
    const zoneValid = zone !== undefined && isValidTimeZone(zone);
    if (zone !== undefined && !zoneValid) {
      problem(`${base}/zone`, `unknown time zone '${zone}' (${zoneAdvice(zone)})`);
    }
    if (typeof schedule?.expression !== "string") continue;
    const text = schedule.expression;
    try {
      const expression = CronExpression.parse(text);
      if (expression.neverFires()) problem(`${base}/expression`, `'${text}' never fires`);
      else if (zoneValid && !expression.firesIn(zone)) problem(`${base}/expression`, `'${text}' never fires in ${zone}: each time it matches falls in a daylight-saving gap`);
    } catch (error) {
      problem(`${base}/expression`, (error as Error).message);
    }
  }
  // A url moves the store to PostgreSQL: a SQLite setting from the same place is a contradiction; one of
  // the file's under an environment's WOW_STORE__URL is what the environment overrides.
  const store = record(wow?.store);
  if (typeof store?.url === "string") {
    for (const sqliteOnly of ["path", "synchronous", "integrity-check"]) {
      if (store[sqliteOnly] !== undefined && sourceOf(`/wow/store/${sqliteOnly}`) === sourceOf("/wow/store/url")) {
        problem(`/wow/store/${sqliteOnly}`, `a SQLite setting beside url: the store is a PostgreSQL server (url) or a SQLite file (path), not both; remove one`);
      }
    }
  }
  const credentials = record(wow?.http)?.credentials;
  if (Array.isArray(credentials) && credentials.every((c) => record(c) !== undefined)) {
    for (const found of credentialProblems(credentials, "/wow/http/credentials", "")) problems.push({ ...found, source: sourceOf(found.path) });
  }
  return problems;
}

/** `value` when it is a plain object (not an array, not null). */
function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
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
 * there. Where an object of `over` meets a `base` value that is not one, `wins` says which stays for
 * the schema to report: the file's object over a declared default (`"enabled": {"value": false}`), the
 * file's scalar under an environment variable's path (`"wow": 5`, then `WOW_TIMERS__…`).
 */
function merge(base: unknown, over: unknown, wins: "over" | "base"): unknown {
  if (!isPlainObject(over)) return over === undefined ? base : over;
  if (!isPlainObject(base)) return base === undefined || wins === "over" ? over : base;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) setOwn(out, key, Object.hasOwn(base, key) ? merge(base[key], value, wins) : value);
  return out;
}

/** Variables that look like settings (`WOW_<SECTION>__…`) but set none: a typo, or a setting that does not exist. */
function unknownVariables(table: Readonly<Record<string, readonly string[]>>, env: Readonly<Record<string, string | undefined>>): ConfigProblem[] {
  const known = Object.keys(table);
  return Object.keys(env)
    .filter((name) => env[name] !== undefined && isConfigVariable(name) && !Object.hasOwn(table, name))
    .sort()
    .map((name) => {
      const near = nearestName(name, known);
      return { path: "", message: `unknown setting variable ${name}${near === undefined ? ` (known: ${known.join(", ")})` : `: did you mean ${near}?`}`, source: name };
    });
}

/**
 * What a value's schema says but JSON Schema cannot check, wherever it stands: an integer past what the
 * runtime counts exactly (`"max-attempts": 1e308` is an integer to JSON Schema), and a duration the
 * duration parser refuses or that is 0 (`"PTxS"` fits the schema's pattern; a zero interval or timeout
 * would make a loop spin).
 */
function valueProblems(schema: unknown, value: unknown, path: string, sourceOf: (path: string) => string, root: unknown): ConfigProblem[] {
  // A shared definition (`{ "$ref": "#/definitions/…" }`) is read where it is defined.
  const ref = record(schema)?.["$ref"];
  const node = typeof ref === "string" && ref.startsWith("#/definitions/") ? record(record(record(root)?.["definitions"])?.[ref.slice("#/definitions/".length)]) : record(schema);
  if (node === undefined) return [];
  const fail = (message: string): ConfigProblem[] => [{ path, message, source: sourceOf(path) }];
  if (node.pattern === DURATION_SCHEMA.pattern && (typeof value === "string" || typeof value === "number")) {
    try {
      return parseDuration(value) < 1 ? fail("must be at least 1 ms") : [];
    } catch (error) {
      return fail((error as Error).message);
    }
  }
  const types = Array.isArray(node.type) ? node.type : [node.type];
  if (types.includes("integer") && typeof value === "number" && Number.isInteger(value) && !Number.isSafeInteger(value)) {
    return fail(`must be at most ${Number.MAX_SAFE_INTEGER} (got ${value})`);
  }
  const properties = record(node.properties);
  const object = record(value);
  if (properties === undefined || object === undefined) return [];
  return Object.keys(properties).flatMap((key) => (Object.hasOwn(object, key) ? valueProblems(properties[key], object[key], `${path}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`, sourceOf, root) : []));
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
