// AST nodes that are their own location, like names (source-name.ts): a node whose span runs from
// its name to the end of its last part carries `file`, `start` and `end` itself, and its `loc` is
// itself, instead of keeping a Location object of its own (a field runs from its name to the end of
// its type, an annotation argument to the end of its value). One object per field where there were
// two, made by an object literal so that V8 may allocate it in the old generation (see
// source-name.ts): the AST is kept for the whole build.
import type { AnnotationArgument, AnnotationValue, Field, Location, TypeRef } from "../ast.js";
import type { SourceName } from "./source-name.js";

export interface FieldNode extends Field, Location {
  readonly name: SourceName;
  readonly doc: string | undefined;
  readonly loc: FieldNode;
}

export interface ArgumentNode extends AnnotationArgument, Location {
  readonly name: SourceName;
  readonly loc: ArgumentNode;
}

/** What a node's `loc` holds until `ownLocation` points it at the node itself. */
const SELF = undefined as never;

/** Points a node just built (with `loc: SELF`) at itself as its location. */
function ownLocation<T extends { loc: unknown }>(node: { -readonly [K in keyof T]: T[K] }): T {
  node.loc = node;
  return node as T;
}

/** `name: Type`. */
export function createField(name: SourceName, type: TypeRef, doc: string | undefined): FieldNode {
  // One literal per kind of node (its own allocation site: see source-name.ts).
  return ownLocation<FieldNode>({ kind: "Field", name, type, doc, file: name.file, start: name.start, end: type.loc.end, loc: SELF });
}

/** `name = value` in an annotation. */
export function createArgument(name: SourceName, value: AnnotationValue): ArgumentNode {
  return ownLocation<ArgumentNode>({ name, value, file: name.file, start: name.start, end: value.loc.end, loc: SELF });
}
