// Fields and their TypeScript types, as the templates print them. `.wow` built-ins map to JSON
// friendly TypeScript: int, long and decimal → number; instant → number (epoch milliseconds);
// duration → number (milliseconds); arrays are readonly.
import type { FieldModel, FieldType } from "../model.js";
import { docComment, propertyAccess, propertyKey } from "./escape.js";
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

/**
 * A factory's parameter and body: fields by name, so two of one type cannot swap
 * (`PayOrder({ amount })`). `$fields: PayOrder` (`$fields: PayOrder = {}` when every field is optional),
 * none for a message without fields; the body copies each declared field, and no other property.
 */
export interface FactoryView {
  readonly parameters: string;
  readonly body: string;
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

export function factoryView(typeName: string, fields: readonly FieldModel[]): FactoryView {
  if (fields.length === 0) return { parameters: "", body: "{}" };
  const optional = fields.every((field) => field.type.optional);
  // `$fields`: a `.wow` name has no `$`, so no message or field name can shadow it.
  const entries = fields.map((field) => `${propertyKey(field.name)}: ${propertyAccess("$fields", field.name)}`);
  return { parameters: `$fields: ${typeName}${optional ? " = {}" : ""}`, body: `{ ${entries.join(", ")} }` };
}
