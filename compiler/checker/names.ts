// Declaration names that the generated TypeScript cannot declare are refused (WOW3004): the SDK
// declares one type per type, enum, aggregate, command and event (and a function or an object for
// the last four), and silently renaming one would break the link between a `.wow` name and its
// generated code. `then` is refused too (WOW3026): a context module exporting it would be a thenable.
import type { Name } from "../ast.js";
import type { Reporter } from "../diagnostics/reporter.js";

/** TypeScript reserved words and the names TypeScript refuses for a type alias or interface. */
const reservedTypeNames: ReadonlySet<string> = new Set([
  // reserved words
  "break", "case", "catch", "class", "const", "continue", "debugger", "default", "delete", "do", "else",
  "enum", "export", "extends", "false", "finally", "for", "function", "if", "import", "in", "instanceof",
  "new", "null", "return", "super", "switch", "this", "throw", "true", "try", "typeof", "var", "void",
  "while", "with", "implements", "interface", "let", "package", "private", "protected", "public",
  "static", "yield", "await",
  // predefined types
  "any", "unknown", "never", "number", "bigint", "boolean", "string", "symbol", "object", "undefined",
  // type operators: a type of that name could not be written where a type is expected
  "readonly", "keyof", "infer", "unique", "as",
]);

/** Names strict-mode JavaScript (every ES module) does not let a declaration take: a command's factory, an enum's object. */
const strictModeNames: ReadonlySet<string> = new Set(["eval", "arguments"]);

/** The built-in field types of `.wow`: a declaration of that name would hide one. */
const wowBuiltins: ReadonlySet<string> = new Set(["int", "long", "decimal", "instant", "duration"]);

export function checkDeclarationName(name: Name, reporter: Reporter): void {
  const text = name.text;
  if (text === "") return;
  let reason: string | undefined;
  if (text.includes("-")) reason = "not a TypeScript identifier (it contains '-')";
  else if (reservedTypeNames.has(text)) reason = "a TypeScript reserved word or built-in type";
  else if (strictModeNames.has(text)) reason = "a name strict-mode JavaScript does not let a function or a constant take";
  else if (wowBuiltins.has(text)) reason = "a built-in `.wow` type";
  if (reason !== undefined) reporter.report("WOW3004", { name: text, reason, suggestion: saferName(text) }, name.loc);
  // A context's module exports each declaration by its name (a command's factory, an event's, an
  // enum's object, an aggregate's type). A module namespace with a `then` is a thenable: `await
  // import()` of it calls `then` instead of settling. Generating it under another name would break
  // the link between a `.wow` name and its code, as WOW3004 says, so it is refused for every kind.
  else if (text === "then") {
    const exports = "The SDK exports a command's factory, an event's, an enum and an aggregate type under their own names";
    reporter.report("WOW3026", { name: text, module: "its context's module", exports, suggestion: "Then" }, name.loc);
  }
}

/** `order-item` → `OrderItem`, `class` → `Class`. */
function saferName(text: string): string {
  const pascal = text
    .split("-")
    .filter((part) => part !== "")
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join("");
  return reservedTypeNames.has(pascal) || strictModeNames.has(pascal) || pascal === "" ? `${text.replace(/-/g, "_")}_` : pascal;
}
