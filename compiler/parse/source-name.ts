// The `Name` nodes the AST builder makes. A name is its own location: it carries `text`, `file` and
// `start` (its `end` follows from them) and its `loc` is itself. A bare reference (`OrderCreated`,
// no context) is its own `QualifiedName` too: `name` is itself, and it has no `context`. So each
// name is one object where it was up to three. Names are most of the objects of an AST, and the
// AST is what survives the garbage collector's young generation during a build: each of its bytes
// is copied twice (≈ 75k names on 1.3 MB).
import type { Location, Name, QualifiedName, SourceFile } from "../ast.js";

export class SourceName implements Name, Location, QualifiedName {
  // Declared, then assigned in the constructor: plain stores, in this order (one hidden class).
  declare readonly text: string;
  declare readonly file: SourceFile;
  declare readonly start: number;

  constructor(text: string, file: SourceFile, start: number) {
    this.text = text;
    this.file = file;
    this.start = start;
  }

  get end(): number {
    return this.start + this.text.length;
  }

  get loc(): Location {
    return this;
  }

  /** As a `QualifiedName`: the bare reference `text`. */
  get name(): Name {
    return this;
  }
}
