// Generated `.wow` inputs with a hostile name in one position each: a base project (two contexts,
// a value type, an enum, a service, an aggregate with state, a command, an event and a handler,
// a saga with an event handler, a rejection handler and a job) where every name a `.wow` file can
// give stands in a slot, and the inputs fill one slot with a name from the pool, or two slots with
// names that meet after a change of case. Each input records where its hostile names stand.

/** A slot of the base project and the neutral name it holds when the input does not fill it. */
export const slots = {
  context: "shop",
  otherContext: "billing",
  type: "Item",
  typeField: "sku",
  enum: "Kind",
  member: "PLAIN",
  service: "Clock",
  aggregate: "Cart",
  stateField: "count",
  command: "Add",
  commandField: "note",
  event: "Added",
  eventField: "note",
  handlerParameter: "clock",
  saga: "Relay",
  sagaParameter: "clock",
  jobName: "sweep",
  jobFunction: "sweep",
  jobParameter: "clock",
  otherType: "Ref",
  otherField: "item",
} as const;

export type Slot = keyof typeof slots;

/** TypeScript's reserved words, strict-mode ones and contextual keywords. */
const typescriptWords = [
  "break", "case", "catch", "class", "const", "continue", "debugger", "default", "delete", "do", "else", "enum", "export",
  "extends", "false", "finally", "for", "function", "if", "import", "in", "instanceof", "new", "null", "return", "super",
  "switch", "this", "throw", "true", "try", "typeof", "var", "void", "while", "with",
  "implements", "interface", "let", "package", "private", "protected", "public", "static", "yield",
  "abstract", "accessor", "any", "as", "asserts", "assert", "async", "await", "bigint", "boolean", "constructor", "declare",
  "from", "get", "global", "infer", "intrinsic", "is", "keyof", "module", "namespace", "never", "number", "object", "of",
  "out", "override", "readonly", "require", "satisfies", "set", "string", "symbol", "type", "undefined", "unique",
  "unknown", "using",
];

/** Names JavaScript gives a meaning: the object protocol, strict mode's, the globals. */
const javascriptNames = [
  "__proto__", "prototype", "toString", "valueOf", "hasOwnProperty", "isPrototypeOf", "propertyIsEnumerable",
  "toLocaleString", "__defineGetter__", "__lookupGetter__", "then", "eval", "arguments", "NaN", "Infinity", "globalThis",
  "Object", "Array", "Promise", "Symbol", "JSON", "Math", "Error", "Function", "String", "Number", "Boolean", "Date",
  "Record", "Partial", "Readonly", "Extract",
];

/** Names the generated code uses for its own locals, parameters and properties. */
const generatedNames = [
  "impl", "state", "command", "scope", "services", "event", "context", "tick", "rejection", "body", "apply", "initialState",
  "decide", "handle", "schedule", "commands", "schedules", "produces", "bodySchema", "jobs", "events", "rejections",
  "configKey", "subscription", "aggregate", "saga", "blocking", "hasCreateCommand", "Svc", "define", "Handlers",
  "AddCommand", "defineCart", "CartState", "jobConfigKeys", "sdk", "wow", "config",
];

/** `.wow`'s own keywords, and names of odd shape. */
const oddNames = [
  "on", "job", "true", "false",
  "_", "__", "___", "_1", "a", "A", "x_", "a1", "v2", "a-b", "order-id", "a-b-c", "a_b-c", "class-name", "new-x", "a-1",
  "ORDER_ID", "Order_Id", "x".repeat(120),
];

/** Characters the lexer refuses in a name (`$`, letters beyond ASCII): the input is refused where they stand. */
const unlexableNames = ["$", "$x", "a$b", "é", "café", "注文", "Ωmega", "naïve"];

export const hostileNames: readonly string[] = [...new Set([...typescriptWords, ...javascriptNames, ...generatedNames, ...oddNames, ...unlexableNames])];

/** Pairs of names that differ only in case, `-` and `_` (or are spelled alike by a generated spelling), for one slot each. */
export const collidingPairs: readonly (readonly [Slot, string, Slot, string])[] = [
  ["typeField", "a-b-c", "typeField", "a_b-c"],
  ["commandField", "a-b-c", "commandField", "a_b-c"],
  ["commandField", "a-b_c", "commandField", "a_b-c"],
  ["commandField", "order-id", "commandField", "order_id"],
  ["commandField", "orderId", "commandField", "order-id"],
  ["commandField", "class", "commandField", "class_"],
  ["eventField", "a-b-c", "eventField", "a_b-c"],
  ["stateField", "order-id", "stateField", "order_id"],
  ["jobName", "nightly", "jobName", "Nightly"],
  ["jobName", "nightly-sweep", "jobName", "NightlySweep"],
  ["command", "PayNow", "command", "PAY_NOW"],
  ["aggregate", "Cart", "aggregate", "cart"],
  ["context", "order-2", "otherContext", "order2"],
  ["context", "a-b", "otherContext", "ab"],
  ["context", "load-config", "otherContext", "shop"],
  ["type", "AddCommand", "command", "Add"],
  ["enum", "CartState", "aggregate", "Cart"],
  ["type", "defineRelay", "saga", "Relay"],
  ["jobFunction", "onAdded", "event", "Added"],
  ["jobFunction", "onAddRejected", "command", "Add"],
  ["member", "a-b", "member", "a_b"],
  ["handlerParameter", "a-b", "handlerParameter", "a_b"],
  ["jobParameter", "order-id", "jobParameter", "order_id"],
  ["jobFunction", "a-b", "jobFunction", "a_b"],
];

export interface HostileInput {
  /** What it tests: `commandField = new`. */
  readonly title: string;
  readonly sources: readonly { readonly path: string; readonly text: string }[];
  /** Where a hostile name stands: `path` and `[start, end)`. */
  readonly spots: readonly { readonly path: string; readonly start: number; readonly end: number }[];
}

type Names = { readonly [S in Slot]: string };

/**
 * The two files of the base project with `names` in its slots. A slot may be given two names (a
 * collision): the second goes into a twin of the first's declaration (another field, member,
 * parameter, command, aggregate, job).
 */
function project(names: Names, twins: Partial<Record<Slot, string>>): Pick<HostileInput, "sources" | "spots"> {
  const spots: { path: string; start: number; end: number }[] = [];
  let text = "";
  let path = "";
  const put = (s: string): void => void (text += s);
  const name = (slot: Slot, value = names[slot]): void => {
    if (value !== slots[slot]) spots.push({ path, start: text.length, end: text.length + value.length });
    text += value;
  };
  const twin = (slot: Slot, write: (value: string) => void): void => {
    const value = twins[slot];
    if (value !== undefined) write(value);
  };
  const files: { path: string; text: string }[] = [];

  path = "main.wow";
  put("context "), name("context"), put("\n\n");
  const field = (slot: Slot, type: string): void => {
    name(slot), put(`: ${type}`);
    twin(slot, (v) => (put(", "), name(slot, v), put(`: ${type}`)));
  };
  put("type "), name("type"), put(" { "), field("typeField", "string"), put(", kind: "), name("enum"), put("? }\n");
  put("enum "), name("enum"), put(" { "), name("member"), twin("member", (v) => (put(", "), name("member", v))), put(", OTHER }\n");
  put("service "), name("service"), put("\n\n");
  const aggregate = (aggregateName: string, command: string, event: string, twinCommand?: string): void => {
    put("aggregate "), name("aggregate", aggregateName), put(" {\n  state { "), field("stateField", "int"), put(" }\n");
    put("  @CreateAggregate\n  command "), name("command", command), put(" { "), field("commandField", "string?"), put(", items: "), name("type"), put("[] }\n");
    put("  event "), name("event", event), put(" { "), field("eventField", "string"), put(", kind: "), name("enum"), put(" }\n");
    put("  @OnCommand(produces = ["), name("event", event), put("], schedules = ["), name("command", command), put("])\n");
    put("  on "), name("command", command), put("("), name("handlerParameter"), put(": "), name("service");
    twin("handlerParameter", (v) => (put(", "), name("handlerParameter", v), put(": "), name("service")));
    put(")\n");
    if (twinCommand !== undefined) {
      put("  command "), name("command", twinCommand), put(" {}\n  @OnCommand(produces = ["), name("event", event), put("])\n  on "), name("command", twinCommand), put("\n");
    }
    put("}\n\n");
  };
  aggregate(names.aggregate, names.command, names.event, twins.command);
  twin("aggregate", (v) => aggregate(v, "Open", "Opened"));
  put("saga "), name("saga"), put(" {\n  @OnEvent(commands = ["), name("command"), put("])\n  on "), name("event"), put("("), name("sagaParameter"), put(": "), name("service"), put(")\n\n");
  put("  @OnRejected\n  on "), name("command"), put("\n\n");
  const job = (jobName: string, fn: string): void => {
    put('  @OnSchedule(name = "'), name("jobName", jobName), put('", cron = "0 0 6 * * *", scope = TENANT, commands = ['), name("command"), put("])\n");
    put("  job "), name("jobFunction", fn), put("("), name("jobParameter"), put(": "), name("service");
    twin("jobParameter", (v) => (put(", "), name("jobParameter", v), put(": "), name("service")));
    put(")\n");
  };
  job(names.jobName, names.jobFunction);
  twin("jobName", (v) => job(v, "other"));
  twin("jobFunction", (v) => job("other", v));
  put("}\n");
  files.push({ path, text });

  text = "";
  path = "other.wow";
  put("context "), name("otherContext"), put("\n\n");
  put("type "), name("otherType"), put(" { "), name("otherField"), put(": "), name("context"), put("."), name("type"), put(", kind: "), name("context"), put("."), name("enum"), put(" }\n\n");
  put("saga Mirror {\n  @OnEvent(commands = ["), name("context"), put("."), name("command"), put("])\n  on "), name("context"), put("."), name("event"), put("\n}\n");
  files.push({ path, text });
  return { sources: files, spots };
}

/** The base project with `fill` in its slots (the others neutral). */
function input(title: string, fill: Partial<Names>, twins: Partial<Record<Slot, string>> = {}): HostileInput {
  return { title, ...project({ ...slots, ...fill }, twins) };
}

/** Every input: each hostile name in each slot, then each colliding pair; first the base project itself. */
export function hostileInputs(): HostileInput[] {
  const inputs: HostileInput[] = [input("the base project", {})];
  for (const slot of Object.keys(slots) as Slot[]) {
    for (const name of hostileNames) if (name !== slots[slot]) inputs.push(input(`${slot} = ${name}`, { [slot]: name }));
  }
  for (const [a, first, b, second] of collidingPairs) {
    const title = `${a} = ${first}, ${b} = ${second}`;
    inputs.push(a === b ? input(title, { [a]: first }, { [a]: second }) : input(title, { [a]: first, [b]: second }));
  }
  return inputs;
}
