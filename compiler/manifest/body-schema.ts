// The JSON Schema (draft 2020-12) of a command's body as it is sent over HTTP: an object of the
// command's fields (no others), each built-in as JSON carries it (an instant as an ISO-8601 string
// or epoch milliseconds, a duration as "15m"/"PT15M" or milliseconds, marked `x-wow-decode` for the
// runtime to decode), value types and enums under `$defs` by qualified name. Self-contained (every
// type it names, from any context, is in its `$defs`) and deterministic (keys sorted, `required`
// sorted). The generated registrations carry it; an OpenAPI document can be built from the same
// function. The records keyed by `.wow` names have no prototype: a field may be called `__proto__`.
import type { EnumDeclaration } from "../ast.js";
import type { FieldModel, FieldType, ProgramModel, TypeModel } from "../model.js";

/** A JSON Schema, as data. */
export type JsonSchema = { readonly [keyword: string]: unknown };

export const JSON_SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema";

type Declaration = { readonly context: string } & ({ readonly type: TypeModel } | { readonly enum: EnumDeclaration });

/** The declarations a schema can name, by qualified name: a program's, with a cache of their `$defs` entries. */
export class Declarations {
  private readonly declared = new Map<string, Declaration>();
  /** Each declaration's `$defs` entry and the declarations it names, made once. */
  private readonly entries = new Map<string, { readonly schema: JsonSchema; readonly names: readonly string[] }>();
  /** Each command's body schema, made once however many outputs carry it (registrations, OpenAPI). */
  readonly bodies = new WeakMap<readonly FieldModel[], { readonly doc: string | undefined; readonly body: BodySchema }>();

  constructor(program: ProgramModel) {
    for (const context of program.contexts) {
      for (const type of context.types) this.declared.set(`${context.name}.${type.name}`, { context: context.name, type });
      for (const decl of context.enums) this.declared.set(`${context.name}.${decl.name.text}`, { context: context.name, enum: decl });
    }
  }

  contextOf(qualified: string): string {
    return this.declaration(qualified).context;
  }

  /** The `$defs` entry of a declaration, and the declarations its fields name. */
  entry(qualified: string): { readonly schema: JsonSchema; readonly names: readonly string[] } {
    let entry = this.entries.get(qualified);
    if (entry === undefined) {
      const declaration = this.declaration(qualified);
      if ("enum" in declaration) entry = { schema: enumSchema(declaration.enum), names: [] };
      else {
        const names: string[] = [];
        entry = { schema: objectSchema(declaration.type.fields, declaration.type.decl.doc, names), names };
      }
      this.entries.set(qualified, entry);
    }
    return entry;
  }

  private declaration(qualified: string): Declaration {
    const declaration = this.declared.get(qualified);
    if (declaration === undefined) throw new Error(`body schema: '${qualified}' is not declared`);
    return declaration;
  }
}

export function declarationsOf(program: ProgramModel): Declarations {
  return new Declarations(program);
}

/** A command's body schema, and the contexts whose declarations its `$defs` hold (what it depends on besides the command). */
export interface BodySchema {
  readonly schema: JsonSchema;
  readonly contexts: ReadonlySet<string>;
}

/** The schema of a body of `fields` (a command's), with `doc` as its description. */
export function bodySchema(fields: readonly FieldModel[], doc: string | undefined, declarations: Declarations): BodySchema {
  const made = declarations.bodies.get(fields);
  if (made !== undefined && made.doc === doc) return made.body;
  const body = makeBodySchema(fields, doc, declarations);
  declarations.bodies.set(fields, { doc, body });
  return body;
}

function makeBodySchema(fields: readonly FieldModel[], doc: string | undefined, declarations: Declarations): BodySchema {
  const names: string[] = [];
  const body = objectSchema(fields, doc, names);
  // Every declaration the body names, and those theirs name, once each.
  const defined = new Set<string>();
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    if (defined.has(name)) continue;
    defined.add(name);
    names.push(...declarations.entry(name).names);
  }
  const defs = record([...defined].sort(compare).map((name) => [name, declarations.entry(name).schema]));
  const contexts = new Set([...defined].map((name) => declarations.contextOf(name)));
  // Keys in sorted order: `$defs`, `$schema`, then the object's own.
  return { schema: { $defs: defs, $schema: JSON_SCHEMA_DIALECT, ...body }, contexts };
}

/** An object of exactly `fields`: the optional ones may be left out or sent as `null`. `names` collects the declarations it names. */
function objectSchema(fields: readonly FieldModel[], doc: string | undefined, names: string[]): JsonSchema {
  const properties = record([...fields].sort((a, b) => compare(a.name, b.name)).map((field) => [field.name, described(fieldSchema(field.type, names), field.decl.doc)]));
  const required = fields.filter((field) => !field.type.optional).map((field) => field.name).sort(compare);
  return present(doc)
    ? { additionalProperties: false, description: doc, properties, required, type: "object" }
    : { additionalProperties: false, properties, required, type: "object" };
}

function enumSchema(decl: EnumDeclaration): JsonSchema {
  const values = decl.members.map((m) => m.name.text);
  return present(decl.doc) ? { description: decl.doc, enum: values } : { enum: values };
}

function fieldSchema(type: FieldType, names: string[]): JsonSchema {
  let schema = elementSchema(type, names);
  if (type.array) schema = { items: schema, type: "array" };
  return type.optional ? { anyOf: [schema, NULL] } : schema;
}

function elementSchema(type: FieldType, names: string[]): JsonSchema {
  if (type.kind === "builtin") {
    const schema = builtins[type.name];
    if (schema === undefined) throw new Error(`body schema: no schema for the built-in '${type.name}'`);
    return schema;
  }
  if (type.kind === "unresolved") throw new Error(`body schema: the type '${type.name}' is unresolved`);
  names.push(type.name);
  return { $ref: `#/$defs/${pointerToken(type.name)}` };
}

const NULL: JsonSchema = { type: "null" };

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

/** `schema` with `doc` as its `description`, the keys kept in sorted order. */
function described(schema: JsonSchema, doc: string | undefined): JsonSchema {
  if (!present(doc)) return schema;
  const entries: [string, unknown][] = [...Object.entries(schema), ["description", doc]];
  return Object.fromEntries(entries.sort(([a], [b]) => compare(a, b)));
}

function present(doc: string | undefined): doc is string {
  return doc !== undefined && doc.trim() !== "";
}

/** A record of `.wow` names (already in the order to keep) without a prototype. */
function record(entries: readonly (readonly [string, unknown])[]): JsonSchema {
  const out = Object.create(null) as Record<string, unknown>;
  for (const [key, value] of entries) out[key] = value;
  return out;
}

/** A JSON Pointer token (RFC 6901): `~` and `/` escaped (`.wow` names hold neither, but a pointer is a pointer). */
function pointerToken(name: string): string {
  return name.replace(/~/g, "~0").replace(/\//g, "~1");
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
