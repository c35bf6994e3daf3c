// The annotations of the language: where each may stand, which arguments it takes and of what kind.
// `readAnnotations` checks a node's annotations against this table once and hands the checks of
// handlers and jobs only well-formed values.
import type { Annotation, AnnotationArgument, AnnotationValue, QualifiedName } from "../ast.js";
import type { Reporter } from "../diagnostics/reporter.js";
import { didYouMean, nearest } from "../diagnostics/suggest.js";

/** Where an annotation stands. */
export type Place =
  | "command"
  | "event"
  | "aggregate handler"
  | "saga handler"
  | "job"
  | "type"
  | "enum"
  | "service"
  | "aggregate"
  | "saga";

type ArgumentKind = "string" | "number" | "boolean" | "name" | "list";

interface ArgumentSpec {
  readonly kind: ArgumentKind;
  readonly required?: boolean;
  readonly example: string;
}

interface AnnotationSpec {
  readonly places: readonly Place[];
  readonly allowed: string;
  readonly args: Readonly<Record<string, ArgumentSpec>>;
}

const list = (example: string): ArgumentSpec => ({ kind: "list", example });

export const annotationSpecs: Readonly<Record<string, AnnotationSpec>> = {
  CreateAggregate: { places: ["command"], allowed: "a command of an aggregate", args: {} },
  DeleteAggregate: { places: ["command"], allowed: "a command of an aggregate", args: {} },
  OnCommand: {
    places: ["aggregate handler"],
    allowed: "a command handler (`on COMMAND`) in an aggregate",
    args: { produces: list("produces = [OrderCreated]"), schedules: list("schedules = [CancelOrder]") },
  },
  OnEvent: {
    places: ["saga handler"],
    allowed: "an event handler (`on EVENT`) in a saga",
    args: { commands: list("commands = [ReserveStock]"), schedules: list("schedules = [ReleaseStock]") },
  },
  OnRejected: { places: ["saga handler"], allowed: "a rejection handler (`on COMMAND`) in a saga", args: {} },
  OnSchedule: {
    places: ["job"],
    allowed: "a `job` in a saga",
    args: {
      name: { kind: "string", required: true, example: 'name = "receive-deliveries"' },
      cron: { kind: "string", required: true, example: 'cron = "0 0 6 * * *"' },
      zone: { kind: "string", example: 'zone = "Europe/Paris"' },
      scope: { kind: "name", example: "scope = SYSTEM" },
      sharded: { kind: "boolean", example: "sharded = false" },
      misfire: { kind: "name", example: "misfire = COALESCE" },
      commands: list("commands = [ReceiveStock]"),
      overlap: { kind: "name", example: "overlap = SKIP" },
      timeout: { kind: "string", example: 'timeout = "5m"' },
      jitter: { kind: "string", example: 'jitter = "30s"' },
    },
  },
  Retry: {
    places: ["aggregate handler", "job"],
    allowed: "a job, or a command handler (for the command when a timer delivers it)",
    args: {
      maxAttempts: { kind: "number", example: "maxAttempts = 5" },
      backoff: { kind: "string", example: 'backoff = "10s"' },
      maxBackoff: { kind: "string", example: 'maxBackoff = "10m"' },
    },
  },
  Blocking: { places: ["aggregate handler", "saga handler", "job"], allowed: "a handler or a job", args: {} },
};

const placeNames: Readonly<Record<Place, string>> = {
  command: "a command",
  event: "an event",
  "aggregate handler": "a command handler",
  "saga handler": "a saga handler",
  job: "a job",
  type: "a type",
  enum: "an enum",
  service: "a service",
  aggregate: "an aggregate",
  saga: "a saga",
};

/**
 * A node's well-formed annotations: the first of each known name allowed at the place. A node has
 * one or two annotations, each a few arguments: they are kept in lists and looked up by a scan (no
 * maps: the checker reads the annotations of every declaration, handler and job).
 */
export class Annotations {
  // Sized for the node's annotations (`push` would give each list room for 16 more); `count` used.
  private readonly annotations: Annotation[];
  /** For each of `annotations`, its well-formed arguments (one per name). */
  private readonly args: (readonly AnnotationArgument[])[];
  private count = 0;

  constructor(capacity = 0) {
    this.annotations = new Array<Annotation>(capacity);
    this.args = new Array<readonly AnnotationArgument[]>(capacity);
  }

  has(name: string): boolean {
    return this.get(name) !== undefined;
  }

  get(name: string): Annotation | undefined {
    for (let i = 0; i < this.count; i++) if (this.annotations[i]!.name.text === name) return this.annotations[i];
    return undefined;
  }

  private value(annotation: string, arg: string): AnnotationValue | undefined {
    for (let i = 0; i < this.count; i++) {
      if (this.annotations[i]!.name.text === annotation) return argumentNamed(this.args[i]!, arg)?.value;
    }
    return undefined;
  }

  string(annotation: string, arg: string): { value: string; loc: AnnotationValue["loc"] } | undefined {
    const value = this.value(annotation, arg);
    return value?.kind === "String" ? { value: value.value, loc: value.loc } : undefined;
  }

  number(annotation: string, arg: string): { value: number; text: string; loc: AnnotationValue["loc"] } | undefined {
    const value = this.value(annotation, arg);
    return value?.kind === "Number" ? { value: value.value, text: value.text, loc: value.loc } : undefined;
  }

  boolean(annotation: string, arg: string): { value: boolean; loc: AnnotationValue["loc"] } | undefined {
    const value = this.value(annotation, arg);
    return value?.kind === "Boolean" ? { value: value.value, loc: value.loc } : undefined;
  }

  name(annotation: string, arg: string): QualifiedName | undefined {
    const value = this.value(annotation, arg);
    return value?.kind === "Reference" ? value.name : undefined;
  }

  /** The names of a list argument (empty when absent). */
  names(annotation: string, arg: string): readonly QualifiedName[] {
    const value = this.value(annotation, arg);
    if (value?.kind !== "List") return NO_NAMES;
    // A list argument is kept only when every item is a name (see `fits`).
    return value.items.map((item) => (item as Extract<AnnotationValue, { kind: "Reference" }>).name);
  }

  /** @internal */
  add(annotation: Annotation, args: readonly AnnotationArgument[]): void {
    this.annotations[this.count] = annotation;
    this.args[this.count] = args;
    this.count++;
  }
}

function argumentNamed(args: readonly AnnotationArgument[], name: string): AnnotationArgument | undefined {
  for (const arg of args) if (arg.name.text === name) return arg;
  return undefined;
}

const none = new Annotations();
const NO_NAMES: readonly QualifiedName[] = [];

/** Each annotation's argument names and its required ones, listed once. */
const argumentLists = new Map(
  Object.entries(annotationSpecs).map(([name, spec]) => [
    name,
    { names: Object.keys(spec.args), required: Object.entries(spec.args).filter(([, arg]) => arg.required === true) },
  ]),
);

export function readAnnotations(annotations: readonly Annotation[], place: Place, reporter: Reporter): Annotations {
  if (annotations.length === 0) return none;
  const result = new Annotations(annotations.length);
  for (let i = 0; i < annotations.length; i++) {
    const annotation = annotations[i]!;
    const name = annotation.name.text;
    const spec = Object.hasOwn(annotationSpecs, name) ? annotationSpecs[name] : undefined;
    if (spec === undefined) {
      if (name === "") continue; // recovered from a syntax error, already reported
      const suggestion = nearest(name, Object.keys(annotationSpecs));
      reporter.report("WOW3010", { name, suggestion: didYouMean(suggestion === undefined ? undefined : `@${suggestion}`) }, annotation.name.loc);
      continue;
    }
    // A node has one or two annotations: a scan of the earlier ones, no set.
    if (annotatedBefore(annotations, i, name)) {
      reporter.report("WOW3011", { name }, annotation.loc);
      continue;
    }
    if (!spec.places.includes(place)) {
      reporter.report("WOW3012", { name, place: placeNames[place], allowed: spec.allowed }, annotation.name.loc);
      continue;
    }
    result.add(annotation, readArguments(annotation, spec, reporter));
  }
  return result;
}

function annotatedBefore(annotations: readonly Annotation[], index: number, name: string): boolean {
  for (let j = 0; j < index; j++) if (annotations[j]!.name.text === name) return true;
  return false;
}

/** The well-formed arguments of `annotation`: known, of the right kind, the first of each name. */
function readArguments(annotation: Annotation, spec: AnnotationSpec, reporter: Reporter): AnnotationArgument[] {
  const accepted: AnnotationArgument[] = [];
  const annotationName = annotation.name.text;
  const { names: argNames, required } = argumentLists.get(annotationName)!;
  for (const arg of annotation.args) {
    const name = arg.name.text;
    const argSpec = Object.hasOwn(spec.args, name) ? spec.args[name] : undefined;
    if (argSpec === undefined) {
      if (name === "") continue;
      const allowed =
        argNames.length === 0
          ? `'@${annotationName}' takes no arguments.`
          : `'@${annotationName}' takes: ${argNames.join(", ")}.`;
      reporter.report("WOW3013", { annotation: annotationName, name, suggestion: didYouMean(nearest(name, argNames)), allowed }, arg.name.loc);
      continue;
    }
    if (argumentNamed(accepted, name) !== undefined) {
      reporter.report("WOW3016", { name }, arg.loc);
      continue;
    }
    if (!fits(arg.value, argSpec.kind)) {
      reporter.report(
        "WOW3014",
        { name, annotation: annotationName, expected: describe(argSpec.kind), actual: kindOf(arg.value), example: `\`${argSpec.example}\`` },
        offending(arg.value).loc,
      );
      continue;
    }
    accepted.push(arg);
  }
  for (const [name, argSpec] of required) {
    if (argumentNamed(accepted, name) === undefined && argumentNamed(annotation.args, name) === undefined) {
      reporter.report("WOW3015", { annotation: annotationName, name, example: `\`${argSpec.example}\`` }, annotation.loc);
    }
  }
  return accepted;
}

function fits(value: AnnotationValue, kind: ArgumentKind): boolean {
  switch (kind) {
    case "string":
      return value.kind === "String";
    case "number":
      return value.kind === "Number";
    case "boolean":
      return value.kind === "Boolean";
    case "name":
      return value.kind === "Reference";
    case "list":
      return value.kind === "List" && value.items.every((item) => item.kind === "Reference");
  }
}

/** The value to point at: the first item of a list that is not a name, else the value itself. */
function offending(value: AnnotationValue): AnnotationValue {
  return value.kind === "List" ? (value.items.find((item) => item.kind !== "Reference") ?? value) : value;
}

function describe(kind: ArgumentKind): string {
  switch (kind) {
    case "string":
      return "a string";
    case "number":
      return "a number";
    case "boolean":
      return "true or false";
    case "name":
      return "a name";
    case "list":
      return "a list of names";
  }
}

function kindOf(value: AnnotationValue): string {
  switch (value.kind) {
    case "String":
      return "a string";
    case "Number":
      return "a number";
    case "Boolean":
      return "a boolean";
    case "Reference":
      return "a name";
    case "List":
      return value.items.every((item) => item.kind === "Reference") ? "a list of names" : "a list with other values than names";
  }
}
