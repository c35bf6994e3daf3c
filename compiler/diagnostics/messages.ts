// The one table of diagnostics: every code the compiler reports, its severity, its message template
// and the hint that tells the user what to do. Templates name their arguments in braces; the types
// below make every `report(code, args)` pass exactly those arguments.
//
// Ranges: WOW1xxx syntax (grammar/), WOW2xxx names and resolution, WOW3xxx declarations, handlers
// and annotations, WOW4xxx jobs and cron, WOW5xxx host cross-check, WOW6xxx build and config,
// WOW9999 internal error.

export type Severity = "error" | "warning";

export interface MessageDefinition {
  readonly severity: Severity;
  readonly message: string;
  readonly hint?: string;
}

export const messages = {
  // ── WOW1xxx: syntax ───────────────────────────────────────────────────────────────────────────
  WOW1001: {
    severity: "error",
    message: "Unexpected character '{text}'.",
    hint: "Remove it; `.wow` files use names, `{ } ( ) [ ] , : = . ? @`, strings and comments.",
  },
  WOW1002: {
    severity: "error",
    message: "Unexpected {found}: expected {expected}.",
  },

  // ── WOW4xxx: jobs and cron (WOW4001 and WOW4002 are shared with `wowc cron`) ──────────────────────
  WOW4001: {
    severity: "error",
    message: "Invalid cron expression: {detail}",
    hint: "A cron rule has six fields: second minute hour day-of-month month day-of-week (e.g. \"0 0 6 * * *\" is every day at 06:00).",
  },
  WOW4002: {
    severity: "error",
    message: "The cron expression '{expression}' can never fire.",
    hint: "No date matches every field (e.g. the 30th of February); check the day-of-month, month and day-of-week fields.",
  },

  // ── WOW9999: internal ─────────────────────────────────────────────────────────────────────────
  WOW9999: {
    severity: "error",
    message: "Internal compiler error: {detail}",
    hint: "This is a bug in wowc, not in your sources. Please report it with the input that caused it.",
  },
} as const satisfies Record<string, MessageDefinition>;

export type DiagnosticCode = keyof typeof messages;

type Placeholders<S> = S extends `${string}{${infer P}}${infer Rest}` ? P | Placeholders<Rest> : never;
type TemplatesOf<C extends DiagnosticCode> =
  | (typeof messages)[C]["message"]
  | ((typeof messages)[C] extends { hint: infer H } ? H : never);

/** The arguments a code's message and hint templates name. */
export type DiagnosticArgs<C extends DiagnosticCode> = { readonly [K in Placeholders<TemplatesOf<C>>]: string | number };
