// The escaping helpers of the generator: every name and string that comes from a `.wow` file goes
// through one of these before it reaches generated TypeScript. Nothing else in compiler/emit/ puts
// source text into code.

/** Words that cannot be a binding name (parameter, variable, function) in strict-mode ES modules. */
const reservedWords: ReadonlySet<string> = new Set([
  "break", "case", "catch", "class", "const", "continue", "debugger", "default", "delete", "do", "else",
  "enum", "export", "extends", "false", "finally", "for", "function", "if", "import", "in", "instanceof",
  "new", "null", "return", "super", "switch", "this", "throw", "true", "try", "typeof", "var", "void",
  "while", "with", "implements", "interface", "let", "package", "private", "protected", "public",
  "static", "yield", "await", "arguments", "eval",
  // names TypeScript refuses for a type
  "any", "unknown", "never", "number", "bigint", "boolean", "string", "symbol", "object", "undefined",
]);

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** True when `name` can be written as it is where TypeScript expects a binding or type name. */
export function isSafeIdentifier(name: string): boolean {
  return IDENTIFIER.test(name) && !reservedWords.has(name);
}

/**
 * A TypeScript identifier for `name`, one to one: itself when safe; a reserved word gets a `$`
 * appended (`class` → `class$`); in any other name each `-` becomes `$` (`order-id` → `order$id`),
 * any other character outside `[A-Za-z0-9_]` `$<hex>$`, and a leading digit gets a `$` before it.
 * `.wow` names hold no `$` and do not end in `-`, so no two names give one identifier, and none
 * gives a name of the generated code's own (`$wow`, `$Svc`, `$eshopOrder`).
 */
export function identifier(name: string): string {
  if (isSafeIdentifier(name)) return name;
  if (IDENTIFIER.test(name)) return `${name}$`;
  const escaped = name.replace(/[^A-Za-z0-9_]/gu, (char) => (char === "-" ? "$" : `$${char.codePointAt(0)!.toString(16)}$`));
  return /^[0-9]/.test(escaped) || escaped === "" ? `$${escaped}` : escaped;
}

/**
 * A property key: the bare name when it is an identifier name (reserved words are fine there), else
 * a string literal. `__proto__` is written computed, `["__proto__"]`: in an object literal, the bare
 * or quoted key would set the object's prototype instead of making a property.
 */
export function propertyKey(name: string): string {
  if (name === "__proto__") return `[${stringLiteral(name)}]`;
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : stringLiteral(name);
}

/**
 * The key of a method signature in an interface: a property key, but `new` quoted, since
 * `new(…)` there declares a construct signature instead of a method.
 */
export function methodKey(name: string): string {
  return name === "new" ? stringLiteral(name) : propertyKey(name);
}

/** A property access on `object`: `.name` or `["na-me"]`. */
export function propertyAccess(object: string, name: string): string {
  const key = propertyKey(name);
  return key === name ? `${object}.${name}` : `${object}[${stringLiteral(name)}]`;
}

/** Printable ASCII without `"` or `\`: the common case, written as it is. */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/**
 * A double-quoted string literal holding exactly `value`: quotes, backslashes, control characters,
 * U+2028/U+2029 and every non-ASCII character are escaped, so no source text can end the literal.
 * Backticks and `${` are inert inside double quotes.
 */
export function stringLiteral(value: string): string {
  if (PLAIN.test(value)) return `"${value}"`;
  let out = '"';
  for (const char of value) {
    const code = char.codePointAt(0)!;
    if (char === '"') out += '\\"';
    else if (char === "\\") out += "\\\\";
    else if (char === "\n") out += "\\n";
    else if (char === "\r") out += "\\r";
    else if (char === "\t") out += "\\t";
    else if (code < 0x20 || (code >= 0x7f && code <= 0xffff)) out += `\\u${code.toString(16).padStart(4, "0")}`;
    else if (code > 0xffff) out += `\\u{${code.toString(16)}}`;
    else out += char;
  }
  return `${out}"`;
}

/**
 * A TSDoc block for `text` at `indent`, or "" when there is none. `*\/` cannot close the comment
 * early (it becomes `*\u2215`, shown as a look-alike slash), and line separators become new lines.
 */
export function docComment(text: string | undefined, indent = ""): string {
  if (text === undefined || text.trim() === "") return "";
  // One line with nothing to replace (the common case): the steps below would only trim its end.
  if (!SPECIAL_IN_DOC.test(text)) return `${indent}/** ${text.trimEnd()} */\n`;
  const lines = text
    .replace(/\r\n?|[\u2028\u2029]/g, "\n")
    .replace(/\*\//g, "*\u2215")
    .replace(/[\u0000-\u0008\u000b-\u001f]/g, " ")
    .split("\n")
    .map((line) => line.trimEnd());
  while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  while (lines.length > 0 && lines[0] === "") lines.shift();
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((line) => (line === "" ? `${indent} *` : `${indent} * ${line}`)).join("\n")}\n${indent} */\n`;
}

/** What docComment must rewrite: line breaks and separators, a star (of `*\/`), control characters. */
const SPECIAL_IN_DOC = /[\r\n\u2028\u2029*\u0000-\u0008\u000b-\u001f]/;

/** Text for a `//` line comment: one line, no line terminators. */
export function lineComment(text: string): string {
  return text.replace(/[\r\n\u2028\u2029]+/g, " ");
}

/**
 * JSON data as a TypeScript expression: its JSON (compact, every character beyond ASCII escaped), but
 * a `__proto__` key written computed (`["__proto__"]`): as a plain key in an object literal it would
 * set the object's prototype. (In JSON.stringify's output a key follows `{` or `,`, and no `"` inside
 * a string stands unescaped, so the pattern finds keys only.)
 */
export function jsonLiteral(value: unknown): string {
  const json = JSON.stringify(value);
  if (json === undefined) throw new Error("jsonLiteral: not JSON data");
  const keyed = json.includes('"__proto__":') ? json.replace(/([{,])"__proto__":/g, '$1["__proto__"]:') : json;
  return NON_ASCII.test(keyed) ? keyed.replace(/[\u007f-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`) : keyed;
}

const NON_ASCII = /[\u007f-\uffff]/;

/** A list of strings as an array literal, each once, in the order given: `["a.B", "a.C"]`. */
export function stringArray(values: readonly string[]): string {
  return `[${[...new Set(values)].map(stringLiteral).join(", ")}]`;
}
