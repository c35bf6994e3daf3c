// Command bodies checked against their JSON Schema (the registration's `bodySchema`, the one the
// manifest and the OpenAPI document describe) with ajv, then decoded into the values the generated
// SDK types promise a handler: an instant as epoch ms (JSON may carry an ISO-8601 string with its
// offset), a duration as ms ("15m", "PT15M"), an optional field sent as `null` as absent.
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { parseDuration } from "../model/duration.js";
import { ErrorCodes } from "../model/errors.js";
import { toEpochMs } from "../model/schedule-rule.js";
import { HttpError } from "./http-error.js";

/** Returns the body as the handler receives it (decoded); throws a 400 HttpError naming each problem's field. */
export type BodyCheck = (body: Record<string, unknown>) => Record<string, unknown>;

const MAX_PROBLEMS = 10;

type Schema = { readonly [key: string]: unknown };

let ajv: Ajv2020 | undefined;
const checks = new WeakMap<object, BodyCheck>();

function compiler(): Ajv2020 {
  if (ajv === undefined) {
    ajv = new Ajv2020({ allErrors: true, strict: false, verbose: true });
    addFormats.default(ajv, ["date-time"]);
    ajv.addKeyword({ keyword: "x-wow-decode", schemaType: "string" });
  }
  return ajv;
}

/** The check of bodies against `schema` (compiled once per schema object). */
export function bodyCheck(schema: object): BodyCheck {
  let check = checks.get(schema);
  if (check === undefined) {
    const validate = compiler().compile(schema);
    const decodes = decodesAnything(schema as Schema, schema as Schema, new Set());
    check = (body) => {
      if (!validate(body)) throw new HttpError(400, ErrorCodes.CommandValidation, `the body does not fit the command: ${problems(validate).join("; ")}`, { problems: problems(validate) });
      return decodes ? (decode(schema as Schema, schema as Schema, body) as Record<string, unknown>) : body;
    };
    checks.set(schema, check);
  }
  return check;
}

const DECODED: Readonly<Record<string, string>> = {
  instant: "must be an instant (an ISO-8601 date-time with Z or an offset, or epoch milliseconds)",
  duration: 'must be a duration ("15m", "PT15M", or milliseconds)',
};

const TYPE_NAMES: Readonly<Record<string, string>> = { string: "a string", integer: "an integer", number: "a number", boolean: "a boolean", object: "an object", array: "an array", null: "null" };

/**
 * One problem per field, `field.path: message`, at most MAX_PROBLEMS, the field named as in the body
 * (`items[0].quantity`). A value that fits no branch of an instant, a duration or an optional field
 * gets that value's own message, not one per branch.
 */
function problems(validate: ValidateFunction): string[] {
  const byPath = new Map<string, ErrorObject[]>();
  for (const error of validate.errors ?? []) {
    const key = error.keyword === "additionalProperties" || error.keyword === "required" ? `${error.instancePath}\u0000${JSON.stringify(error.params)}` : error.instancePath;
    const list = byPath.get(key);
    if (list === undefined) byPath.set(key, [error]);
    else list.push(error);
  }
  const found: string[] = [];
  for (const errors of byPath.values()) {
    if (found.length >= MAX_PROBLEMS) break;
    found.push(describe(errors));
  }
  return found;
}

function describe(errors: readonly ErrorObject[]): string {
  const first = errors[0]!;
  const at = fieldPath(first.instancePath);
  const params = first.params as Record<string, unknown>;
  if (first.keyword === "additionalProperties") return `${join(at, String(params.additionalProperty))}: unknown field`;
  if (first.keyword === "required") return `${join(at, String(params.missingProperty))}: is required`;
  const decoded = errors.map((e) => (e.parentSchema as Schema | undefined)?.["x-wow-decode"]).find((k) => typeof k === "string");
  if (typeof decoded === "string" && DECODED[decoded] !== undefined) return `${at || "body"}: ${DECODED[decoded]}`;
  // The branches' own errors say more than "must match a schema in anyOf"; "must be null" is an optional field's other branch.
  const telling = errors.filter((e) => e.keyword !== "anyOf" && !(e.keyword === "type" && (e.params as { type?: unknown }).type === "null"));
  const error = telling[0] ?? first;
  const p = error.params as Record<string, unknown>;
  if (error.keyword === "type") return `${at || "body"}: must be ${TYPE_NAMES[String(p.type)] ?? String(p.type)}`;
  if (error.keyword === "enum") return `${at || "body"}: must be one of ${(p.allowedValues as unknown[]).join(", ")}`;
  return `${at || "body"}: ${error.message ?? error.keyword}`;
}

/** `/items/0/quantity` → `items[0].quantity`. */
export function fieldPath(pointer: string): string {
  let path = "";
  for (const raw of pointer.split("/").slice(1)) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    path += /^\d+$/.test(key) ? `[${key}]` : path === "" ? key : `.${key}`;
  }
  return path;
}

function join(at: string, key: string): string {
  return at === "" ? key.slice(0, 60) : `${at}.${key.slice(0, 60)}`;
}

/** Whether `decode` can change a value valid against `node`: an instant, a duration or an optional field (`anyOf` with null) somewhere in it. */
function decodesAnything(root: Schema, node: Schema, seen: Set<string>): boolean {
  const ref = node.$ref;
  if (typeof ref === "string") {
    if (seen.has(ref)) return false;
    seen.add(ref);
    return decodesAnything(root, resolve(root, ref), seen);
  }
  if (node["x-wow-decode"] !== undefined || node.anyOf !== undefined) return true;
  const items = node.items as Schema | undefined;
  if (items !== undefined && decodesAnything(root, items, seen)) return true;
  return Object.values((node.properties ?? {}) as Record<string, Schema>).some((property) => decodesAnything(root, property, seen));
}

/** `value` (valid against `node`) decoded; `root` holds the `$defs` that `$ref`s name. */
function decode(root: Schema, node: Schema, value: unknown): unknown {
  const ref = node.$ref;
  if (typeof ref === "string") return decode(root, resolve(root, ref), value);
  const kind = node["x-wow-decode"];
  if (kind === "instant") return typeof value === "string" ? toEpochMs(value) : value;
  if (kind === "duration") return typeof value === "string" ? parseDuration(value) : value;
  const anyOf = node.anyOf as Schema[] | undefined;
  if (anyOf !== undefined) {
    if (value === null) return null;
    const branch = anyOf.find((s) => s.type !== "null");
    return branch === undefined ? value : decode(root, branch, value);
  }
  if (Array.isArray(value)) {
    const items = node.items as Schema | undefined;
    return items === undefined ? value : value.map((item) => decode(root, items, item));
  }
  if (typeof value === "object" && value !== null) {
    const properties = (node.properties ?? {}) as Record<string, Schema>;
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const schema = Object.hasOwn(properties, key) ? properties[key] : undefined;
      const decoded = schema === undefined ? item : decode(root, schema, item);
      // An optional field sent as null is absent, as the SDK's types say.
      if (decoded !== null || schema === undefined) Object.defineProperty(out, key, { value: decoded, writable: true, enumerable: true, configurable: true });
    }
    return out;
  }
  return value;
}

function resolve(root: Schema, ref: string): Schema {
  const name = decodeURIComponent(ref.replace(/^#\/\$defs\//, "")).replace(/~1/g, "/").replace(/~0/g, "~");
  const defs = (root.$defs ?? {}) as Record<string, Schema>;
  const found = Object.hasOwn(defs, name) ? defs[name] : undefined;
  if (found === undefined) throw new Error(`bodySchema: no $defs entry for ${ref}`);
  return found;
}
