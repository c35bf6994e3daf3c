// What the binder knows: one scope per context (all the files of the build that share it), holding
// every name a reference can reach: types, enums, services, aggregates, sagas, commands, events.
import type {
  AggregateDeclaration,
  EnumDeclaration,
  MessageDeclaration,
  SagaDeclaration,
  ServiceDeclaration,
  TypeDeclaration,
  WowFile,
} from "../ast.js";

interface SymbolBase {
  readonly name: string;
  readonly context: string;
  /** `context.Name`: unique in the build. */
  readonly qualifiedName: string;
}

export interface TypeSymbol extends SymbolBase {
  readonly kind: "Type";
  readonly decl: TypeDeclaration;
}
export interface EnumSymbol extends SymbolBase {
  readonly kind: "Enum";
  readonly decl: EnumDeclaration;
}
export interface ServiceSymbol extends SymbolBase {
  readonly kind: "Service";
  readonly decl: ServiceDeclaration;
}
export interface AggregateSymbol extends SymbolBase {
  readonly kind: "Aggregate";
  readonly decl: AggregateDeclaration;
}
export interface SagaSymbol extends SymbolBase {
  readonly kind: "Saga";
  readonly decl: SagaDeclaration;
}
export interface CommandSymbol extends SymbolBase {
  readonly kind: "Command";
  readonly decl: MessageDeclaration;
  readonly aggregate: AggregateSymbol;
}
export interface EventSymbol extends SymbolBase {
  readonly kind: "Event";
  readonly decl: MessageDeclaration;
  readonly aggregate: AggregateSymbol;
}

export type WowSymbol =
  | TypeSymbol
  | EnumSymbol
  | ServiceSymbol
  | AggregateSymbol
  | SagaSymbol
  | CommandSymbol
  | EventSymbol;

export type SymbolKind = WowSymbol["kind"];

export interface ContextScope {
  readonly name: string;
  /** The files that declare this context, sorted by path. */
  readonly files: WowFile[];
  /** Every symbol by its simple name (the first declaration wins; duplicates are reported). */
  readonly symbols: Map<string, WowSymbol>;
}

export interface BoundProgram {
  /** By context name. */
  readonly contexts: Map<string, ContextScope>;
}

/** "an event", "a type"… for messages. */
export function describeKind(kind: SymbolKind): string {
  switch (kind) {
    case "Aggregate":
      return "an aggregate";
    case "Enum":
      return "an enum";
    case "Event":
      return "an event";
    default:
      return `a ${kind.toLowerCase()}`;
  }
}

export const builtinTypes: ReadonlySet<string> = new Set([
  "string",
  "int",
  "long",
  "decimal",
  "boolean",
  "instant",
  "duration",
]);
