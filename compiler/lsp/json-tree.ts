// A JSON text as a tree of nodes with their offsets, so that a schema error's instance path leads
// back to the characters of `wow.config.json` it is about. Strict JSON (what the runtime reads with
// JSON.parse); the first syntax error is thrown with its offset.
export type JsonNode =
  | { readonly type: "object"; readonly start: number; readonly end: number; readonly properties: readonly JsonProperty[] }
  | { readonly type: "array"; readonly start: number; readonly end: number; readonly items: readonly JsonNode[] }
  | { readonly type: "value"; readonly start: number; readonly end: number; readonly value: unknown };

export interface JsonProperty {
  readonly key: string;
  readonly keyStart: number;
  readonly keyEnd: number;
  readonly value: JsonNode;
}

export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

export function parseJsonTree(text: string): JsonNode {
  let i = 0;
  const space = (): void => {
    while (i < text.length && " \t\r\n".includes(text[i]!)) i++;
  };
  const fail = (what: string): never => {
    throw new JsonSyntaxError(i >= text.length ? `unexpected end of the file: expected ${what}` : `unexpected '${text[i]}': expected ${what}`, i);
  };
  const string = (): { value: string; start: number; end: number } => {
    const start = i;
    const match = /^"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/.exec(text.slice(i));
    if (match === null) fail("a string");
    i += match![0].length;
    return { value: JSON.parse(match![0]) as string, start, end: i };
  };
  const value = (): JsonNode => {
    space();
    const start = i;
    const c = text[i];
    if (c === "{") {
      i++;
      const properties: JsonProperty[] = [];
      space();
      if (text[i] === "}") return { type: "object", start, end: ++i, properties };
      for (;;) {
        space();
        const key = string();
        space();
        if (text[i] !== ":") fail("':'");
        i++;
        properties.push({ key: key.value, keyStart: key.start, keyEnd: key.end, value: value() });
        space();
        if (text[i] === ",") i++;
        else if (text[i] === "}") return { type: "object", start, end: ++i, properties };
        else fail("',' or '}'");
      }
    }
    if (c === "[") {
      i++;
      const items: JsonNode[] = [];
      space();
      if (text[i] === "]") return { type: "array", start, end: ++i, items };
      for (;;) {
        items.push(value());
        space();
        if (text[i] === ",") i++;
        else if (text[i] === "]") return { type: "array", start, end: ++i, items };
        else fail("',' or ']'");
      }
    }
    if (c === '"') {
      const s = string();
      return { type: "value", start, end: s.end, value: s.value };
    }
    const literal = /^(?:true|false|null|-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)/.exec(text.slice(i));
    if (literal === null) return fail("a value");
    i += literal[0].length;
    return { type: "value", start, end: i, value: JSON.parse(literal[0]) as unknown };
  };
  const root = value();
  space();
  if (i < text.length) fail("the end of the file");
  return root;
}

/** The node at a JSON Pointer (`/wow/schedules/a`), or the deepest one on the way. */
export function nodeAt(root: JsonNode, pointer: string): { node: JsonNode; property?: JsonProperty } {
  let node = root;
  let property: JsonProperty | undefined;
  for (const raw of pointer.split("/").slice(1)) {
    const step = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (node.type === "object") {
      const found = node.properties.find((p) => p.key === step);
      if (found === undefined) break;
      property = found;
      node = found.value;
    } else if (node.type === "array" && /^\d+$/.test(step) && Number(step) < node.items.length) {
      property = undefined;
      node = node.items[Number(step)]!;
    } else break;
  }
  return property === undefined ? { node } : { node, property };
}
