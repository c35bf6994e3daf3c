// The outline of a file (document symbols) and the declarations of every build (workspace symbols).
import { SymbolKind, type DocumentSymbol, type SymbolInformation } from "vscode-languageserver";
import type { Declaration, Field, Location, WowFile } from "../ast.js";
import type { SymbolKind as WowKind } from "../binder/symbols.js";
import { toRange } from "./positions.js";
import type { Project } from "./project.js";

const kinds: Readonly<Record<WowKind, SymbolKind>> = {
  Type: SymbolKind.Struct,
  Enum: SymbolKind.Enum,
  Service: SymbolKind.Interface,
  Aggregate: SymbolKind.Class,
  Saga: SymbolKind.Class,
  Command: SymbolKind.Method,
  Event: SymbolKind.Event,
};

function symbol(name: string, detail: string, kind: SymbolKind, loc: Location, selection: Location, children?: DocumentSymbol[]): DocumentSymbol {
  return { name: name === "" ? "(unnamed)" : name, detail, kind, range: toRange(loc), selectionRange: toRange(selection), ...(children === undefined ? {} : { children }) };
}

function fields(list: readonly Field[]): DocumentSymbol[] {
  return list.map((f) => symbol(f.name.text, f.type.loc.file.text.slice(f.type.loc.start, f.type.loc.end), SymbolKind.Field, f.loc, f.name.loc));
}

function declaration(decl: Declaration): DocumentSymbol {
  const detail = decl.kind.toLowerCase();
  switch (decl.kind) {
    case "Type":
      return symbol(decl.name.text, detail, kinds.Type, decl.loc, decl.name.loc, fields(decl.fields));
    case "Enum":
      return symbol(decl.name.text, detail, kinds.Enum, decl.loc, decl.name.loc, decl.members.map((m) => symbol(m.name.text, "", SymbolKind.EnumMember, m.loc, m.name.loc)));
    case "Service":
      return symbol(decl.name.text, detail, kinds.Service, decl.loc, decl.name.loc);
    case "Aggregate":
      return symbol(decl.name.text, detail, kinds.Aggregate, decl.loc, decl.name.loc, decl.members.map((m) => {
        if (m.kind === "State") return symbol("state", "", SymbolKind.Property, m.loc, m.loc, fields(m.fields));
        if (m.kind === "Handler") return symbol(`on ${m.target.text}`, "handler", SymbolKind.Function, m.loc, m.target.loc);
        return symbol(m.name.text, m.kind.toLowerCase(), kinds[m.kind], m.loc, m.name.loc, fields(m.fields));
      }));
    case "Saga":
      return symbol(decl.name.text, detail, kinds.Saga, decl.loc, decl.name.loc, decl.members.map((m) =>
        m.kind === "Handler" ? symbol(`on ${m.target.text}`, "handler", SymbolKind.Function, m.loc, m.target.loc) : symbol(m.name.text, "job", SymbolKind.Function, m.loc, m.name.loc),
      ));
  }
}

/** The file's context and its declarations with their members, in source order. */
export function documentSymbols(file: WowFile): DocumentSymbol[] {
  const out: DocumentSymbol[] = [];
  if (file.context !== undefined) out.push(symbol(file.context.name.text, "context", SymbolKind.Namespace, file.context.loc, file.context.name.loc));
  for (const decl of file.declarations) out.push(declaration(decl));
  return out;
}

/** Whether `query`'s characters appear in `name` in order, ignoring case (an empty query matches all). */
function matches(name: string, query: string): boolean {
  let i = 0;
  const lower = name.toLowerCase();
  for (const c of query.toLowerCase()) {
    i = lower.indexOf(c, i);
    if (i < 0) return false;
    i++;
  }
  return true;
}

/** Every declared name of every build that matches the query, by context and name. */
export function workspaceSymbols(projects: readonly Project[], query: string): SymbolInformation[] {
  const out: SymbolInformation[] = [];
  for (const project of projects) {
    const scopes = project.last?.scopes;
    if (scopes === undefined) continue;
    for (const scope of scopes.values()) {
      for (const s of scope.symbols.values()) {
        if (!matches(s.name, query)) continue;
        const container = s.kind === "Command" || s.kind === "Event" ? `${s.context}.${s.aggregate.name}` : s.context;
        out.push({ name: s.name, kind: kinds[s.kind], containerName: container, location: { uri: project.uriOf(s.decl.name.loc.file.path), range: toRange(s.decl.name.loc) } });
      }
    }
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : (a.containerName ?? "") < (b.containerName ?? "") ? -1 : 1));
}
