// `<out>/openapi.json`: the HTTP API of the model as an OpenAPI 3.1 document. Every command route
// (its method and path, the `Command-*` headers, the body, the result and the errors by status), the
// admin and probe routes, bearer security, and the doc comments as descriptions. A command's body
// schema is the one the generated registration carries and the runtime validates with
// (manifest/body-schema.ts): its `$defs` are hoisted to `components/schemas` (refs rewritten), so
// the two cannot drift. Deterministic: the same model gives the same bytes.
import { bodySchema, declarationsOf, type Declarations, type JsonSchema } from "../manifest/body-schema.js";
import { canonicalJsonNested, jsonStringContent } from "../manifest/json.js";
import { commandRoute } from "../manifest/routes.js";
import type { ProgramModel } from "../model.js";
import type { EmittedFile } from "./emit.js";

export const OPENAPI_FILE = "openapi.json";

type Json = { [key: string]: unknown };

const json = (schema: string, description: string): Json => ({ content: { "application/json": { schema: { $ref: `#/components/schemas/${schema}` } } }, description });

/** The statuses a command answers besides 200, with the error codes each carries. */
const COMMAND_ERRORS: ReadonlyArray<readonly [status: string, description: string]> = [
  ["400", "The body does not fit the command (`CommandValidation`, naming the field), a header is invalid (`IllegalArgument`), or the handler rejected the command (`IllegalState`, or its own code)."],
  ["401", "No bearer credential, or an unknown one (`Unauthorized`)."],
  ["403", "The credential may not act for this tenant (`Forbidden`)."],
  ["404", "No such aggregate for a command that needs one (`NotFound`)."],
  ["409", "`Command-Aggregate-Version` is not the aggregate's version, or a concurrent command won (`EventVersionConflict`, `CommandExpectVersionConflict`)."],
  ["410", "The aggregate was deleted (`IllegalAccessDeletedAggregate`)."],
];

/** What a command's operation says: the route it is filed under, and the words of its summary and description. */
interface OperationFacts {
  readonly path: string;
  readonly method: string;
  readonly context: string;
  readonly aggregate: string;
  readonly command: string;
  /** `context.Command`: the operation id and the body schema's name. */
  readonly qualified: string;
  /** The command's and its handler's doc comments ("" for none). */
  readonly doc: string;
  readonly create: boolean;
  readonly delete: boolean;
}

/** What the document is made of besides its command operations. */
interface Parts {
  readonly schemas: Record<string, unknown>;
  readonly tags: Json[];
  readonly operations: OperationFacts[];
}

/**
 * The document as text. The operations (thousands in a large model, all of a few shapes) are
 * printed by filling a template made once per shape from a sample operation, rather than built as
 * objects and printed: a test holds the text equal to the canonical JSON of `openApiDocument`.
 */
export function emitOpenApi(model: ProgramModel, declarations: Declarations = declarationsOf(model)): EmittedFile {
  const parts = partsOf(model, declarations);
  const templates = new OperationTemplates();
  const entries = new Map<string, string>();
  for (const [path, methods] of byPath(parts.operations)) {
    const lines = [...methods.keys()].sort().map((method) => `      ${JSON.stringify(method)}: ${templates.text(methods.get(method)!)}`);
    entries.set(path, `    ${JSON.stringify(path)}: {\n${lines.join(",\n")}\n    }`);
  }
  // As in openApiDocument, an admin route takes its path from a command's.
  for (const [path, item] of Object.entries(ADMIN_PATHS)) entries.set(path, `    ${JSON.stringify(path)}: ${canonicalJsonNested(item, 2)}`);
  const paths = [...entries.keys()].sort().map((path) => entries.get(path)!);
  const [before, after] = JSON.stringify(documentAround(model, parts, PATHS_SLOT), null, 2).split(JSON.stringify(PATHS_SLOT)) as [string, string];
  return { path: OPENAPI_FILE, text: `${before}{\n${paths.join(",\n")}\n  }${after}\n` };
}

/** The document as an object (`declarations`: the program's, shared with the registrations' body schemas when built beside them). */
export function openApiDocument(model: ProgramModel, declarations: Declarations = declarationsOf(model)): Json {
  const parts = partsOf(model, declarations);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [path, methods] of byPath(parts.operations)) paths[path] = Object.fromEntries([...methods].map(([method, facts]) => [method, operation(facts)]));
  return documentAround(model, parts, sortedKeys({ ...paths, ...ADMIN_PATHS }));
}

function partsOf(model: ProgramModel, declarations: Declarations): Parts {
  const schemas: Record<string, unknown> = { ...SHARED_SCHEMAS };
  const tags: Json[] = [];
  const operations: OperationFacts[] = [];
  const hoistedDefs = new Set<string>();
  for (const context of model.contexts) {
    tags.push({ description: context.docs.length > 0 ? context.docs.join("\n\n") : `The commands of context ${context.name}.`, name: context.name });
    for (const aggregate of context.aggregates) {
      for (const command of aggregate.commands) {
        if (command.handler === undefined) continue;
        const qualified = `${context.name}.${command.name}`;
        const { schema } = bodySchema(command.fields, command.decl.doc, declarations);
        const $defs = (schema as { $defs?: Record<string, unknown> }).$defs;
        // A declaration's entry is the same object in every body that names it: hoisted once.
        if ($defs !== undefined) {
          for (const name of Object.keys($defs)) {
            if (hoistedDefs.has(name)) continue;
            hoistedDefs.add(name);
            schemas[name] = hoisted($defs[name]);
          }
        }
        schemas[qualified] = hoisted(schema, BODY_ONLY);
        const route = commandRoute(context.name, aggregate.name, command.name, command);
        const doc = [command.decl.doc, command.handler.decl.doc].filter((d) => d !== undefined && d.trim() !== "").join("\n\n");
        operations.push({ path: route.path, method: route.method.toLowerCase(), context: context.name, aggregate: aggregate.name, command: command.name, qualified, doc, create: command.create, delete: command.delete });
      }
    }
  }
  return { schemas, tags, operations };
}

/** The operations by path, then method (a later one on the same path and method replaces an earlier one). */
function byPath(operations: readonly OperationFacts[]): Map<string, Map<string, OperationFacts>> {
  const out = new Map<string, Map<string, OperationFacts>>();
  for (const facts of operations) {
    let methods = out.get(facts.path);
    if (methods === undefined) out.set(facts.path, (methods = new Map()));
    methods.set(facts.method, facts);
  }
  return out;
}

/** The document around its paths, with its keys in sorted order (so JSON.stringify prints its canonical JSON). */
function documentAround(model: ProgramModel, parts: Parts, paths: unknown): Json {
  return {
    components: {
      parameters: PARAMETERS,
      responses: RESPONSES,
      schemas: sortedKeys(parts.schemas),
      securitySchemes: { bearer: { description: "A credential of the host's `wow.http.credentials`: `Authorization: Bearer <token>`.", scheme: "bearer", type: "http" } },
    },
    info: { description: "The commands of the model's aggregates and the host's admin routes, as the wowc runtime serves them.", title: model.contexts.map((c) => c.name).join(", ") || "wow", version: "1" },
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    openapi: "3.1.0",
    paths,
    security: [{ bearer: [] }],
    // Relative: the document describes whichever host serves it.
    servers: [{ description: "The host serving this API", url: "/" }],
    tags: [...parts.tags, { description: "The host's probes and admin routes.", name: "wow" }],
  };
}

function operation(facts: OperationFacts): Json {
  const parameters: Json[] = [{ $ref: "#/components/parameters/TenantId" }];
  if (facts.path.includes("{id}")) parameters.push({ description: `The id of the ${facts.aggregate}.`, in: "path", name: "id", required: true, schema: { type: "string" } });
  for (const name of ["RequestId", ...(facts.create ? ["AggregateId"] : []), "AggregateVersion", "WaitStage", "WaitTimeout"]) parameters.push({ $ref: `#/components/parameters/${name}` });
  return {
    ...(facts.doc === "" ? {} : { description: facts.doc }),
    operationId: facts.qualified,
    parameters,
    requestBody: { content: { "application/json": { schema: { $ref: `#/components/schemas/${facts.qualified}` } } }, required: true },
    responses: Object.fromEntries([["200", "CommandResult"], ...COMMAND_ERRORS.map(([status]) => [status, `Error${status}`])].map(([status, name]) => [status, { $ref: `#/components/responses/${name}` }])),
    summary: `${facts.create ? "Create" : facts.delete ? "Delete" : "Change"} a ${facts.aggregate}: ${facts.command}`,
    tags: [facts.context],
  };
}

/** Stands for a value in a sample: private-use characters, which JSON.stringify prints as they are. */
const slot = (name: string): string => `\u{E000}${name}\u{E001}`;
const SLOT = /\u{E000}(\w+)\u{E001}/gu;
const PATHS_SLOT = slot("paths");

/**
 * An operation's text as it stands in the document (a method's value, three levels deep), made
 * once per shape (an `{id}` in the path, create, delete, a description) by printing a sample whose
 * words are slots, then filled per operation with each word printed as in a JSON string.
 */
class OperationTemplates {
  private readonly shapes = new Map<string, readonly string[]>();

  text(facts: OperationFacts): string {
    const shape = `${facts.path.includes("{id}")}${facts.create}${facts.delete}${facts.doc === ""}`;
    let pieces = this.shapes.get(shape);
    if (pieces === undefined) {
      const sample: OperationFacts = { ...facts, path: facts.path.includes("{id}") ? "{id}" : "", context: slot("context"), aggregate: slot("aggregate"), command: slot("command"), qualified: slot("qualified"), doc: facts.doc === "" ? "" : slot("doc") };
      // Odd pieces name a word of the facts; even ones are the text between.
      pieces = canonicalJsonNested(operation(sample), 3).split(SLOT);
      this.shapes.set(shape, pieces);
    }
    let out = pieces[0]!;
    for (let i = 1; i < pieces.length; i += 2) out += jsonStringContent(facts[pieces[i] as "context"]) + pieces[i + 1]!;
    return out;
  }
}

function sortedKeys<T>(record: Record<string, T>): Record<string, T> {
  const out: Record<string, T> = Object.create(null) as Record<string, T>;
  for (const key of Object.keys(record).sort()) out[key] = record[key]!;
  return out;
}

/** The keys of a body schema that stay out of its `components/schemas` entry. */
const BODY_ONLY: ReadonlySet<string> = new Set(["$defs", "$schema"]);

/** A body schema's part with its `#/$defs/…` refs pointing at `components/schemas`, without the keys `leaveOut`. */
function hoisted(schema: unknown, leaveOut?: ReadonlySet<string>): unknown {
  if (Array.isArray(schema)) return schema.map((item) => hoisted(item));
  if (schema === null || typeof schema !== "object") return schema;
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  const record = schema as JsonSchema;
  for (const key of Object.keys(record)) {
    if (leaveOut?.has(key) === true) continue;
    const value = record[key];
    out[key] = key === "$ref" && typeof value === "string" && value.startsWith("#/$defs/") ? `#/components/schemas/${value.slice("#/$defs/".length)}` : hoisted(value);
  }
  return out;
}

const header = (name: string, description: string, schema: Json): Json => ({ description, in: "header", name, required: false, schema });

/** The parameters every command operation shares: the tenant in the path and the `Command-*` headers. */
const PARAMETERS: Json = {
  AggregateId: header("Command-Aggregate-Id", "The id of the aggregate a create command makes (default: derived from Command-Request-Id, else new).", { type: "string" }),
  AggregateVersion: header("Command-Aggregate-Version", "The version the aggregate must be at, else 409.", { minimum: 0, type: "integer" }),
  RequestId: header("Command-Request-Id", "Idempotency key: the same id again answers `DuplicateRequestId`.", { maxLength: 200, minLength: 1, type: "string" }),
  TenantId: { description: "The tenant the aggregate belongs to.", in: "path", name: "tenantId", required: true, schema: { type: "string" } },
  WaitStage: header("Command-Wait-Stage", "What the reply waits for (default PROCESSED).", { enum: ["SENT", "PROCESSED", "EVENT_HANDLED", "SAGA_HANDLED"], type: "string" }),
  WaitTimeout: header("Command-Wait-Timeout", "How long the reply waits for the stage, in milliseconds.", { pattern: "^[0-9]{1,9}$", type: "string" }),
};

/** A command's replies: its result, and its errors by status. */
const RESPONSES: Json = {
  CommandResult: json("CommandResult", "The command was decided: the events it produced, with the aggregate's version."),
  ...Object.fromEntries(COMMAND_ERRORS.map(([status, description]) => [`Error${status}`, json("Error", description)])),
};

const SHARED_SCHEMAS: Json = {
  CommandResult: {
    description: "Wow's command result.",
    properties: {
      aggregateId: { type: "string" },
      aggregateName: { type: "string" },
      aggregateVersion: { type: "integer" },
      commandId: { type: "string" },
      contextName: { type: "string" },
      errorCode: { type: "string" },
      errorMsg: { type: "string" },
      function: { type: "string" },
      id: { type: "string" },
      outcome: { type: "string" },
      requestId: { type: "string" },
      result: {
        properties: { events: { items: { properties: { body: { type: "object" }, type: { type: "string" }, version: { type: "integer" } }, type: "object" }, type: "array" } },
        type: "object",
      },
      stage: { type: "string" },
      succeeded: { type: "boolean" },
      tenantId: { type: "string" },
    },
    required: ["errorCode", "succeeded"],
    type: "object",
  },
  Error: {
    description: "An error: its code (also in the `Wow-Error-Code` header) and message.",
    properties: { errorCode: { type: "string" }, errorMsg: { type: "string" }, succeeded: { const: false } },
    required: ["errorCode", "errorMsg"],
    type: "object",
  },
  Listing: { description: "An admin listing (times as ISO 8601 strings; `?times=epoch` for epoch milliseconds).", type: "object" },
};

const admin = (summary: string, parameters: Json[] = []): Json => ({
  ...(parameters.length > 0 ? { parameters } : {}),
  responses: { "200": json("Listing", summary), "401": { $ref: "#/components/responses/Error401" }, "403": { $ref: "#/components/responses/Error403" } },
  summary,
  tags: ["wow"],
});
const pathParameter = (name: string, description: string): Json => ({ description, in: "path", name, required: true, schema: { type: "string" } });
const times: Json = { description: "`epoch` for epoch milliseconds instead of ISO 8601 strings.", in: "query", name: "times", required: false, schema: { enum: ["iso", "epoch"], type: "string" } };
const probe = (summary: string): Json => ({ responses: { "200": json("Listing", summary), "503": json("Error", "Not ready.") }, security: [], summary, tags: ["wow"] });

/** An admin operation with its id, keys in sorted order. */
const withId = (operation: Json, operationId: string): Json => sortedKeys({ ...operation, operationId });

const ADMIN_PATHS: Record<string, Record<string, unknown>> = {
  "/wow/health": { get: withId(probe("Liveness: the process answers."), "wow.health") },
  "/wow/ready": { get: withId(probe("Readiness: the store answers and the host has started."), "wow.ready") },
  "/wow/jobs": { get: withId(admin("The jobs, their schedules and next fire times.", [times]), "wow.jobs") },
  "/wow/jobs/{job}/runs": { get: withId(admin("A job's recent runs.", [pathParameter("job", "The job instance (`name` or `name#partition`)."), times]), "wow.jobRuns") },
  "/wow/timers": { get: withId(admin("The pending timers.", [times]), "wow.timers") },
  "/wow/timers/{id}/attempts": { get: withId(admin("A timer's delivery attempts.", [pathParameter("id", "The timer id."), times]), "wow.timerAttempts") },
  "/wow/parked": { get: withId(admin("Parked timers and events.", [times]), "wow.parked") },
  "/wow/parked/timers/{id}/redrive": { post: withId(admin("Delivers a parked timer again.", [pathParameter("id", "The timer id.")]), "wow.redriveTimer") },
  "/wow/parked/events/{id}/redrive": { post: withId(admin("Delivers a parked event again.", [pathParameter("id", "The parked event id.")]), "wow.redriveEvent") },
  "/wow/metrics": { get: withId(admin("Runtime metrics."), "wow.metrics") },
  "/wow/metrics/lateness": { get: withId(admin("Lateness of fire times, by minute."), "wow.lateness") },
  "/wow/routes": { get: withId(admin("The command routes the host serves."), "wow.routes") },
  "/{context}/schedule/{instance}/{command}": {
    post: withId(
      admin("A job instance's schedule command: wow.schedule.enable, reschedule, disable, trigger or backfill.", [
        pathParameter("context", "The job's context."),
        pathParameter("instance", "The job instance (`name`, or `name#partition` for a sharded job)."),
        pathParameter("command", "wow.schedule.enable, wow.schedule.reschedule, wow.schedule.disable, wow.schedule.trigger or wow.schedule.backfill."),
      ]),
      "wow.scheduleCommand",
    ),
  },
};
