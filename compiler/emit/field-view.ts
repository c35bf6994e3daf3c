// Fields and their TypeScript types, as the templates print them. `.wow` built-ins map to JSON
// friendly TypeScript: int, long and decimal → number; instant → number (epoch milliseconds);
// duration → number (milliseconds); arrays are readonly.
import type { FieldModel, FieldType } from "../model.js";
import { docComment, identifier, propertyKey } from "./escape.js";
import { typesFile, type Imports } from "./imports.js";

const builtins: Readonly<Record<string, string>> = {
  string: "string",
  int: "number",
  long: "number",
  decimal: "number",
  boolean: "boolean",
  instant: "number",
  duration: "number",
};

export interface FieldView {
  /** The property key (`productId`, `class`, `"order-id"`). */
  readonly key: string;
  /** The TypeScript type; an optional field's admits `undefined` (`paidAt?: number | undefined`, for `exactOptionalPropertyTypes`). */
  readonly type: string;
  /** `?` for an optional field, else "". */
  readonly optional: string;
  readonly doc: string;
}

/** A factory parameter: `productId: string`, `class$: string`, `paidAt?: number`. */
export interface ParameterView {
  readonly declaration: string;
  /** The body entry: `productId` (shorthand) or `class: class$`. */
  readonly entry: string;
}

export function tsType(type: FieldType, imports: Imports): string {
  const element = type.kind === "builtin" ? builtins[type.name] ?? "unknown" : type.kind === "unresolved" ? "unknown" : named(type.name, imports);
  return type.array ? `readonly ${element}[]` : element;
}

function named(qualified: string, imports: Imports): string {
  const dot = qualified.lastIndexOf(".");
  return imports.ref({ context: qualified.slice(0, dot), file: typesFile() }, qualified.slice(dot + 1));
}

export function fieldViews(fields: readonly FieldModel[], imports: Imports, indent: string): FieldView[] {
  return fields.map((field) => ({
    key: propertyKey(field.name),
    type: field.type.optional ? `${tsType(field.type, imports)} | undefined` : tsType(field.type, imports),
    optional: field.type.optional ? "?" : "",
    doc: docComment(field.decl.doc, indent),
  }));
}

/** Positional factory parameters in field order; an optional field is `?` only when no required one follows. */
export function parameterViews(fields: readonly FieldModel[], imports: Imports): ParameterView[] {
  const lastRequired = fields.reduce((last, field, i) => (field.type.optional ? last : i), -1);
  return fields.map((field, i) => {
    const name = identifier(field.name);
    const type = tsType(field.type, imports);
    const declaration = !field.type.optional ? `${name}: ${type}` : i > lastRequired ? `${name}?: ${type}` : `${name}: ${type} | undefined`;
    const key = propertyKey(field.name);
    return { declaration, entry: key === name ? name : `${key}: ${name}` };
  });
}
