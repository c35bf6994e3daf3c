// The error `CronExpression.parse` throws: it names the field and points at the offending text, so
// the compiler can turn it into a diagnostic that underlines that text inside the string.

export type CronFieldName = "second" | "minute" | "hour" | "day-of-month" | "month" | "day-of-week" | "expression";

export class CronSyntaxError extends Error {
  override readonly name = "CronSyntaxError";
  /** The field at fault, or "expression" for the expression as a whole (field count, macros). */
  readonly field: CronFieldName;
  /** The offending text, exactly as written. */
  readonly text: string;
  /** UTF-16 offset of `text` within the expression string. */
  readonly offset: number;
  /** UTF-16 length of `text` (at least 1 unless the expression is empty). */
  readonly length: number;
  /** The explanation alone, without the position (the diagnostic's `detail`). */
  readonly detail: string;

  constructor(detail: string, field: CronFieldName, text: string, offset: number) {
    super(`${detail} (${field} at offset ${offset})`);
    this.detail = detail;
    this.field = field;
    this.text = text;
    this.offset = offset;
    this.length = text.length;
  }
}
