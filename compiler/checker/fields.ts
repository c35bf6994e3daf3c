// Fields of types, commands, events and state: unique names and resolved types.
import type { Field, TypeRef } from "../ast.js";
import { builtinTypes, type ContextScope } from "../binder/symbols.js";
import type { FieldModel, FieldType } from "../model.js";
import type { Reporter } from "../diagnostics/reporter.js";
import type { Expectation, Resolver } from "./resolve.js";

const fieldType: Expectation<"Type" | "Enum"> = {
  kinds: ["Type", "Enum"],
  unknown: "WOW2001",
  place: "a field type",
  expected: "a type, an enum or a built-in type",
  builtins: [...builtinTypes],
  advice: "Commands and events are messages, services are host dependencies: a field holds a value (a built-in type, a `type` or an `enum`).",
};

export function checkFields(fields: readonly Field[], owner: string, scope: ContextScope, resolver: Resolver, reporter: Reporter): FieldModel[] {
  return fields.map((field, i) => {
    const name = field.name.text;
    // Field lists are short: a scan of the earlier names, no set per list.
    if (name !== "" && declaredBefore(fields, i, name)) reporter.report("WOW2008", { name, owner }, field.name.loc);
    return { decl: field, name, type: resolveType(field.type, scope, resolver) };
  });
}

function declaredBefore(fields: readonly Field[], index: number, name: string): boolean {
  for (let j = 0; j < index; j++) if (fields[j]!.name.text === name) return true;
  return false;
}

/**
 * The field types of the built-in types, four per name (`T`, `T?`, `T[]`, `T[]?`), made once and
 * shared: most fields have a built-in type, and the model keeps every field's type.
 */
const builtinFieldTypes: ReadonlyMap<string, readonly FieldType[]> = new Map(
  [...builtinTypes].map((name) => [name, [false, true].flatMap((array) => [false, true].map((optional): FieldType => ({ kind: "builtin", name, array, optional })))]),
);

function resolveType(ref: TypeRef, scope: ContextScope, resolver: Resolver): FieldType {
  const { array, optional } = ref;
  const builtin = ref.name.context === undefined ? builtinFieldTypes.get(ref.name.name.text) : undefined;
  if (builtin !== undefined) return builtin[(array ? 2 : 0) + (optional ? 1 : 0)]!;
  const symbol = resolver.resolve(ref.name, scope, fieldType);
  if (symbol === undefined) return { kind: "unresolved", name: ref.name.text, array, optional };
  return { kind: symbol.kind === "Type" ? "type" : "enum", name: symbol.qualifiedName, array, optional };
}
