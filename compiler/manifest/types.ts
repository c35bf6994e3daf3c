// The shape of `wow-manifest.json` (schemas/wow-manifest.schema.json is its JSON Schema; a test keeps
// the two in step). Named elements live in objects keyed by name, so the file diffs well and
// reads as a lookup; lists whose order means something (fields, enum values, parameters) keep
// source order, every other list is sorted. It holds the model only: where each element is declared
// is in `wow-manifest.sources.json` (positions.ts), so a comment or a reflow changes no byte here.

export const MANIFEST_SCHEMA_ID = "https://wowc.dev/schemas/wow-manifest.schema.json";
export const MANIFEST_FILE_NAME = "wow-manifest.json";
export const MANIFEST_VERSION = 1;

export interface ManifestTypeRef {
  /** `builtin`: one of string int long decimal boolean instant duration; else a declared type or enum. */
  readonly kind: "builtin" | "type" | "enum";
  /** `int`, or the qualified name of the declaration: `eshop-order.OrderItem`. */
  readonly name: string;
  readonly array: boolean;
  readonly optional: boolean;
}

export interface ManifestField {
  readonly name: string;
  readonly type: ManifestTypeRef;
  readonly doc?: string;
}

export interface ManifestServiceParameter {
  /** The parameter's name in the handler's signature. */
  readonly name: string;
  /** Qualified name of the service. */
  readonly service: string;
}

export interface ManifestSchedule {
  /** Qualified name of the scheduled command. */
  readonly command: string;
  /** True when the command belongs to another aggregate: the generated API asks for its target. */
  readonly targetRequired: boolean;
}

export interface ManifestCommandHandler {
  readonly function: string;
  /** The doc comment of the handler (`on COMMAND`); the command's own is the command's `doc`. */
  readonly doc?: string;
  readonly services: readonly ManifestServiceParameter[];
  readonly produces: readonly string[];
  readonly schedules: readonly ManifestSchedule[];
  readonly blocking: boolean;
  /** `@Retry`: how a timer retries delivering the command (absent: the host's `wow.timers`). */
  readonly retry?: ManifestRetry;
}

/** `@Retry(…)` as written; a value left out takes the host's default. */
export interface ManifestRetry {
  readonly maxAttempts?: number;
  readonly backoff?: string;
  readonly maxBackoff?: string;
}

export interface ManifestCommand {
  readonly name: string;
  readonly qualifiedName: string;
  readonly doc?: string;
  readonly fields: readonly ManifestField[];
  readonly create: boolean;
  readonly delete: boolean;
  readonly route: { readonly method: "POST" | "PUT" | "DELETE"; readonly path: string };
  readonly handler: ManifestCommandHandler;
}

export interface ManifestEvent {
  readonly name: string;
  readonly qualifiedName: string;
  readonly doc?: string;
  readonly fields: readonly ManifestField[];
  /** Qualified names of the commands whose handlers list this event in `produces`. */
  readonly producedBy: readonly string[];
}

export interface ManifestAggregate {
  readonly name: string;
  readonly qualifiedName: string;
  readonly doc?: string;
  readonly state: readonly ManifestField[];
  /** The doc comment of the `state` block. */
  readonly stateDoc?: string;
  readonly commands: Readonly<Record<string, ManifestCommand>>;
  readonly events: Readonly<Record<string, ManifestEvent>>;
}

export interface ManifestEventHandler {
  /** Qualified name of the event. */
  readonly event: string;
  readonly function: string;
  readonly doc?: string;
  /** `<saga>.<function>`: the durable subscription that delivers the event. */
  readonly subscription: string;
  readonly services: readonly ManifestServiceParameter[];
  readonly commands: readonly string[];
  readonly schedules: readonly ManifestSchedule[];
  readonly blocking: boolean;
}

export interface ManifestRejectionHandler {
  /** Qualified name of the command whose rejections this handler receives. */
  readonly command: string;
  readonly function: string;
  readonly doc?: string;
  readonly subscription: string;
  readonly services: readonly ManifestServiceParameter[];
  readonly blocking: boolean;
}

export interface ManifestSaga {
  readonly name: string;
  readonly qualifiedName: string;
  readonly doc?: string;
  /** By qualified event name. */
  readonly eventHandlers: Readonly<Record<string, ManifestEventHandler>>;
  /** By qualified command name. */
  readonly rejectionHandlers: Readonly<Record<string, ManifestRejectionHandler>>;
  /** Names of this saga's jobs (described under the context's `jobs`). */
  readonly jobs: readonly string[];
}

export interface ManifestJob {
  readonly name: string;
  readonly doc?: string;
  readonly saga: string;
  readonly function: string;
  /** `<saga>.<function>`: the subscription that delivers the job's ticks. */
  readonly subscription: string;
  readonly cron: string;
  readonly zone: string;
  readonly scope: "SYSTEM" | "TENANT";
  readonly sharded: boolean;
  readonly misfire: "COALESCE" | "CATCH_UP";
  readonly commands: readonly string[];
  readonly services: readonly ManifestServiceParameter[];
  readonly blocking: boolean;
  /** A slot that comes while a run is in progress: queued (BUFFER_ALL), at most one queued (BUFFER_ONE), or skipped (SKIP). */
  readonly overlap?: "BUFFER_ALL" | "BUFFER_ONE" | "SKIP";
  /** A run past it fails (a duration as written). */
  readonly timeout?: string;
  /** Each slot runs up to this much after its due time (a duration as written). */
  readonly jitter?: string;
  readonly retry?: ManifestRetry;
}

export interface ManifestType {
  readonly name: string;
  readonly qualifiedName: string;
  readonly doc?: string;
  readonly fields: readonly ManifestField[];
}

export interface ManifestEnum {
  readonly name: string;
  readonly qualifiedName: string;
  readonly doc?: string;
  readonly values: ReadonlyArray<{ readonly name: string; readonly doc?: string }>;
}

export interface ManifestService {
  readonly name: string;
  readonly qualifiedName: string;
  readonly doc?: string;
}

export interface ManifestContext {
  readonly name: string;
  readonly doc?: string;
  readonly types: Readonly<Record<string, ManifestType>>;
  readonly enums: Readonly<Record<string, ManifestEnum>>;
  readonly services: Readonly<Record<string, ManifestService>>;
  readonly aggregates: Readonly<Record<string, ManifestAggregate>>;
  readonly sagas: Readonly<Record<string, ManifestSaga>>;
  /** By job name (unique in the context: the id of its schedule instance). */
  readonly jobs: Readonly<Record<string, ManifestJob>>;
}

export interface Manifest {
  readonly $schema: typeof MANIFEST_SCHEMA_ID;
  readonly manifestVersion: typeof MANIFEST_VERSION;
  readonly contexts: Readonly<Record<string, ManifestContext>>;
}
