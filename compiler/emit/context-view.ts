// The view models of a context's shared files: `types.ts` (enums and value types) and the barrel
// `index.ts`; and of the output root's `index.ts`.
import type { ContextModel, ProgramModel } from "../model.js";
import { docComment, identifier, lineComment, propertyKey, stringLiteral } from "./escape.js";
import { fieldViews, type FieldView } from "./field-view.js";
import { aggregatesFile, camelAlias, contextFolder, Imports, sagasFile, typesFile } from "./imports.js";

export interface EnumView {
  readonly doc: string;
  readonly name: string;
  readonly members: readonly { readonly doc: string; readonly key: string; readonly value: string }[];
}

export interface TypeView {
  readonly doc: string;
  readonly name: string;
  readonly fields: readonly FieldView[];
}

export interface TypesView {
  readonly imports: readonly string[];
  readonly context: string;
  readonly contextComment: string;
  readonly hasDeclarations: boolean;
  readonly enums: readonly EnumView[];
  readonly types: readonly TypeView[];
}

export interface BarrelView {
  readonly docs: string;
  readonly modules: readonly string[];
}

export interface RootIndexView {
  readonly contexts: readonly { readonly alias: string; readonly folder: string }[];
}

export function typesView(context: ContextModel): TypesView {
  const imports = new Imports(context.name, typesFile());
  const view = {
    context: stringLiteral(context.name),
    contextComment: lineComment(context.name),
    hasDeclarations: context.enums.length + context.types.length > 0,
    enums: context.enums.map((e) => ({
      doc: docComment(e.doc),
      name: identifier(e.name.text),
      members: e.members.map((m) => ({ doc: docComment(m.doc, "  "), key: propertyKey(m.name.text), value: stringLiteral(m.name.text) })),
    })),
    types: context.types.map((t) => ({ doc: docComment(t.decl.doc), name: identifier(t.name), fields: fieldViews(t.fields, imports, "  ") })),
  };
  return { ...view, imports: imports.lines() };
}

export function barrelView(context: ContextModel): BarrelView {
  return {
    docs: docComment(context.docs.join("\n\n")),
    modules: [typesFile(), ...(context.aggregates.length > 0 ? [aggregatesFile()] : []), ...(context.sagas.length > 0 ? [sagasFile()] : [])],
  };
}

export function rootIndexView(model: ProgramModel): RootIndexView {
  return { contexts: model.contexts.map((c) => ({ alias: camelAlias(c.name), folder: contextFolder(c.name) })) };
}
