// Fields of types, commands, events and state: unique names and resolved types.
import type { Field, TypeRef } from "../ast.js";
import { builtinTypes, type ContextScope } from "../binder/symbols.js";
import type { FieldModel, FieldType } from "../model.js";
import type { Reporter } from "./reporter.js";
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
  const seen = new Set<string>();
  const result: FieldModel[] = [];
  for (const field of fields) {
    const name = field.name.text;
    if (name !== "" && seen.has(name)) reporter.report("WOW2008", { name, owner }, field.name.loc);
    seen.add(name);
    result.push({ decl: field, name, type: resolveType(field.type, scope, resolver) });
  }
  return result;
}

function resolveType(ref: TypeRef, scope: ContextScope, resolver: Resolver): FieldType {
  const shape = { array: ref.array, optional: ref.optional };
  if (ref.name.context === undefined && builtinTypes.has(ref.name.name.text)) {
    return { kind: "builtin", name: ref.name.name.text, ...shape };
  }
  const symbol = resolver.resolve(ref.name, scope, fieldType);
  if (symbol === undefined) return { kind: "unresolved", name: ref.name.text, ...shape };
  return { kind: symbol.kind === "Type" ? "type" : "enum", name: symbol.qualifiedName, ...shape };
}
