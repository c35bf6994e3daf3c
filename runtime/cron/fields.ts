// What a parsed cron expression allows, field by field: flag arrays indexed by value, plus the
// special day rules (`L`, `L-n`, `LW`, `nW`, `nL`, `n#k`) that depend on the month.

/** Day-of-month rules that are not a plain set of days. */
export type DayOfMonthRule =
  | { readonly kind: "last"; readonly offset: number } // `L` (offset 0) and `L-n`
  | { readonly kind: "last-weekday" } // `LW`
  | { readonly kind: "nearest-weekday"; readonly day: number }; // `nW`

/** Day-of-week rules that are not a plain set of weekdays. `weekday`: 0 = Sunday … 6 = Saturday. */
export type DayOfWeekRule =
  | { readonly kind: "last-in-month"; readonly weekday: number } // `nL`
  | { readonly kind: "nth-in-month"; readonly weekday: number; readonly nth: number }; // `n#k`

export interface CronFields {
  /** Index = value; 1 when allowed. second/minute: 0-59, hour: 0-23. */
  readonly second: Uint8Array;
  readonly minute: Uint8Array;
  readonly hour: Uint8Array;
  /** Index 1-31 (index 0 unused). A day matches when flagged or when a rule picks it. */
  readonly dayOfMonth: Uint8Array;
  readonly dayOfMonthRules: readonly DayOfMonthRule[];
  /** Index 1-12 (index 0 unused). */
  readonly month: Uint8Array;
  /** Index 0-6, 0 = Sunday. A day matches when flagged or when a rule picks it. */
  readonly dayOfWeek: Uint8Array;
  readonly dayOfWeekRules: readonly DayOfWeekRule[];
}
