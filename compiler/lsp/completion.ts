// Completion at the cursor. Where the cursor stands is read from the document's tokens as typed
// now (the lexer of grammar/tokens.ts: the text need not parse): inside which block, annotation,
// parameter list or annotation list, after which token. What is offered comes from the last run of
// the build: names of the kind that position takes (`produces = [` events, `schedules = [`
// commands, a field's type types, a parameter's type services…), annotation names and arguments,
// zone names, misfire, scope and overlap values, and the keywords that may start a member or a declaration.
import { CompletionItemKind, type CompletionItem, type CompletionList, type Range } from "vscode-languageserver";
import type { IToken, TokenType } from "chevrotain";
import type { SourceFile } from "../ast.js";
import { builtinTypes, type ContextScope, type SymbolKind, type WowSymbol } from "../binder/symbols.js";
import { annotationSpecs, type Place } from "../checker/annotations.js";
import { lexFile } from "../parse/lex-file.js";
import { zoneNames } from "../../runtime/cron/index.js";
import {
  Aggregate, At, Colon, Comma, Command, Context, Dot, Enum, Equals, Event, Job, LBracket, LCurly, LParen, Name, On, RBracket, RCurly, RParen,
  Saga, Service, State, StringLiteral, Type,
} from "../../grammar/tokens.js";
import { tokenMatcher } from "../../grammar/chevrotain.js";
import { toPosition } from "./positions.js";
import type { Project } from "./project.js";

export const TRIGGER_CHARACTERS = ["@", ".", '"', "[", "(", ":", ",", "="] as const;

type Frame =
  | { readonly kind: "file" }
  | { readonly kind: "aggregate" | "saga"; readonly name: string }
  | { readonly kind: "fields" | "enum" }
  | { readonly kind: "annotation"; readonly name: string; readonly open: number }
  | { readonly kind: "parameters" }
  | { readonly kind: "list"; readonly annotation: string; readonly argument: string };

/** What the position takes. */
type Slot =
  | { readonly kind: "names"; readonly kinds: readonly SymbolKind[]; readonly builtins?: boolean; readonly first?: (s: WowSymbol) => boolean }
  | { readonly kind: "words"; readonly words: readonly string[]; readonly item: CompletionItemKind; readonly detail: string }
  | { readonly kind: "annotations"; readonly place: readonly Place[] }
  | { readonly kind: "arguments"; readonly annotation: string; readonly given: ReadonlySet<string> }
  | { readonly kind: "zones"; readonly quoted: boolean }
  | { readonly kind: "none" };

const DECLARING: ReadonlySet<TokenType> = new Set([Context, Type, Enum, Service, Aggregate, Command, Event, Saga, Job]);
const TOP_LEVEL = ["type", "enum", "service", "aggregate", "saga"];
const AGGREGATE_MEMBERS = ["state", "command", "event", "on"];
const SAGA_MEMBERS = ["on", "job"];
const AGGREGATE_PLACES: readonly Place[] = ["command", "event", "aggregate handler"];
const SAGA_PLACES: readonly Place[] = ["saga handler", "job"];

const symbolKinds: Readonly<Record<SymbolKind, CompletionItemKind>> = {
  Type: CompletionItemKind.Struct,
  Enum: CompletionItemKind.Enum,
  Service: CompletionItemKind.Interface,
  Aggregate: CompletionItemKind.Class,
  Saga: CompletionItemKind.Class,
  Command: CompletionItemKind.Method,
  Event: CompletionItemKind.Event,
};

const is = (token: IToken | undefined, type: TokenType): boolean => token !== undefined && tokenMatcher(token, type);
const end = (token: IToken): number => token.startOffset + token.image.length;

export function complete(project: Project, document: { readonly path: string; readonly text: string }, offset: number): CompletionList {
  const file: SourceFile = { path: document.path, text: document.text };
  const { tokens, comments } = lexFile(file);
  const empty: CompletionList = { isIncomplete: false, items: [] };
  // Inside a comment (a line comment runs to its line's end, cursor there included): nothing.
  if (comments.some((c) => c.startOffset < offset && (offset < end(c) || (c.image.startsWith("//") && offset === end(c))))) return empty;
  // The token the cursor is in or just after: a name being typed, or a string.
  let index = tokens.findIndex((t) => t.startOffset < offset && offset <= end(t));
  const current = index >= 0 ? tokens[index] : undefined;
  let replace: { start: number; end: number } = { start: offset, end: offset };
  let inString = false;
  if (current !== undefined && is(current, Name)) replace = { start: current.startOffset, end: end(current) };
  else if (current !== undefined && is(current, StringLiteral) && offset < end(current) + (current.image.length > 1 && current.image.endsWith('"') ? 0 : 1)) {
    inString = true;
    const closed = current.image.length > 1 && current.image.endsWith('"');
    replace = { start: current.startOffset + 1, end: closed ? end(current) - 1 : end(current) };
  } else index = -1;
  const before = tokens.filter((t) => end(t) <= (index >= 0 ? tokens[index]!.startOffset : offset));
  const range: Range = { start: toPosition(file, replace.start), end: toPosition(file, replace.end) };

  const qualified = before.length >= 2 && is(before[before.length - 1], Dot) && is(before[before.length - 2], Name) ? before[before.length - 2]!.image : undefined;
  const context = qualified === undefined ? before : before.slice(0, -2);
  const slot = slotAt(context, frames(context), inString, tokens);
  const own = contextName(tokens);
  return { isIncomplete: false, items: items(project, slot, range, own, qualified) };
}

/** The open blocks, parentheses and lists before the cursor, innermost last. */
function frames(tokens: readonly IToken[]): Frame[] {
  const stack: Frame[] = [{ kind: "file" }];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (is(t, LCurly)) {
      const keyword = tokens[i - 2];
      const name = tokens[i - 1];
      if (is(keyword, Aggregate) && name !== undefined) stack.push({ kind: "aggregate", name: name.image });
      else if (is(keyword, Saga) && name !== undefined) stack.push({ kind: "saga", name: name.image });
      else if (is(keyword, Enum)) stack.push({ kind: "enum" });
      else stack.push({ kind: "fields" }); // type, command, event, state
    } else if (is(t, LParen)) {
      if (is(tokens[i - 1], Name) && is(tokens[i - 2], At)) stack.push({ kind: "annotation", name: tokens[i - 1]!.image, open: i });
      else stack.push({ kind: "parameters" });
    } else if (is(t, LBracket)) {
      const top = stack[stack.length - 1]!;
      if (top.kind === "annotation" && is(tokens[i - 1], Equals) && tokens[i - 2] !== undefined) stack.push({ kind: "list", annotation: top.name, argument: tokens[i - 2]!.image });
      else stack.push({ kind: "list", annotation: "", argument: "" });
    } else if (is(t, RCurly) || is(t, RParen) || is(t, RBracket)) {
      if (stack.length > 1) stack.pop();
    }
  }
  return stack;
}

/** `tokens`: those before the cursor; `all`: the file's, of which they are the first. */
function slotAt(tokens: readonly IToken[], stack: readonly Frame[], inString: boolean, all: readonly IToken[]): Slot {
  const frame = stack[stack.length - 1]!;
  const prev = tokens[tokens.length - 1];
  const prev2 = tokens[tokens.length - 2];
  if (inString) return frame.kind === "annotation" && is(prev, Equals) && prev2?.image === "zone" ? { kind: "zones", quoted: false } : { kind: "none" };
  if (is(prev, At)) {
    const outer = stack.find((f) => f.kind === "aggregate" || f.kind === "saga");
    return { kind: "annotations", place: outer?.kind === "aggregate" ? AGGREGATE_PLACES : outer?.kind === "saga" ? SAGA_PLACES : [...AGGREGATE_PLACES, ...SAGA_PLACES] };
  }
  switch (frame.kind) {
    case "annotation": {
      if (is(prev, LParen) || is(prev, Comma)) {
        // The arguments written already, before the cursor and after it, up to the closing parenthesis.
        const given = new Set<string>();
        let depth = 0;
        for (let i = frame.open + 1; i < all.length && depth >= 0; i++) {
          const t = all[i]!;
          if (is(t, LParen) || is(t, LBracket)) depth++;
          else if (is(t, RParen) || is(t, RBracket)) depth--;
          else if (depth === 0 && is(t, Name) && is(all[i + 1], Equals)) given.add(t.image);
        }
        return { kind: "arguments", annotation: frame.name, given };
      }
      if (is(prev, Equals) && prev2 !== undefined) return valueSlot(prev2.image);
      return { kind: "none" };
    }
    case "list":
      if (!(is(prev, LBracket) || is(prev, Comma))) return { kind: "none" };
      if (frame.argument === "produces") return { kind: "names", kinds: ["Event"] };
      if (frame.argument === "schedules" || frame.argument === "commands") return { kind: "names", kinds: ["Command"] };
      return { kind: "none" };
    case "fields":
      return is(prev, Colon) ? { kind: "names", kinds: ["Type", "Enum"], builtins: true } : { kind: "none" };
    case "parameters":
      return is(prev, Colon) ? { kind: "names", kinds: ["Service"] } : { kind: "none" };
    case "enum":
      return { kind: "none" };
    case "aggregate": {
      if (is(prev, On)) {
        const aggregate = frame.name;
        return { kind: "names", kinds: ["Command"], first: (s) => s.kind === "Command" && s.aggregate.name === aggregate };
      }
      return prev !== undefined && DECLARING.has(prev.tokenType) ? { kind: "none" } : { kind: "words", words: AGGREGATE_MEMBERS, item: CompletionItemKind.Keyword, detail: "member of an aggregate" };
    }
    case "saga": {
      if (is(prev, On)) return annotatedBefore(tokens, tokens.length - 1).has("OnRejected") ? { kind: "names", kinds: ["Command"] } : { kind: "names", kinds: ["Event"] };
      return prev !== undefined && DECLARING.has(prev.tokenType) ? { kind: "none" } : { kind: "words", words: SAGA_MEMBERS, item: CompletionItemKind.Keyword, detail: "member of a saga" };
    }
    case "file": {
      if (prev !== undefined && DECLARING.has(prev.tokenType)) return { kind: "none" };
      const hasContext = tokens.some((t) => is(t, Context));
      return { kind: "words", words: hasContext ? TOP_LEVEL : ["context"], item: CompletionItemKind.Keyword, detail: "declaration" };
    }
  }
}

/** What an annotation argument's value may be, after `name =`. */
function valueSlot(argument: string): Slot {
  switch (argument) {
    case "zone":
      return { kind: "zones", quoted: true };
    case "misfire":
      return { kind: "words", words: ["COALESCE", "CATCH_UP"], item: CompletionItemKind.EnumMember, detail: "misfire: COALESCE runs only the latest missed slot, CATCH_UP each" };
    case "scope":
      return { kind: "words", words: ["SYSTEM", "TENANT"], item: CompletionItemKind.EnumMember, detail: "scope: one instance (SYSTEM) or one per tenant (TENANT)" };
    case "sharded":
      return { kind: "words", words: ["true", "false"], item: CompletionItemKind.Value, detail: "sharded" };
    case "overlap":
      return { kind: "words", words: ["BUFFER_ALL", "BUFFER_ONE", "SKIP"], item: CompletionItemKind.EnumMember, detail: "overlap: a slot during a run is queued (BUFFER_ALL), at most one queued (BUFFER_ONE), or skipped (SKIP)" };
    default:
      return { kind: "none" };
  }
}

/** The names of the annotations written just before token `index` (`@A @B(…) on`). */
function annotatedBefore(tokens: readonly IToken[], index: number): Set<string> {
  const names = new Set<string>();
  let i = index - 1;
  for (;;) {
    if (is(tokens[i], RParen)) {
      let depth = 0;
      for (; i >= 0; i--) {
        if (is(tokens[i], RParen)) depth++;
        else if (is(tokens[i], LParen) && --depth === 0) break;
      }
      i--;
    }
    if (!is(tokens[i], Name) || !is(tokens[i - 1], At)) return names;
    names.add(tokens[i]!.image);
    i -= 2;
  }
}

/** The file's context, from its `context NAME` clause. */
function contextName(tokens: readonly IToken[]): string | undefined {
  const at = tokens.findIndex((t) => is(t, Context));
  return at >= 0 && is(tokens[at + 1], Name) ? tokens[at + 1]!.image : undefined;
}

function items(project: Project, slot: Slot, range: Range, own: string | undefined, qualified: string | undefined): CompletionItem[] {
  const edit = (text: string) => ({ range, newText: text });
  switch (slot.kind) {
    case "none":
      return [];
    case "words":
      return qualified !== undefined ? [] : slot.words.map((w) => ({ label: w, kind: slot.item, detail: slot.detail, textEdit: edit(w) }));
    case "annotations":
      return Object.entries(annotationSpecs)
        .filter(([, spec]) => spec.places.some((p) => slot.place.includes(p)))
        .map(([name, spec]) => ({ label: name, kind: CompletionItemKind.Function, detail: `@${name}: on ${spec.allowed}`, textEdit: edit(name) }));
    case "arguments": {
      const spec = Object.hasOwn(annotationSpecs, slot.annotation) ? annotationSpecs[slot.annotation] : undefined;
      if (spec === undefined) return [];
      return Object.entries(spec.args)
        .filter(([name]) => !slot.given.has(name))
        .map(([name, arg]) => ({ label: name, kind: CompletionItemKind.Property, detail: arg.example, textEdit: edit(`${name} = `) }));
    }
    case "zones":
      return zoneNames().map((zone) => ({ label: zone, kind: CompletionItemKind.Value, detail: "time zone", textEdit: edit(slot.quoted ? JSON.stringify(zone) : zone), ...(slot.quoted ? { filterText: JSON.stringify(zone) } : {}) }));
    case "names":
      return names(project, slot, edit, own, qualified);
  }
}

function names(project: Project, slot: Extract<Slot, { kind: "names" }>, edit: (text: string) => { range: Range; newText: string }, own: string | undefined, qualified: string | undefined): CompletionItem[] {
  const scopes = project.last?.scopes ?? new Map<string, ContextScope>();
  const out: CompletionItem[] = [];
  const describe = (s: WowSymbol) => (s.kind === "Command" || s.kind === "Event" ? `${s.kind.toLowerCase()} of aggregate ${s.aggregate.name} (${s.context})` : `${s.kind.toLowerCase()} (${s.context})`);
  const add = (s: WowSymbol, label: string, rank: string) => {
    out.push({ label, kind: symbolKinds[s.kind], detail: describe(s), sortText: `${rank}${label}`, textEdit: edit(label), ...(s.decl.doc === undefined ? {} : { documentation: s.decl.doc }) });
  };
  if (qualified !== undefined) {
    for (const s of scopes.get(qualified)?.symbols.values() ?? []) if (slot.kinds.includes(s.kind)) add(s, s.name, "0");
    return out;
  }
  if (slot.builtins === true) for (const t of builtinTypes) out.push({ label: t, kind: CompletionItemKind.Keyword, detail: "built-in type", sortText: `1${t}`, textEdit: edit(t) });
  for (const scope of scopes.values()) {
    const local = scope.name === own;
    for (const s of scope.symbols.values()) {
      if (!slot.kinds.includes(s.kind)) continue;
      add(s, local ? s.name : s.qualifiedName, slot.first?.(s) === true ? "0" : local ? "1" : "2");
    }
    if (!local) out.push({ label: scope.name, kind: CompletionItemKind.Module, detail: "context", sortText: `3${scope.name}`, textEdit: edit(scope.name) });
  }
  return out;
}
