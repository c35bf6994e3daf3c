// Canonical JSON: object keys sorted at every level, two-space indent, `\n` line endings and a
// trailing newline. Arrays keep the order they are given (the manifest builder sorts those whose
// order carries no meaning). The value is put in key order first (objects already in order are
// shared, not copied), then printed by the native JSON.stringify — several times faster than
// printing piece by piece in JavaScript on the 10 MB manifest of a large project. JavaScript lists
// integer-like keys ("2", "10") first and in numeric order whatever the insertion order, so a value
// holding an object whose keys that would put out of sorted order is printed by the writer below
// instead (keys like OpenAPI's "200", "404", "default" come out sorted either way).

export function canonicalJson(value: unknown): string {
  const ordered = inKeyOrder(value);
  if (ordered === INTEGER_KEY) {
    const out: string[] = [];
    write(value, "", out);
    return `${out.join("")}\n`;
  }
  return `${JSON.stringify(ordered, null, 2) ?? "null"}\n`;
}

/** Printable ASCII without `"` or `\\`: a JSON string's common case, printed between quotes as it is. */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** `text` as a JSON string, as JSON.stringify prints it (its plain common case without the call). */
export function jsonString(text: string): string {
  return PLAIN.test(text) ? `"${text}"` : JSON.stringify(text);
}

/** What stands between a JSON string's quotes for `text`. */
export function jsonStringContent(text: string): string {
  return PLAIN.test(text) ? text : JSON.stringify(text).slice(1, -1);
}

/**
 * The canonical JSON of `value` as it stands as a property value `depth` levels deep in a larger
 * canonical document (lines after the first indented by two spaces per level, no trailing
 * newline): a document can be assembled from parts printed apart.
 */
export function canonicalJsonNested(value: unknown, depth: number): string {
  return nested(value, depth, canonicalJson);
}

/**
 * As canonicalJsonNested, for a value built with every object's keys in sorted order (none of them
 * integer-like): printed as it stands, without the walk that would find nothing to reorder. The
 * manifest's fragments are (a test holds each equal to its canonical JSON).
 */
export function orderedJsonNested(value: unknown, depth: number): string {
  return nested(value, depth, (wrapped) => `${JSON.stringify(wrapped, null, 2)}\n`);
}

function nested(value: unknown, depth: number, print: (value: unknown) => string): string {
  // Printed inside `depth` one-key wrappers, then cut out: no second pass to indent it.
  let wrapped = value;
  let prefix = "";
  let suffix = "\n";
  for (let level = 0; level < depth; level++) {
    wrapped = { "": wrapped };
    prefix += `{\n${"  ".repeat(level + 1)}"": `;
    suffix = `\n${"  ".repeat(level)}}${suffix}`;
  }
  const text = print(wrapped);
  return text.slice(prefix.length, text.length - suffix.length);
}

const INTEGER_KEY: unique symbol = Symbol("an integer-like key");
const INTEGER_LIKE = /^(0|[1-9][0-9]*)$/;

/** `value` with every object's keys in sorted order (the parts already in order are shared), or INTEGER_KEY. */
function inKeyOrder(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item = inKeyOrder(value[i]);
      if (item === INTEGER_KEY) return INTEGER_KEY;
      if (item !== value[i]) (copy ??= value.slice())[i] = item;
    }
    return copy ?? value;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  if (keys.some(isIntegerLike) && !integerOrderSorts(keys)) return INTEGER_KEY;
  let copy: Record<string, unknown> | undefined = isSorted(keys) ? undefined : {};
  if (copy !== undefined) for (const key of keys.sort()) copy[key] = record[key];
  for (const key of keys) {
    const item = inKeyOrder(record[key]);
    if (item === INTEGER_KEY) return INTEGER_KEY;
    if (item !== record[key]) (copy ??= { ...record })[key] = item;
  }
  return copy ?? value;
}

function isIntegerLike(key: string): boolean {
  const first = key.charCodeAt(0);
  return first >= 48 && first <= 57 && INTEGER_LIKE.test(key);
}

/** Whether an object built with `keys` in sorted order enumerates them sorted (its integer-like keys, numeric first, are already first). */
function integerOrderSorts(keys: readonly string[]): boolean {
  const sorted = [...keys].sort();
  const integers = sorted.filter(isIntegerLike).sort((a, b) => Number(a) - Number(b));
  const enumerated = [...integers, ...sorted.filter((key) => !isIntegerLike(key))];
  return enumerated.every((key, i) => key === sorted[i]);
}

function isSorted(keys: readonly string[]): boolean {
  for (let i = 1; i < keys.length; i++) if (keys[i - 1]! > keys[i]!) return false;
  return true;
}

/** The writer for values with integer-like keys: keys sorted as strings, printed piece by piece. */
function write(value: unknown, indent: string, out: string[]): void {
  if (value === null || typeof value !== "object") {
    out.push(JSON.stringify(value) ?? "null");
    return;
  }
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) {
      out.push("[]");
      return;
    }
    out.push("[");
    for (let i = 0; i < value.length; i++) {
      out.push(i === 0 ? `\n${inner}` : `,\n${inner}`);
      write(value[i], inner, out);
    }
    out.push(`\n${indent}]`);
    return;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort();
  if (keys.length === 0) {
    out.push("{}");
    return;
  }
  out.push("{");
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    out.push(`${i === 0 ? "\n" : ",\n"}${inner}${JSON.stringify(key)}: `);
    write(record[key], inner, out);
  }
  out.push(`\n${indent}}`);
}
