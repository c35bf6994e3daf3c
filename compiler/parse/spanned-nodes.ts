// AST nodes that are their own location, like `SourceName`: a node whose span runs from its name to
// the end of its last part reads `file`, `start` and `end` from them instead of keeping a Location
// object of its own (a field runs from its name to the end of its type, an annotation argument to
// the end of its value). One object per field where there were two; the AST is kept for the whole
// build and each of its objects is copied out of the young generation (see source-name.ts).
import type { AnnotationArgument, AnnotationValue, Field, Location, SourceFile, TypeRef } from "../ast.js";
import type { SourceName } from "./source-name.js";

/** A node spanning from the start of its `name` to its `end`, the end of its last part. */
abstract class SpannedFromName implements Location {
  declare readonly name: SourceName;

  constructor(name: SourceName) {
    this.name = name;
  }

  get file(): SourceFile {
    return this.name.file;
  }

  get start(): number {
    return this.name.start;
  }

  abstract get end(): number;

  get loc(): Location {
    return this;
  }
}

/** `name: Type`. */
export class FieldNode extends SpannedFromName implements Field {
  declare readonly kind: "Field";
  declare readonly type: TypeRef;
  declare readonly doc: string | undefined;

  constructor(name: SourceName, type: TypeRef, doc: string | undefined) {
    super(name);
    this.kind = "Field";
    this.type = type;
    this.doc = doc;
  }

  get end(): number {
    return this.type.loc.end;
  }
}

/** `name = value` in an annotation. */
export class ArgumentNode extends SpannedFromName implements AnnotationArgument {
  declare readonly value: AnnotationValue;

  constructor(name: SourceName, value: AnnotationValue) {
    super(name);
    this.value = value;
  }

  get end(): number {
    return this.value.loc.end;
  }
}
