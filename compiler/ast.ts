// The typed AST of `.wow` sources: what the CST visitor (grammar/) builds and the binder and checker
// (compiler/) read. Every node carries its location; spans are resolved to lines and columns only
// at the edge, when a diagnostic is printed.

/** One source file of a build. `path` is relative to the build root, with `/` separators. */
export interface SourceFile {
  readonly path: string;
  readonly text: string;
}

/**
 * A half-open range `[start, end)` of UTF-16 offsets into `file.text`. A node's `loc` may be the node
 * itself (a `Name` is its own location: compiler/parse/source-name.ts); read `file`, `start` and `end`.
 */
export interface Location {
  readonly file: SourceFile;
  readonly start: number;
  readonly end: number;
}

export interface Name {
  readonly text: string;
  readonly loc: Location;
}

/** `Name` or `context-name.Name`. `text` is the whole reference as written. */
export interface QualifiedName {
  readonly context?: Name;
  readonly name: Name;
  readonly text: string;
  readonly loc: Location;
}

/** `T`, `T[]`, `T?` (and `T[]?`). Built-in types are plain names here; the binder tells them apart. */
export interface TypeRef {
  readonly kind: "TypeRef";
  readonly name: QualifiedName;
  readonly array: boolean;
  readonly optional: boolean;
  readonly loc: Location;
}

export interface Field {
  readonly kind: "Field";
  readonly name: Name;
  readonly type: TypeRef;
  readonly doc?: string | undefined;
  readonly loc: Location;
}

export type AnnotationValue =
  | { readonly kind: "String"; readonly value: string; readonly loc: Location }
  | { readonly kind: "Number"; readonly value: number; readonly text: string; readonly loc: Location }
  | { readonly kind: "Boolean"; readonly value: boolean; readonly loc: Location }
  /** A bare or qualified name: `COALESCE`, `OrderCreated`, `eshop-order.CancelOrder`. */
  | { readonly kind: "Reference"; readonly name: QualifiedName; readonly loc: Location }
  | { readonly kind: "List"; readonly items: readonly AnnotationValue[]; readonly loc: Location };

export interface AnnotationArgument {
  readonly name: Name;
  readonly value: AnnotationValue;
  readonly loc: Location;
}

/** `@Name` or `@Name(arg = value, …)`. `loc` covers the whole annotation, `name.loc` the name after `@`. */
export interface Annotation {
  readonly name: Name;
  readonly args: readonly AnnotationArgument[];
  /** True when written with parentheses, even empty ones. */
  readonly parenthesized: boolean;
  readonly loc: Location;
}

/** A handler or job parameter: `paymentPolicy: PaymentPolicy`. */
export interface Parameter {
  readonly name: Name;
  readonly type: QualifiedName;
  readonly loc: Location;
}

interface DeclarationBase {
  readonly name: Name;
  readonly doc?: string | undefined;
  readonly annotations: readonly Annotation[];
  readonly loc: Location;
}

export interface TypeDeclaration extends DeclarationBase {
  readonly kind: "Type";
  readonly fields: readonly Field[];
}

export interface EnumMember {
  readonly name: Name;
  readonly doc?: string | undefined;
  readonly loc: Location;
}

export interface EnumDeclaration extends DeclarationBase {
  readonly kind: "Enum";
  readonly members: readonly EnumMember[];
}

export interface ServiceDeclaration extends DeclarationBase {
  readonly kind: "Service";
}

/** `command NAME { fields }` or `event NAME { fields }`, inside an aggregate. */
export interface MessageDeclaration extends DeclarationBase {
  readonly kind: "Command" | "Event";
  readonly fields: readonly Field[];
}

export interface StateBlock {
  readonly kind: "State";
  readonly fields: readonly Field[];
  readonly doc?: string | undefined;
  readonly loc: Location;
}

/**
 * `on TARGET(param: Service, …)` with its annotations. In an aggregate TARGET is a command; in a
 * saga it is an event (`@OnEvent`, the default) or a command (`@OnRejected`).
 */
export interface HandlerDeclaration {
  readonly kind: "Handler";
  readonly target: QualifiedName;
  readonly params: readonly Parameter[];
  readonly annotations: readonly Annotation[];
  readonly doc?: string | undefined;
  readonly loc: Location;
}

/** `job FUNCTION(param: Service, …)` with its `@OnSchedule(…)` annotation. */
export interface JobDeclaration extends DeclarationBase {
  readonly kind: "Job";
  readonly params: readonly Parameter[];
}

export type AggregateMember = StateBlock | MessageDeclaration | HandlerDeclaration;

export interface AggregateDeclaration extends DeclarationBase {
  readonly kind: "Aggregate";
  /** In source order. */
  readonly members: readonly AggregateMember[];
}

export type SagaMember = HandlerDeclaration | JobDeclaration;

export interface SagaDeclaration extends DeclarationBase {
  readonly kind: "Saga";
  /** In source order. */
  readonly members: readonly SagaMember[];
}

export type Declaration =
  | TypeDeclaration
  | EnumDeclaration
  | ServiceDeclaration
  | AggregateDeclaration
  | SagaDeclaration;

export interface ContextClause {
  readonly name: Name;
  readonly doc?: string | undefined;
  readonly loc: Location;
}

export interface Comment {
  readonly kind: "Line" | "Block" | "Doc";
  readonly text: string;
  readonly loc: Location;
}

/** One parsed `.wow` file. With syntax errors, the nodes that could be recovered. */
export interface WowFile {
  readonly kind: "File";
  readonly file: SourceFile;
  readonly context?: ContextClause;
  /** In source order. */
  readonly declarations: readonly Declaration[];
  /** Every comment of the file in source order, doc comments included (for tools such as `fmt`). */
  readonly comments: readonly Comment[];
}
