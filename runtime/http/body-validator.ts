// Validates command bodies against the manifest's field declarations (read as data: the runtime
// does not import the compiler). A bad body is a 400 that names each problem with its path.
import { ErrorCodes } from "../model/errors.js";
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

export type BodyValidator = (type: string, body: Record<string, unknown>) => void;

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

  const checkValue = (type: FieldType, value: unknown, path: string, problems: string[], depth: number): void => {
    if (type.array) {
      if (!Array.isArray(value)) return void problems.push(`${path}: must be an array`);
      value.forEach((item, i) => checkValue({ ...type, array: false, optional: false }, item, `${path}[${i}]`, problems, depth + 1));
      return;
    }
    switch (type.kind) {
      case "builtin":
        return checkBuiltin(type.name, value, path, problems);
      case "enum": {
        const values = enums.get(type.name);
        if (typeof value !== "string" || (values && !values.has(value))) problems.push(`${path}: must be one of ${values ? [...values].join(", ") : "the enum's values"}`);
        return;
      }
      case "type": {
        const fields = types.get(type.name);
        if (typeof value !== "object" || value === null || Array.isArray(value)) return void problems.push(`${path}: must be an object`);
        if (fields && depth < 32) checkFields(fields, value as Record<string, unknown>, `${path}.`, problems, depth + 1);
        return;
      }
      default:
        return;
    }
  };

  const checkFields = (fields: readonly Field[], body: Record<string, unknown>, prefix: string, problems: string[], depth: number): void => {
    const known = new Set(fields.map((f) => f.name));
    for (const key of Object.keys(body)) if (!known.has(key)) problems.push(`${prefix}${key.slice(0, 60)}: unknown field`);
    for (const field of fields) {
      const value = body[field.name];
      if (value === undefined || value === null) {
        if (!field.type.optional) problems.push(`${prefix}${field.name}: required`);
        continue;
      }
      checkValue(field.type, value, `${prefix}${field.name}`, problems, depth);
    }
  };

  return (type, body) => {
    const fields = commands.get(type);
    if (!fields) return;
    const problems: string[] = [];
    checkFields(fields, body, "", problems, 0);
    if (problems.length > 0) {
      throw new HttpError(400, ErrorCodes.CommandValidation, `the body of ${type} is not valid: ${problems.slice(0, MAX_PROBLEMS).join("; ")}`, { problems: problems.slice(0, MAX_PROBLEMS) });
    }
  };
}

function checkBuiltin(name: string, value: unknown, path: string, problems: string[]): void {
  switch (name) {
    case "int":
    case "long":
      if (!Number.isSafeInteger(value)) problems.push(`${path}: must be an integer`);
      return;
    case "decimal":
    case "float":
    case "double":
      if (typeof value !== "number" || !Number.isFinite(value)) problems.push(`${path}: must be a number`);
      return;
    case "string":
    case "id":
      if (typeof value !== "string") problems.push(`${path}: must be a string`);
      return;
    case "bool":
    case "boolean":
      if (typeof value !== "boolean") problems.push(`${path}: must be true or false`);
      return;
    case "instant":
      if (!(Number.isSafeInteger(value) || (typeof value === "string" && Number.isFinite(Date.parse(value))))) problems.push(`${path}: must be an instant (epoch ms or ISO-8601)`);
      return;
    default:
      return;
  }
}
