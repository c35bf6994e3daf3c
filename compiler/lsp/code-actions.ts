// Quick fixes for the build's diagnostics: each "Did you mean 'X'?" of a hint replaces the name it
// is about; an unknown event or command can be declared in an aggregate (the handler's own, or each
// of the context it was looked for in); a command without a handler gets its `on`.
import { CodeActionKind, type CodeAction, type Diagnostic as LspDiagnostic, type TextEdit } from "vscode-languageserver";
import type { AggregateDeclaration, AggregateMember, Location, SourceFile, WowFile } from "../ast.js";
import type { DiagnosticData } from "./diagnostics.js";
import { toOffset, toPosition } from "./positions.js";
import type { Project } from "./project.js";

/** The sentence every suggestion of the compiler's hints starts with (compiler/checker/suggest.ts, `didYouMean`). */
const DID_YOU_MEAN = /Did you mean '([^']+)'\?/;

export function codeActions(project: Project, file: WowFile, diagnostics: readonly LspDiagnostic[]): CodeAction[] {
  const out: CodeAction[] = didYouMean(project.uriOf(file.file.path), file.file, diagnostics);
  for (const diagnostic of diagnostics) {
    if (diagnostic.source !== "wowc") continue;
    const start = toOffset(file.file, diagnostic.range.start);
    const written = file.file.text.slice(start, toOffset(file.file, diagnostic.range.end));
    if (diagnostic.code === "WOW2002" || diagnostic.code === "WOW2003") out.push(...declareMessage(project, file, diagnostic, start, written, diagnostic.code === "WOW2002" ? "command" : "event"));
    if (diagnostic.code === "WOW3007") {
      const action = addHandler(project, file, diagnostic, start, written);
      if (action !== undefined) out.push(action);
    }
  }
  return out;
}

/** Each "Did you mean 'X'?" of a hint, as the edit that writes X where the diagnostic points (any file: `.wow`, wow.config.json). */
export function didYouMean(uri: string, file: SourceFile, diagnostics: readonly LspDiagnostic[]): CodeAction[] {
  const out: CodeAction[] = [];
  for (const diagnostic of diagnostics) {
    if (diagnostic.source !== "wowc") continue;
    const written = file.text.slice(toOffset(file, diagnostic.range.start), toOffset(file, diagnostic.range.end));
    const hint = (diagnostic.data as DiagnosticData | undefined)?.hint ?? (typeof diagnostic.message === "string" ? diagnostic.message.split("\nhint: ")[1] : undefined) ?? "";
    const suggestion = DID_YOU_MEAN.exec(hint)?.[1];
    if (suggestion === undefined) continue;
    // The suggestion as the name is written there: `@X` names an annotation whose name is the range; a zone or a key is a string.
    const replacement = written.startsWith('"') ? JSON.stringify(suggestion) : !written.startsWith("@") && suggestion.startsWith("@") ? suggestion.slice(1) : suggestion;
    out.push(fix(`Change to '${replacement}'`, diagnostic, { [uri]: [{ range: diagnostic.range, newText: replacement }] }, true));
  }
  return out;
}

function fix(title: string, diagnostic: LspDiagnostic, changes: Record<string, TextEdit[]>, preferred = false): CodeAction {
  return { title, kind: CodeActionKind.QuickFix, diagnostics: [diagnostic], edit: { changes }, ...(preferred ? { isPreferred: true } : {}) };
}

function aggregateAt(file: WowFile, offset: number): AggregateDeclaration | undefined {
  return file.declarations.find((d): d is AggregateDeclaration => d.kind === "Aggregate" && d.loc.start <= offset && offset <= d.loc.end);
}

/** `command X {}` or `event X {}` in the aggregate the reference stands in, or in each aggregate of the context it names. */
function declareMessage(project: Project, file: WowFile, diagnostic: LspDiagnostic, offset: number, written: string, kind: "command" | "event"): CodeAction[] {
  const dot = written.lastIndexOf(".");
  const name = written.slice(dot + 1);
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return [];
  const own = aggregateAt(file, offset);
  const context = dot < 0 ? file.context?.name.text : written.slice(0, dot);
  const targets = own !== undefined && dot < 0 ? [own] : (project.result.scopes.get(context ?? "")?.files.flatMap((f) => f.declarations.filter((d): d is AggregateDeclaration => d.kind === "Aggregate")) ?? []);
  return targets.slice(0, 5).map((aggregate) => {
    const members = aggregate.members.filter((m) => m.kind === (kind === "command" ? "Command" : "Event"));
    const after = members[members.length - 1] ?? aggregate.members.filter((m) => m.kind !== "Handler").at(-1);
    const edit = insertMember(aggregate, after, [`${kind} ${name} {}`], false);
    return fix(`Declare ${kind} '${name}' in aggregate '${aggregate.name.text}'`, diagnostic, { [project.uriOf(aggregate.loc.file.path)]: [edit] });
  });
}

/** `@OnCommand(produces = [])` and `on X` after the aggregate's last handler. */
function addHandler(project: Project, file: WowFile, diagnostic: LspDiagnostic, offset: number, name: string): CodeAction | undefined {
  const aggregate = aggregateAt(file, offset);
  if (aggregate === undefined) return undefined;
  const after = aggregate.members.at(-1);
  const edit = insertMember(aggregate, after, ["@OnCommand(produces = [])", `on ${name}`], true);
  return fix(`Add the handler 'on ${name}' to aggregate '${aggregate.name.text}'`, diagnostic, { [project.uriOf(aggregate.loc.file.path)]: [edit] });
}

/** Lines inserted after member `after` (at its indentation), or at the top of the aggregate's block. */
function insertMember(aggregate: AggregateDeclaration, after: AggregateMember | undefined, lines: readonly string[], blankLine: boolean): TextEdit {
  const file = aggregate.loc.file;
  if (after === undefined) {
    // An empty block: before its closing brace.
    const close = aggregate.loc.end - 1;
    const indent = `${indentOf(aggregate.loc)}  `;
    const position = toPosition(file, close);
    return { range: { start: position, end: position }, newText: `\n${lines.map((l) => `${indent}${l}`).join("\n")}\n${indentOf(aggregate.loc)}` };
  }
  const indent = indentOf(after.loc);
  const position = toPosition(file, after.loc.end);
  return { range: { start: position, end: position }, newText: `\n${blankLine ? "\n" : ""}${lines.map((l) => `${indent}${l}`).join("\n")}` };
}

/** The whitespace before `loc` on its line. */
function indentOf(loc: Location): string {
  const text = loc.file.text;
  let start = loc.start;
  while (start > 0 && text[start - 1] !== "\n" && text[start - 1] !== "\r") start--;
  const lead = text.slice(start, loc.start);
  return /^\s*$/.test(lead) ? lead : (/^\s*/.exec(lead)?.[0] ?? "");
}
