// The `Name` nodes the AST builder makes. A name is its own location: it carries `text`, `file`,
// `start` and `end`, and its `loc` is itself. A bare reference (`OrderCreated`, no context) is its
// own `QualifiedName` too: `name` is itself, and it has no `context`. So each name is one object
// where it was up to three.
//
// Names are most of the objects of an AST, and the AST is kept for the whole build. Two things keep
// them out of the young generation's copying (each object that survives a scavenge is copied, twice
// before it reaches the old generation; scavenges were half of a build's CPU time):
//  - a name is made by an object literal, not `new`: V8 can then allocate a literal's objects
//    straight in the old generation once it has seen that they outlive scavenges (allocation-site
//    pretenuring), which it never does for class instances;
//  - its text is interned: the 75k names of a 1.3 MB project hold 12.6k distinct texts, so most
//    names share a string made earlier (in this build or an earlier one of the process) instead of
//    keeping the token's own copy.
import type { Location, Name, QualifiedName, SourceFile } from "../ast.js";

export interface SourceName extends Name, Location, QualifiedName {
  readonly loc: SourceName;
  readonly name: SourceName;
}

/** One string per distinct name text, shared by the builds of the process (a watch session's too). */
let texts = new Map<string, string>();
/** When `texts` holds this many, the next new text starts a fresh table: its memory stays bounded. */
const MAX_TEXTS = 1 << 16;

function interned(text: string): string {
  const known = texts.get(text);
  if (known !== undefined) return known;
  if (texts.size >= MAX_TEXTS) texts = new Map();
  texts.set(text, text);
  return text;
}

export function sourceName(text: string, file: SourceFile, start: number): SourceName {
  // Built in one literal (one shape), then pointed at itself.
  const name: { -readonly [K in keyof SourceName]: SourceName[K] } = {
    text: interned(text),
    file,
    start,
    end: start + text.length,
    loc: undefined as unknown as SourceName,
    name: undefined as unknown as SourceName,
  };
  name.loc = name;
  name.name = name;
  return name;
}
