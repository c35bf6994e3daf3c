// `<out>/openapi.json`: the HTTP API of the model as an OpenAPI 3.1 document. Every command route
// (its method and path, the `Command-*` headers, the body, the result and the errors by status), the
// admin and probe routes, bearer security, and the doc comments as descriptions. A command's body
// schema is the one the generated registration carries and the runtime validates with
// (manifest/body-schema.ts): its `$defs` are hoisted to `components/schemas` (refs rewritten), so
// the two cannot drift. Deterministic: the same model gives the same bytes.
import { bodySchema, declarationsOf, type Declarations, type JsonSchema } from "../manifest/body-schema.js";
import { commandRoute } from "../manifest/routes.js";
import type { CommandModel, ProgramModel } from "../model.js";
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

/**
 * The document is built with its keys in sorted order (the two dictionaries sorted last), so plain
 * JSON.stringify prints its canonical JSON; canonicalJson would spend a walk of the whole document
 * finding nothing to reorder (a test holds the two equal).
 */
export function emitOpenApi(model: ProgramModel, declarations: Declarations = declarationsOf(model)): EmittedFile {
  return { path: OPENAPI_FILE, text: `${JSON.stringify(openApiDocument(model, declarations), null, 2)}\n` };
}

/** `declarations`: the program's, shared with the registrations' body schemas when built beside them. */
export function openApiDocument(model: ProgramModel, declarations: Declarations = declarationsOf(model)): Json {
  const schemas: Record<string, unknown> = { ...SHARED_SCHEMAS };
  const paths: Record<string, Record<string, unknown>> = {};
  const tags: Json[] = [];
  for (const context of model.contexts) {
    tags.push({ description: context.docs.length > 0 ? context.docs.join("\n\n") : `The commands of context ${context.name}.`, name: context.name });
    for (const aggregate of context.aggregates) {
      for (const command of aggregate.commands) {
        if (command.handler === undefined) continue;
        const qualified = `${context.name}.${command.name}`;
        const { schema } = bodySchema(command.fields, command.decl.doc, declarations);
        const { $defs, $schema: _dialect, ...body } = schema as { $defs?: Record<string, unknown>; $schema?: string };
        for (const [name, def] of Object.entries($defs ?? {})) schemas[name] = hoisted(def);
        schemas[qualified] = hoisted(body);
        const route = commandRoute(context.name, aggregate.name, command.name, command);
        (paths[route.path] ??= {})[route.method.toLowerCase()] = operation(route.path, aggregate.name, command, context.name, qualified);
      }
    }
  }
  Object.assign(paths, ADMIN_PATHS);
  return {
    components: {
      parameters: HEADER_PARAMETERS,
      responses: Object.fromEntries(COMMAND_ERRORS.map(([status, description]) => [`Error${status}`, json("Error", description)])),
      schemas: sortedKeys(schemas),
      securitySchemes: { bearer: { description: "A credential of the host's `wow.http.credentials`: `Authorization: Bearer <token>`.", scheme: "bearer", type: "http" } },
    },
    info: { description: "The commands of the model's aggregates and the host's admin routes, as the wowc runtime serves them.", title: model.contexts.map((c) => c.name).join(", ") || "wow", version: "1" },
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    openapi: "3.1.0",
    paths: sortedKeys(paths),
    security: [{ bearer: [] }],
    // Relative: the document describes whichever host serves it.
    servers: [{ description: "The host serving this API", url: "/" }],
    tags: [...tags, { description: "The host's probes and admin routes.", name: "wow" }],
  };
}

function operation(path: string, aggregate: string, command: CommandModel, context: string, qualified: string): Json {
  const parameters: Json[] = [{ description: "The tenant the aggregate belongs to.", in: "path", name: "tenantId", required: true, schema: { type: "string" } }];
  if (path.includes("{id}")) parameters.push({ description: `The id of the ${aggregate}.`, in: "path", name: "id", required: true, schema: { type: "string" } });
  for (const name of ["RequestId", ...(command.create ? ["AggregateId"] : []), "AggregateVersion", "WaitStage", "WaitTimeout"]) parameters.push({ $ref: `#/components/parameters/${name}` });
  const doc = [command.decl.doc, command.handler?.decl.doc].filter((d) => d !== undefined && d.trim() !== "").join("\n\n");
  return {
    ...(doc === "" ? {} : { description: doc }),
    operationId: qualified,
    parameters,
    requestBody: { content: { "application/json": { schema: { $ref: `#/components/schemas/${qualified}` } } }, required: true },
    responses: {
      "200": json("CommandResult", `The command was decided: the events it produced, with the aggregate's version.`),
      ...Object.fromEntries(COMMAND_ERRORS.map(([status]) => [status, { $ref: `#/components/responses/Error${status}` }])),
    },
    summary: `${command.create ? "Create" : command.delete ? "Delete" : "Change"} a ${aggregate}: ${command.name}`,
    tags: [context],
  };
}

function sortedKeys<T>(record: Record<string, T>): Record<string, T> {
  const out: Record<string, T> = Object.create(null) as Record<string, T>;
  for (const key of Object.keys(record).sort()) out[key] = record[key]!;
  return out;
}

/** A body schema's part with its `#/$defs/…` refs pointing at `components/schemas`. */
function hoisted(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(hoisted);
  if (schema === null || typeof schema !== "object") return schema;
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [key, value] of Object.entries(schema as JsonSchema)) {
    out[key] = key === "$ref" && typeof value === "string" && value.startsWith("#/$defs/") ? `#/components/schemas/${value.slice("#/$defs/".length)}` : hoisted(value);
  }
  return out;
}

const header = (name: string, description: string, schema: Json): Json => ({ description, in: "header", name, required: false, schema });

const HEADER_PARAMETERS: Json = {
  AggregateId: header("Command-Aggregate-Id", "The id of the aggregate a create command makes (default: derived from Command-Request-Id, else new).", { type: "string" }),
  AggregateVersion: header("Command-Aggregate-Version", "The version the aggregate must be at, else 409.", { minimum: 0, type: "integer" }),
  RequestId: header("Command-Request-Id", "Idempotency key: the same id again answers `DuplicateRequestId`.", { maxLength: 200, minLength: 1, type: "string" }),
  WaitStage: header("Command-Wait-Stage", "What the reply waits for (default PROCESSED).", { enum: ["SENT", "PROCESSED", "EVENT_HANDLED", "SAGA_HANDLED"], type: "string" }),
  WaitTimeout: header("Command-Wait-Timeout", "How long the reply waits for the stage, in milliseconds.", { pattern: "^[0-9]{1,9}$", type: "string" }),
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
