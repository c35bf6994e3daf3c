// The `Name` nodes the AST builder makes. A name is its own location: it carries `file`, `start`
// and `end` and its `loc` is itself, so each name is one object instead of a name and a Location.
// Names are half the objects of an AST, and the AST is what survives the garbage collector's young
// generation during a build: fewer, smaller objects are less to copy (≈ 75k names on 1.3 MB).
import type { Location, Name, SourceFile } from "../ast.js";

export class SourceName implements Name, Location {
  // Declared, then assigned in the constructor: plain stores, in this order (one hidden class).
  declare readonly text: string;
  declare readonly file: SourceFile;
  declare readonly start: number;
  declare readonly end: number;

  constructor(text: string, file: SourceFile, start: number) {
    this.text = text;
    this.file = file;
    this.start = start;
    this.end = start + text.length;
  }

  get loc(): Location {
    return this;
  }
}
