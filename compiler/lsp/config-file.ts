// `wow.config.json` beside a build's sources, checked against the schema its declarations generate
// (compiler/emit/config-view.ts), as the runtime checks it when it starts: each problem is a
// diagnostic (WOW6007) at the key or value it is about. Checked against the model of the last run
// without errors: while a `.wow` file is being edited, its jobs stay what they were.
import { pathToFileURL } from "node:url";
import { readFileSync } from "node:fs";
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import type { Diagnostic as LspDiagnostic } from "vscode-languageserver";
import type { SourceFile } from "../ast.js";
import { didYouMean, nearest } from "../diagnostics/suggest.js";
import { createDiagnostic } from "../diagnostics/diagnostic.js";
import { CONFIG_SCHEMA_FILE, configSchema } from "../emit/config-view.js";
import type { ProgramModel } from "../model.js";
import { toLspDiagnostic } from "./diagnostics.js";
import { JsonSyntaxError, nodeAt, parseJsonTree, type JsonNode } from "./json-tree.js";
import type { Project } from "./project.js";
import { CONFIG_FILE } from "./workspace.js";

const schemas = new WeakMap<ProgramModel, { schema: object; validate: ValidateFunction }>();

function compiled(model: ProgramModel): { schema: object; validate: ValidateFunction } {
  let entry = schemas.get(model);
  if (entry === undefined) {
    const schema = configSchema(model);
    // The runtime's options (runtime/config/load-config.ts), formats aside: the schema names none.
    entry = { schema, validate: new Ajv({ allErrors: true, strict: false }).compile(schema) };
    schemas.set(model, entry);
  }
  return entry;
}

/** The generated schema of the project's `wow.config.json` (of its last run without errors). */
export function configSchemaOf(project: Project): object | null {
  const model = project.lastGoodModel;
  return model === undefined ? null : compiled(model).schema;
}

/** The URI a client asks CONFIG_SCHEMA_REQUEST for: one per build root. */
export function schemaUriOf(project: Project): string {
  return `wowc-schema://schema${pathToFileURL(project.root).pathname}/${CONFIG_SCHEMA_FILE}`;
}

/**
 * The diagnostics of the project's `wow.config.json` (`text` when open, else the disk's); undefined
 * when there is nothing to say: no file, or no model to check it against yet.
 */
export function configDiagnostics(project: Project, text: string | undefined): LspDiagnostic[] | undefined {
  const model = project.lastGoodModel;
  if (model === undefined) return undefined;
  if (text === undefined) {
    try {
      text = readFileSync(project.absolutePath(CONFIG_FILE), "utf8");
    } catch {
      return undefined;
    }
  }
  const file: SourceFile = { path: CONFIG_FILE, text };
  const uriOf = (path: string) => project.uriOf(path);
  let root: JsonNode;
  try {
    root = parseJsonTree(text);
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) throw error;
    const at = { file, start: error.offset, end: Math.min(text.length, error.offset + 1) };
    return [toLspDiagnostic(createDiagnostic("WOW6007", { detail: `it is not valid JSON (${error.message}).`, suggestion: "" }, at), uriOf)];
  }
  const { validate } = compiled(model);
  if (validate(JSON.parse(text))) return [];
  return (validate.errors ?? []).map((error) => toLspDiagnostic(problem(error, root, file, model), uriOf));
}

function problem(error: ErrorObject, root: JsonNode, file: SourceFile, model: ProgramModel) {
  const { node } = nodeAt(root, error.instancePath);
  const path = error.instancePath === "" ? "the top level" : `'${error.instancePath}'`;
  if (error.keyword === "additionalProperties") {
    const key = (error.params as { additionalProperty: string }).additionalProperty;
    const found = node.type === "object" ? node.properties.find((p) => p.key === key) : undefined;
    const at = found === undefined ? { file, start: node.start, end: node.end } : { file, start: found.keyStart, end: found.keyEnd };
    const known = knownKeys(error.instancePath, model);
    const detail = `${path} has no setting '${key}'${known.length === 0 ? "." : ` (it takes: ${known.join(", ")}).`}`;
    return createDiagnostic("WOW6007", { detail, suggestion: didYouMean(nearest(key, known)) }, at);
  }
  return createDiagnostic("WOW6007", { detail: `${path} ${error.message ?? "is not valid"}.`, suggestion: "" }, { file, start: node.start, end: node.end });
}

/** The keys an object of the schema takes at `pointer` (`/wow/schedules`: the declared jobs). */
function knownKeys(pointer: string, model: ProgramModel): string[] {
  let schema = compiled(model).schema as { properties?: Record<string, unknown> };
  for (const step of pointer.split("/").slice(1)) {
    const next = schema.properties?.[step.replace(/~1/g, "/").replace(/~0/g, "~")] as typeof schema | undefined;
    if (next === undefined) return [];
    schema = next;
  }
  return Object.keys(schema.properties ?? {}).sort();
}
