// Where a handler declares what it may produce, schedule or send, as the generated SDK's type
// errors name it: `"schedules = [CancelOrder] of on ConfirmOrderStock"`. A message outside that list
// then fails in tsc against a type that reads as the fix (sdk.ts's `NotDeclared`).
import { stringLiteral } from "./escape.js";

interface Named {
  readonly context: string;
  readonly name: string;
}

/** `name` as the declaration in `context` writes it: bare in its own context, qualified elsewhere. */
export function writtenName(context: string, symbol: Named): string {
  return symbol.context === context ? symbol.name : `${symbol.context}.${symbol.name}`;
}

/** The string literal type `"<list> = [A, other.B] of <owner>"`. */
export function declaredWhere(context: string, list: "produces" | "schedules" | "commands", items: readonly Named[], owner: string): string {
  return stringLiteral(`${list} = [${items.map((item) => writtenName(context, item)).join(", ")}] of ${owner}`);
}
