// Validates command bodies against the manifest's field declarations (read as data: the runtime
// does not import the compiler), and decodes them into the values the generated SDK types promise a
// handler: an instant as epoch milliseconds (JSON may carry an ISO-8601 string with its offset), a
// duration as milliseconds (JSON may carry "15m" or "PT15M"), and an optional field sent as `null`
// as absent. A bad body is a 400 that names each problem with its path.
import { ErrorCodes } from "../model/errors.js";
import { parseDuration } from "../model/duration.js";
import { toEpochMs } from "../model/schedule-rule.js";
import { HttpError } from "./http-error.js";

interface FieldType {
  readonly kind: string;
  readonly name: string;
  readonly array: boolean;
  readonly optional: boolean;
}

interface Field {
  readonly name: string;
  readonly type: FieldType;
}

/** The parts of `wow-manifest.json` the validator reads. */
export interface ManifestLike {
  readonly contexts: Readonly<
    Record<
      string,
      {
        readonly aggregates?: Readonly<Record<string, { readonly commands?: Readonly<Record<string, { readonly qualifiedName: string; readonly fields: readonly Field[] }>> }>>;
        readonly enums?: Readonly<Record<string, { readonly qualifiedName: string; readonly values: readonly { readonly name: string }[] }>>;
        readonly types?: Readonly<Record<string, { readonly qualifiedName: string; readonly fields: readonly Field[] }>>;
      }
    >
  >;
}

/** Returns the body as the handler receives it (decoded); throws a 400 HttpError when it is not valid. */
export type BodyValidator = (type: string, body: Record<string, unknown>) => Record<string, unknown>;

const MAX_PROBLEMS = 10;

export function bodyValidator(manifest: ManifestLike): BodyValidator {
  const commands = new Map<string, readonly Field[]>();
  const enums = new Map<string, Set<string>>();
  const types = new Map<string, readonly Field[]>();
  for (const context of Object.values(manifest.contexts ?? {})) {
    for (const aggregate of Object.values(context.aggregates ?? {})) for (const c of Object.values(aggregate.commands ?? {})) commands.set(c.qualifiedName, c.fields);
    for (const e of Object.values(context.enums ?? {})) enums.set(e.qualifiedName, new Set(e.values.map((v) => v.name)));
    for (const t of Object.values(context.types ?? {})) types.set(t.qualifiedName, t.fields);
  }

  /** `value` decoded (problems pushed when it does not fit; the result is then unused). */
  const decodeValue = (type: FieldType, value: unknown, path: string, problems: string[], depth: number): unknown => {
    if (type.array) {
      if (!Array.isArray(value)) return void problems.push(`${path}: must be an array`);
      return value.map((item, i) => decodeValue({ ...type, array: false, optional: false }, item, `${path}[${i}]`, problems, depth + 1));
    }
    switch (type.kind) {
      case "builtin":
        return decodeBuiltin(type.name, value, path, problems);
      case "enum": {
        const values = enums.get(type.name);
        if (typeof value !== "string" || (values && !values.has(value))) problems.push(`${path}: must be one of ${values ? [...values].join(", ") : "the enum's values"}`);
        return value;
      }
      case "type": {
        const fields = types.get(type.name);
        if (typeof value !== "object" || value === null || Array.isArray(value)) return void problems.push(`${path}: must be an object`);
        if (fields && depth < 32) return decodeFields(fields, value as Record<string, unknown>, `${path}.`, problems, depth + 1);
        return value;
      }
      default:
        return value;
    }
  };

  const decodeFields = (fields: readonly Field[], body: Record<string, unknown>, prefix: string, problems: string[], depth: number): Record<string, unknown> => {
    const known = new Set(fields.map((f) => f.name));
    for (const key of Object.keys(body)) if (!known.has(key)) problems.push(`${prefix}${key.slice(0, 60)}: unknown field`);
    const decoded: Record<string, unknown> = {};
    for (const field of fields) {
      const value = Object.hasOwn(body, field.name) ? body[field.name] : undefined;
      if (value === undefined || value === null) {
        if (!field.type.optional) problems.push(`${prefix}${field.name}: required`);
        continue;
      }
      decoded[field.name] = decodeValue(field.type, value, `${prefix}${field.name}`, problems, depth);
    }
    return decoded;
  };

  return (type, body) => {
    const fields = commands.get(type);
    if (!fields) return body;
    const problems: string[] = [];
    const decoded = decodeFields(fields, body, "", problems, 0);
    if (problems.length > 0) {
      throw new HttpError(400, ErrorCodes.CommandValidation, `the body of ${type} is not valid: ${problems.slice(0, MAX_PROBLEMS).join("; ")}`, { problems: problems.slice(0, MAX_PROBLEMS) });
    }
    return decoded;
  };
}

function decodeBuiltin(name: string, value: unknown, path: string, problems: string[]): unknown {
  switch (name) {
    case "int":
    case "long":
      if (!Number.isSafeInteger(value)) problems.push(`${path}: must be an integer`);
      return value;
    case "decimal":
    case "float":
    case "double":
      if (typeof value !== "number" || !Number.isFinite(value)) problems.push(`${path}: must be a number`);
      return value;
    case "string":
    case "id":
      if (typeof value !== "string") problems.push(`${path}: must be a string`);
      return value;
    case "bool":
    case "boolean":
      if (typeof value !== "boolean") problems.push(`${path}: must be true or false`);
      return value;
    case "instant": {
      if (Number.isSafeInteger(value)) return value;
      // The runtime's one reading of an instant (ScheduleRule.at's): ISO-8601 with its offset.
      if (typeof value === "string") {
        try {
          return toEpochMs(value);
        } catch {
          // reported below
        }
      }
      problems.push(`${path}: must be an instant: epoch milliseconds, or ISO-8601 with its offset ("2026-03-01T10:00:00Z")`);
      return value;
    }
    case "duration": {
      if (Number.isSafeInteger(value) && (value as number) >= 0) return value;
      if (typeof value === "string") {
        try {
          return parseDuration(value);
        } catch {
          // reported below
        }
      }
      problems.push(`${path}: must be a duration: milliseconds, "15m", "1h30m" or ISO-8601 "PT15M"`);
      return value;
    }
    default:
      return value;
  }
}
