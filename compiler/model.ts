// The checked program: every declaration with its references resolved and its annotations read
// (defaults applied). The manifest, and later the SDK generator, are views of this model.
import type {
  AggregateDeclaration,
  EnumDeclaration,
  Field,
  HandlerDeclaration,
  JobDeclaration,
  Location,
  MessageDeclaration,
  Parameter,
  SagaDeclaration,
  ServiceDeclaration,
  TypeDeclaration,
} from "./ast.js";
import type { CommandSymbol, EventSymbol, ServiceSymbol } from "./binder/symbols.js";

/** A field's type: a built-in, a declared type or enum (by qualified name), or unresolved. */
export interface FieldType {
  readonly kind: "builtin" | "type" | "enum" | "unresolved";
  /** `int`, or `eshop-order.OrderItem`. */
  readonly name: string;
  readonly array: boolean;
  readonly optional: boolean;
}

export interface FieldModel {
  readonly decl: Field;
  readonly name: string;
  readonly type: FieldType;
}

export interface ServiceParameter {
  readonly decl: Parameter;
  readonly name: string;
  readonly service: ServiceSymbol;
}

export interface ScheduledCommand {
  readonly command: CommandSymbol;
  /** True when the command belongs to another aggregate than the one deciding (always for sagas). */
  readonly targetRequired: boolean;
}

export interface CommandHandlerModel {
  readonly decl: HandlerDeclaration;
  readonly function: string;
  readonly services: readonly ServiceParameter[];
  readonly produces: readonly EventSymbol[];
  readonly schedules: readonly ScheduledCommand[];
  readonly blocking: boolean;
  /** `@Retry`: how a timer retries delivering this command. */
  readonly retry?: RetryModel;
}

/** `@Retry(maxAttempts, backoff, maxBackoff)` as written (durations as their text); absent values take the host's. */
export interface RetryModel {
  readonly maxAttempts?: number;
  readonly backoff?: string;
  readonly maxBackoff?: string;
}

export interface CommandModel {
  readonly decl: MessageDeclaration;
  readonly name: string;
  readonly fields: readonly FieldModel[];
  readonly create: boolean;
  readonly delete: boolean;
  readonly handler?: CommandHandlerModel;
}

export interface EventModel {
  readonly decl: MessageDeclaration;
  readonly name: string;
  readonly fields: readonly FieldModel[];
}

export interface AggregateModel {
  readonly decl: AggregateDeclaration;
  readonly name: string;
  readonly state: readonly FieldModel[];
  readonly stateLoc?: Location;
  readonly commands: readonly CommandModel[];
  readonly events: readonly EventModel[];
}

export interface SagaEventHandlerModel {
  readonly decl: HandlerDeclaration;
  readonly event: EventSymbol;
  readonly function: string;
  readonly services: readonly ServiceParameter[];
  readonly commands: readonly CommandSymbol[];
  readonly schedules: readonly ScheduledCommand[];
  readonly blocking: boolean;
}

export interface SagaRejectionHandlerModel {
  readonly decl: HandlerDeclaration;
  readonly command: CommandSymbol;
  readonly function: string;
  readonly services: readonly ServiceParameter[];
  readonly blocking: boolean;
}

export type JobScope = "SYSTEM" | "TENANT";
export type JobMisfire = "COALESCE" | "CATCH_UP";
export type JobOverlap = "BUFFER_ALL" | "BUFFER_ONE" | "SKIP";

export interface JobModel {
  readonly decl: JobDeclaration;
  readonly saga: string;
  readonly name: string;
  readonly function: string;
  readonly cron: string;
  readonly zone: string;
  readonly scope: JobScope;
  readonly sharded: boolean;
  readonly misfire: JobMisfire;
  readonly commands: readonly CommandSymbol[];
  readonly services: readonly ServiceParameter[];
  readonly blocking: boolean;
  /** What a slot that comes while a run is in progress does. */
  readonly overlap: JobOverlap;
  /** A run past it fails (as written, e.g. "5m"). */
  readonly timeout?: string;
  /** Each slot runs up to this much after its due time (as written). */
  readonly jitter?: string;
  readonly retry?: RetryModel;
}

export interface SagaModel {
  readonly decl: SagaDeclaration;
  readonly name: string;
  readonly eventHandlers: readonly SagaEventHandlerModel[];
  readonly rejectionHandlers: readonly SagaRejectionHandlerModel[];
  readonly jobs: readonly JobModel[];
}

export interface TypeModel {
  readonly decl: TypeDeclaration;
  readonly name: string;
  readonly fields: readonly FieldModel[];
}

export interface ContextModel {
  readonly name: string;
  /** The paths of the files that declare the context, sorted. */
  readonly files: readonly string[];
  /** Doc comments on the context clauses, in file order. */
  readonly docs: readonly string[];
  readonly types: readonly TypeModel[];
  readonly enums: readonly EnumDeclaration[];
  readonly services: readonly ServiceDeclaration[];
  readonly aggregates: readonly AggregateModel[];
  readonly sagas: readonly SagaModel[];
}

export interface ProgramModel {
  /** Sorted by name. */
  readonly contexts: readonly ContextModel[];
}

/**
 * The name of a saga's durable subscription (an event handler's or a job's): `<saga>.<function>`.
 * The runtime keeps its checkpoint under this name, which has no context (WOW3027 keeps it unique).
 */
export function subscriptionName(saga: string, fn: string): string {
  return `${saga}.${fn}`;
}
