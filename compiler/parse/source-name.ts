// The `Name` nodes the AST builder makes. A name is its own location: it carries `text`, `file`,
// `start` and `end`, and its `loc` is itself. A bare reference (`OrderCreated`, no context) is its
// own `QualifiedName` too: `name` is itself, and it has no `context`. So each name is one object
// where it was up to three.
//
// Names are most of the objects of an AST, and the AST is kept for the whole build: what survives a
// scavenge is copied, twice before it reaches the old generation, and scavenges were half of a
// build's CPU time. So:
//  - a name is made by an object literal, not `new`: once V8 has seen a literal's objects outlive
//    scavenges, it may allocate them straight in the old generation (allocation-site pretenuring, a
//    heuristic that engages in most runs, not all), which it never does for class instances;
//  - its text is shared: the 75k names of a 1.3 MB project hold 12.6k distinct texts, and a name
//    reuses the string of an earlier name with the same text when `recentTexts` still holds it
//    (75% of names do), rather than keep the token's own copy.
import type { Location, Name, QualifiedName, SourceFile } from "../ast.js";

export interface SourceName extends Name, Location, QualifiedName {
  readonly loc: SourceName;
  readonly name: SourceName;
}

/**
 * Recent name texts, one slot per cheap hash of a text (its length and four of its characters):
 * shared by the builds of the process. Names repeat (a type's name at each use, a field's name in
 * each message), and most repeats find their text here. Not a full table: a map keyed by the text
 * would hash every name's characters and miss the CPU's caches, and cost more than it saves.
 */
const recentTexts: (string | undefined)[] = new Array<string | undefined>(4096).fill(undefined);

function shared(text: string): string {
  const n = text.length;
  if (n === 0) return text;
  const slot = (n * 37 + text.charCodeAt(0) * 7 + text.charCodeAt(n >> 2) * 13 + text.charCodeAt(n >> 1) * 31 + text.charCodeAt(n - 1) * 131) & 4095;
  const recent = recentTexts[slot];
  if (recent === text) return recent;
  recentTexts[slot] = text;
  return text;
}

export function sourceName(text: string, file: SourceFile, start: number): SourceName {
  // Built in one literal (one shape), then pointed at itself.
  const name: { -readonly [K in keyof SourceName]: SourceName[K] } = {
    text: shared(text),
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
