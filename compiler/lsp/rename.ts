// Rename: every occurrence of the declaration (or context) at the cursor, across the build's files.
// Refused, with the reason, when the new name is not a name the language accepts for that kind of
// declaration, or when its context already declares it.
import { ResponseError, ErrorCodes, type Range, type TextEdit, type WorkspaceEdit } from "vscode-languageserver";
import { builtinTypes } from "../binder/symbols.js";
import { checkDeclarationName } from "../checker/names.js";
import { Reporter } from "../diagnostics/reporter.js";
import { sourceName } from "../parse/source-name.js";
import { toRange } from "./positions.js";
import type { Project } from "./project.js";

/** One name token of the lexer (grammar/tokens.ts). */
const NAME = /^[A-Za-z_][A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)*$/;
/** A context name (compiler/binder/bind.ts). */
const CONTEXT_NAME = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

export function prepareRename(project: Project, path: string, offset: number): { range: Range; placeholder: string } | null {
  const at = project.names.at(path, offset);
  if (at === undefined) return null;
  return { range: toRange(at.loc), placeholder: at.loc.file.text.slice(at.loc.start, at.loc.end) };
}

export function rename(project: Project, path: string, offset: number, newName: string): WorkspaceEdit | null {
  const at = project.names.at(path, offset);
  if (at === undefined) return null;
  const isContext = !at.target.includes(".");
  const refuse = (why: string): never => {
    throw new ResponseError(ErrorCodes.InvalidParams, `Cannot rename to '${newName}': ${why}`);
  };
  const scopes = project.result.scopes;
  if (isContext) {
    if (!CONTEXT_NAME.test(newName)) refuse("a context name is lower-case words of letters and digits joined by single '-' (eshop-order).");
    if (newName === "wow" || newName.startsWith("wow.")) refuse("names starting with 'wow' are reserved.");
    if (scopes.has(newName) && newName !== at.target) refuse(`context '${newName}' already exists.`);
  } else {
    if (!NAME.test(newName)) refuse("a name starts with a letter or '_' and holds only letters, digits and '_'.");
    if (builtinTypes.has(newName)) refuse("it is a built-in type.");
    // What the checker refuses of a declaration's name (WOW3004, WOW3026), it refuses here.
    const reporter = new Reporter();
    checkDeclarationName(sourceName(newName, { path: "", text: newName }, 0), reporter);
    if (reporter.diagnostics.length > 0) refuse(reporter.diagnostics[0]!.message);
    const context = at.target.slice(0, at.target.lastIndexOf("."));
    const existing = scopes.get(context)?.symbols.get(newName);
    if (existing !== undefined && existing.qualifiedName !== at.target) refuse(`context '${context}' already declares ${existing.kind.toLowerCase()} '${newName}'.`);
  }
  const changes: Record<string, TextEdit[]> = {};
  for (const o of project.names.of(at.target)) (changes[project.uriOf(o.loc.file.path)] ??= []).push({ range: toRange(o.loc), newText: newName });
  for (const edits of Object.values(changes)) edits.sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
  return { changes };
}
