// Go to definition, find references and document highlights: the name at the cursor, looked up in
// the build's name index, and every place that names the same declaration (or context).
import { DocumentHighlightKind, type DocumentHighlight, type Location as LspLocation } from "vscode-languageserver";
import { inReadingOrder, type Occurrence } from "./name-index.js";
import { toRange } from "./positions.js";
import type { Project } from "./project.js";

function location(project: Project, occurrence: Occurrence): LspLocation {
  return { uri: project.uriOf(occurrence.loc.file.path), range: toRange(occurrence.loc) };
}

/** The declaration of the name at the cursor (a context: the `context` clause of each of its files). */
export function definition(project: Project, path: string, offset: number): LspLocation[] | null {
  const at = project.names.at(path, offset);
  if (at === undefined) return null;
  const declarations = project.names.of(at.target).filter((o) => o.declaration);
  return declarations.length === 0 ? null : inReadingOrder(declarations).map((o) => location(project, o));
}

export function references(project: Project, path: string, offset: number, includeDeclaration: boolean): LspLocation[] | null {
  const at = project.names.at(path, offset);
  if (at === undefined) return null;
  return inReadingOrder(project.names.of(at.target))
    .filter((o) => includeDeclaration || !o.declaration)
    .map((o) => location(project, o));
}

export function highlights(project: Project, path: string, offset: number): DocumentHighlight[] | null {
  const at = project.names.at(path, offset);
  if (at === undefined) return null;
  return project.names
    .inFile(path)
    .filter((o) => o.target === at.target)
    .map((o) => ({ range: toRange(o.loc), kind: o.declaration ? DocumentHighlightKind.Write : DocumentHighlightKind.Read }));
}
