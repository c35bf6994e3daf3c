// The JSON Schema (draft 2020-12) of a command's body as it is sent over HTTP: an object of the
// command's fields (no others), each built-in as JSON carries it (an instant as an ISO-8601 string
// or epoch milliseconds, a duration as "15m"/"PT15M" or milliseconds, marked `x-wow-decode` for the
// runtime to decode), value types and enums under `$defs` by qualified name. Self-contained (every
// type it names, from any context, is in its `$defs`) and deterministic (keys sorted, `required`
// sorted). The generated registrations carry it; an OpenAPI document can be built from the same
// function. Records are made without a prototype: a field may be called `__proto__`.
import type { EnumDeclaration } from "../ast.js";
import type { FieldModel, FieldType, ProgramModel, TypeModel } from "../model.js";

/** A JSON Schema, as data. */
export type JsonSchema = { readonly [keyword: string]: unknown };

export const JSON_SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema";

/** The declarations a schema can name, by qualified name, with the context that declares each. */
export type Declarations = ReadonlyMap<string, { readonly context: string } & ({ readonly type: TypeModel } | { readonly enum: EnumDeclaration })>;

export function declarationsOf(program: ProgramModel): Declarations {
  const out = new Map<string, { readonly context: string } & ({ readonly type: TypeModel } | { readonly enum: EnumDeclaration })>();
  for (const context of program.contexts) {
    for (const type of context.types) out.set(`${context.name}.${type.name}`, { context: context.name, type });
    for (const decl of context.enums) out.set(`${context.name}.${decl.name.text}`, { context: context.name, enum: decl });
  }
  return out;
}

/** A command's body schema, and the contexts whose declarations its `$defs` hold (what it depends on besides the command). */
export interface BodySchema {
  readonly schema: JsonSchema;
  readonly contexts: ReadonlySet<string>;
}

/** The schema of a body of `fields` (a command's), with `doc` as its description. */
export function bodySchema(fields: readonly FieldModel[], doc: string | undefined, declarations: Declarations): BodySchema {
  const defs = new Map<string, JsonSchema>();
  const contexts = new Set<string>();
  const define = (qualified: string): void => {
    if (defs.has(qualified)) return;
    const declaration = declarations.get(qualified);
    if (declaration === undefined) throw new Error(`body schema: '${qualified}' is not declared`);
    contexts.add(declaration.context);
    if ("enum" in declaration) {
      defs.set(qualified, described({ enum: declaration.enum.members.map((m) => m.name.text) }, declaration.enum.doc));
      return;
    }
    defs.set(qualified, {}); // claimed before its fields: a type may refer to itself
    defs.set(qualified, objectSchema(declaration.type.fields, declaration.type.decl.doc, define));
  };
  const body = objectSchema(fields, doc, define);
  const schema = record([
    ...Object.entries(body),
    ["$schema", JSON_SCHEMA_DIALECT],
    ["$defs", record([...defs])],
  ]);
  return { schema, contexts };
}

/** An object of exactly `fields`: the optional ones may be left out or sent as `null`. */
function objectSchema(fields: readonly FieldModel[], doc: string | undefined, define: (qualified: string) => void): JsonSchema {
  const properties = record(fields.map((field) => [field.name, described(fieldSchema(field.type, define), field.decl.doc)]));
  const required = fields.filter((field) => !field.type.optional).map((field) => field.name).sort(compare);
  return described(record([["additionalProperties", false], ["properties", properties], ["required", required], ["type", "object"]]), doc);
}

function fieldSchema(type: FieldType, define: (qualified: string) => void): JsonSchema {
  let schema = elementSchema(type, define);
  if (type.array) schema = { items: schema, type: "array" };
  return type.optional ? { anyOf: [schema, { type: "null" }] } : schema;
}

function elementSchema(type: FieldType, define: (qualified: string) => void): JsonSchema {
  if (type.kind === "builtin") {
    const schema = builtins[type.name];
    if (schema === undefined) throw new Error(`body schema: no schema for the built-in '${type.name}'`);
    return schema;
  }
  if (type.kind === "unresolved") throw new Error(`body schema: the type '${type.name}' is unresolved`);
  define(type.name);
  return { $ref: `#/$defs/${pointerToken(type.name)}` };
}

/** What JSON carries for each built-in: `int` and `long` within their ranges (`long` within what a JSON number holds exactly). */
const builtins: Readonly<Record<string, JsonSchema>> = {
  string: { type: "string" },
  int: { maximum: 2147483647, minimum: -2147483648, type: "integer" },
  long: { maximum: 9007199254740991, minimum: -9007199254740991, type: "integer" },
  decimal: { type: "number" },
  boolean: { type: "boolean" },
  instant: { anyOf: [{ format: "date-time", type: "string" }, { type: "integer" }], "x-wow-decode": "instant" },
  duration: { anyOf: [{ minLength: 1, type: "string" }, { minimum: 0, type: "integer" }], "x-wow-decode": "duration" },
};

/** `schema` with `doc` as its `description` (keys kept sorted). */
function described(schema: JsonSchema, doc: string | undefined): JsonSchema {
  if (doc === undefined || doc.trim() === "") return schema;
  return record([...Object.entries(schema), ["description", doc]]);
}

/** A record without a prototype, its keys in sorted order. */
function record(entries: readonly (readonly [string, unknown])[]): JsonSchema {
  const out = Object.create(null) as Record<string, unknown>;
  for (const [key, value] of [...entries].sort(([a], [b]) => compare(a, b))) out[key] = value;
  return out;
}

/** A JSON Pointer token (RFC 6901): `~` and `/` escaped (`.wow` names hold neither, but a pointer is a pointer). */
function pointerToken(name: string): string {
  return name.replace(/~/g, "~0").replace(/\//g, "~1");
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
