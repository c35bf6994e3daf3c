// Parses Spring `CronExpression` syntax into `CronFields`, reporting every error with the field
// and the exact text at fault. Follows Spring's rules: six fields, `?` only alone in a day field,
// `*` in day-of-week is 1-7 (so `*/2` is Mon Wed Fri Sun), `7` as a range start means Sunday (0),
// a single value with a step runs to the field's maximum (`5/15`), names are case-insensitive.
import type { CronFields, DayOfMonthRule, DayOfWeekRule } from "./fields.js";
import { CronSyntaxError, type CronFieldName } from "./syntax-error.js";

const MACROS: Readonly<Record<string, string>> = {
  "@yearly": "0 0 0 1 1 *",
  "@annually": "0 0 0 1 1 *",
  "@monthly": "0 0 0 1 * *",
  "@weekly": "0 0 0 * * 0",
  "@daily": "0 0 0 * * *",
  "@midnight": "0 0 0 * * *",
  "@hourly": "0 0 * * * *",
};

const MONTH_NAMES = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];
/** Spring numbers the days 1 (MON) to 7 (SUN) and also accepts 0 for Sunday. */
const DAY_NAMES = ["MON", "TUE", "WED", "THU", "FRI", "SAT", "SUN"];

interface FieldSpec {
  readonly name: CronFieldName;
  /** The range `*` stands for. */
  readonly min: number;
  readonly max: number;
  /** The smallest value that may be written (day-of-week accepts 0 although `*` starts at 1). */
  readonly lowest: number;
  readonly names?: readonly string[];
  /** Value of `names[0]`. */
  readonly firstNameValue?: number;
}

const SPECS: readonly FieldSpec[] = [
  { name: "second", min: 0, max: 59, lowest: 0 },
  { name: "minute", min: 0, max: 59, lowest: 0 },
  { name: "hour", min: 0, max: 23, lowest: 0 },
  { name: "day-of-month", min: 1, max: 31, lowest: 1 },
  { name: "month", min: 1, max: 12, lowest: 1, names: MONTH_NAMES, firstNameValue: 1 },
  { name: "day-of-week", min: 1, max: 7, lowest: 0, names: DAY_NAMES, firstNameValue: 1 },
];

/** A piece of the expression and where it starts in the original string. */
interface Piece {
  readonly text: string;
  readonly offset: number;
}

function fail(detail: string, field: CronFieldName, piece: Piece): never {
  throw new CronSyntaxError(detail, field, piece.text, piece.offset);
}

function sub(piece: Piece, start: number, end = piece.text.length): Piece {
  return { text: piece.text.slice(start, end), offset: piece.offset + start };
}

/** ASCII upper case keeps UTF-16 offsets unchanged (String#toUpperCase may not: "ß" → "SS"). */
function upper(text: string): string {
  return text.replace(/[a-z]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 32));
}

function describeRange(spec: FieldSpec): string {
  const names = spec.names === undefined ? "" : ` or ${spec.names[0]}-${spec.names[spec.names.length - 1]}`;
  return `${spec.lowest}-${spec.max}${names}`;
}

function parseNumber(piece: Piece, spec: FieldSpec, what: string): number {
  if (!/^[0-9]+$/.test(piece.text)) {
    fail(`${what} '${piece.text}' in ${spec.name} is not a number`, spec.name, piece);
  }
  return Number(piece.text);
}

function parseValue(piece: Piece, spec: FieldSpec): number {
  const text = upper(piece.text);
  let value: number;
  if (/^[0-9]+$/.test(text)) {
    value = Number(text);
  } else if (spec.names !== undefined && spec.names.includes(text)) {
    value = spec.names.indexOf(text) + (spec.firstNameValue ?? 0);
  } else if (text === "") {
    fail(`A value is missing in ${spec.name}`, spec.name, piece);
  } else if (text === "?") {
    fail(`'?' may only stand alone, and only in day-of-month or day-of-week`, spec.name, piece);
  } else {
    const names = spec.names === undefined ? "" : ` or a name (${spec.names.join(", ")})`;
    fail(`'${piece.text}' is not a valid ${spec.name}: expected a number ${describeRange(spec)}${names}`, spec.name, piece);
  }
  if (value < spec.lowest || value > spec.max) {
    fail(`${piece.text} is out of range for ${spec.name} (${describeRange(spec)})`, spec.name, piece);
  }
  return value;
}

/** `*`, `n`, `a-b`, each optionally `/step`: sets flags in `values` (indexed by value as written). */
function parseRangeItem(item: Piece, spec: FieldSpec, values: Uint8Array): void {
  const slash = item.text.indexOf("/");
  const rangePiece = slash < 0 ? item : sub(item, 0, slash);
  let step = 1;
  if (slash >= 0) {
    const stepPiece = sub(item, slash + 1);
    if (stepPiece.text === "") fail(`A step is missing after '/' in ${spec.name}`, spec.name, sub(item, slash, slash + 1));
    step = parseNumber(stepPiece, spec, "Step");
    if (step === 0) fail(`The step in '${item.text}' must be 1 or more`, spec.name, stepPiece);
  }
  let low: number;
  let high: number;
  const hyphen = rangePiece.text.indexOf("-");
  if (rangePiece.text === "*") {
    low = spec.min;
    high = spec.max;
  } else if (hyphen >= 0) {
    low = parseValue(sub(rangePiece, 0, hyphen), spec);
    high = parseValue(sub(rangePiece, hyphen + 1), spec);
    if (spec.name === "day-of-week" && low === 7) low = 0; // Sunday as a range start
    if (low > high) {
      fail(`The range '${rangePiece.text}' in ${spec.name} is reversed: write the smaller value first`, spec.name, rangePiece);
    }
  } else {
    low = parseValue(rangePiece, spec);
    high = slash >= 0 ? spec.max : low;
  }
  for (let v = low; v <= high; v += step) values[v] = 1;
}

function parseDayOfMonthRule(item: Piece, spec: FieldSpec): DayOfMonthRule {
  const text = upper(item.text);
  const l = text.lastIndexOf("L");
  if (l >= 0) {
    if (l !== 0) fail(`'L' must come first in day-of-month ('L', 'L-3' or 'LW'), not in '${item.text}'`, spec.name, item);
    if (text === "L") return { kind: "last", offset: 0 };
    if (text === "LW") return { kind: "last-weekday" };
    if (!text.startsWith("L-")) {
      fail(`'${item.text}' is not valid in day-of-month: after 'L' only '-n' (L-3) or 'W' (LW) may follow`, spec.name, item);
    }
    const offsetPiece = sub(item, 2);
    const offset = parseNumber(offsetPiece, spec, "The offset");
    if (offset < 1 || offset > 30) fail(`The offset in '${item.text}' must be 1-30 days before the last day`, spec.name, offsetPiece);
    return { kind: "last", offset };
  }
  const w = text.lastIndexOf("W");
  if (w === 0) fail(`'W' needs a day before it in day-of-month (15W = the weekday nearest the 15th)`, spec.name, item);
  if (w !== text.length - 1) fail(`Nothing may follow 'W' in '${item.text}' (write 15W or LW)`, spec.name, item);
  const dayPiece = sub(item, 0, w);
  const day = parseNumber(dayPiece, spec, "The day");
  if (day < 1 || day > 31) fail(`${dayPiece.text} is out of range for day-of-month (1-31)`, spec.name, dayPiece);
  return { kind: "nearest-weekday", day };
}

function parseWeekday(piece: Piece, spec: FieldSpec, example: string): number {
  if (piece.text === "") fail(`A weekday is missing in '${example}'`, spec.name, piece);
  return parseValue(piece, spec) % 7;
}

function parseDayOfWeekRule(item: Piece, spec: FieldSpec): DayOfWeekRule {
  const text = upper(item.text);
  if (text.endsWith("L")) {
    if (text.length === 1) {
      fail(`'L' in day-of-week needs a weekday before it (5L or FRIL = the last Friday); for the last day of the month put L in day-of-month`, spec.name, item);
    }
    return { kind: "last-in-month", weekday: parseWeekday(sub(item, 0, text.length - 1), spec, item.text) };
  }
  const hash = text.lastIndexOf("#");
  if (hash === 0) fail(`'#' needs a weekday before it (MON#2 = the second Monday)`, spec.name, item);
  const nthPiece = sub(item, hash + 1);
  if (nthPiece.text === "") fail(`'#' needs an ordinal after it (MON#2 = the second Monday)`, spec.name, item);
  const weekday = parseWeekday(sub(item, 0, hash), spec, item.text);
  const nth = parseNumber(nthPiece, spec, "The ordinal");
  if (nth < 1 || nth > 5) fail(`The ordinal in '${item.text}' must be 1-5 (a month has at most five of each weekday)`, spec.name, nthPiece);
  return { kind: "nth-in-month", weekday, nth };
}

interface ParsedField {
  readonly values: Uint8Array;
  readonly dayOfMonthRules: DayOfMonthRule[];
  readonly dayOfWeekRules: DayOfWeekRule[];
}

function parseField(piece: Piece, spec: FieldSpec): ParsedField {
  const values = new Uint8Array(spec.max + 1);
  const field: ParsedField = { values, dayOfMonthRules: [], dayOfWeekRules: [] };
  const isDayOfMonth = spec.name === "day-of-month";
  const isDayOfWeek = spec.name === "day-of-week";
  if (piece.text === "?" && (isDayOfMonth || isDayOfWeek)) {
    for (let v = spec.min; v <= spec.max; v++) values[v] = 1;
    return field;
  }
  let start = 0;
  for (const part of piece.text.split(",")) {
    const item = sub(piece, start, start + part.length);
    start += part.length + 1;
    if (part === "") fail(`An empty item in the list '${piece.text}' of ${spec.name}`, spec.name, item.offset > piece.offset ? { text: ",", offset: item.offset - 1 } : { text: ",", offset: item.offset });
    const text = upper(part);
    // Spring reads 'L' and 'W' of day-of-month in capitals only (its names and day-of-week in any case).
    if (isDayOfMonth && /[lw]/.test(part)) fail(`Write 'L' and 'W' in capitals in day-of-month: '${part}'`, spec.name, item);
    if (isDayOfMonth && /[LW]/.test(text)) field.dayOfMonthRules.push(parseDayOfMonthRule(item, spec));
    else if (isDayOfWeek && (text.includes("#") || text.endsWith("L"))) field.dayOfWeekRules.push(parseDayOfWeekRule(item, spec));
    else parseRangeItem(item, spec, values);
  }
  return field;
}

function resolveMacro(trimmed: Piece): string {
  const expansion = MACROS[trimmed.text.toLowerCase()];
  if (expansion === undefined) {
    fail(`Unknown macro '${trimmed.text}': use one of ${Object.keys(MACROS).join(", ")}`, "expression", trimmed);
  }
  return expansion;
}

/**
 * The fields, separated by spaces. Spring splits on spaces only, so another white-space character
 * between fields (a tab) is refused, at its position, rather than read as a separator.
 */
function splitFields(expression: string): Piece[] {
  const start = expression.length - expression.trimStart().length;
  const inner = /\s/.exec(expression.trim().replace(/ /g, "x"));
  if (inner !== null) {
    const found = expression[start + inner.index]!;
    const name = found === "\t" ? "a tab" : `the character U+${found.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`;
    fail(`Fields are separated by spaces, and ${name} stands between two here`, "expression", { text: found, offset: start + inner.index });
  }
  const pieces: Piece[] = [];
  for (const match of expression.matchAll(/[^ ]+/g)) if (match[0].trim() !== "") pieces.push({ text: match[0].trim(), offset: (match.index ?? 0) + (match[0].length - match[0].trimStart().length) });
  return pieces;
}

/**
 * The longest expression parsed. Every field written out as a list of all its values takes about 530
 * characters; a longer text says nothing more, and parsing it would cost time on the request path.
 */
export const MAX_EXPRESSION_LENGTH = 1024;

export function parseCronFields(expression: string): CronFields {
  if (expression.length > MAX_EXPRESSION_LENGTH) {
    fail(`A cron expression has at most ${MAX_EXPRESSION_LENGTH} characters, this one has ${expression.length}`, "expression", { text: expression.slice(MAX_EXPRESSION_LENGTH, MAX_EXPRESSION_LENGTH + 16), offset: MAX_EXPRESSION_LENGTH });
  }
  const start = expression.length - expression.trimStart().length;
  const trimmed: Piece = { text: expression.trim(), offset: start };
  if (trimmed.text === "") {
    fail("The cron expression is empty: write six fields, second minute hour day-of-month month day-of-week", "expression", trimmed);
  }
  const pieces = trimmed.text.startsWith("@") ? splitFields(resolveMacro(trimmed)) : splitFields(expression);
  if (pieces.length !== 6) {
    const hint =
      pieces.length === 5
        ? ` (Spring cron starts with a seconds field: did you mean "0 ${trimmed.text}"?)`
        : "";
    fail(
      `A cron expression has six fields (second minute hour day-of-month month day-of-week), found ${pieces.length}${hint}`,
      "expression",
      trimmed,
    );
  }
  const [second, minute, hour, dayOfMonth, month, dayOfWeek] = pieces.map((piece, i) => parseField(piece, SPECS[i]!)) as [ParsedField, ParsedField, ParsedField, ParsedField, ParsedField, ParsedField];
  const weekdays = new Uint8Array(7);
  dayOfWeek.values.forEach((allowed, v) => {
    if (allowed) weekdays[v % 7] = 1;
  });
  return {
    second: second.values,
    minute: minute.values,
    hour: hour.values,
    dayOfMonth: dayOfMonth.values,
    dayOfMonthRules: dayOfMonth.dayOfMonthRules,
    month: month.values,
    dayOfWeek: weekdays,
    dayOfWeekRules: dayOfWeek.dayOfWeekRules,
  };
}
