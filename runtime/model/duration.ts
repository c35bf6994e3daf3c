/** A duration: milliseconds, `"250ms" "30s" "15m" "2h" "1d"` (combinable: `"1h30m"`), or ISO-8601 `"PT15M"`, `"P1DT2H"`. */
export type DurationInput = number | string;

const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const SHORT = /^(\d+(?:\.\d+)?)(ms|s|m|h|d|w)/;
const ISO = /^(-)?P(?:(\d+(?:\.\d+)?)W)?(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/i;

export class DurationSyntaxError extends Error {
  constructor(readonly input: unknown) {
    super(`not a duration: ${JSON.stringify(input)} (use milliseconds, "250ms", "30s", "15m", "2h", "1d" or ISO-8601 "PT15M")`);
    this.name = "DurationSyntaxError";
  }
}

/**
 * Parses a duration into milliseconds: a non-negative safe integer (a long digit string would
 * otherwise be Infinity, which JSON stores as null). The one parser: rules and config use it.
 */
export function parseDuration(input: DurationInput): number {
  if (typeof input !== "number" && typeof input !== "string") throw new DurationSyntaxError(input);
  const text = typeof input === "string" ? input.trim() : "";
  const ms = typeof input === "number" ? input : /^\d+$/.test(text) ? Number(text) : text.toUpperCase().startsWith("P") ? parseIso(text) : parseShort(text);
  if (ms === undefined || !(ms >= 0) || !Number.isSafeInteger(Math.round(ms))) throw new DurationSyntaxError(input);
  return Math.round(ms);
}

function parseShort(text: string): number | undefined {
  let rest = text.toLowerCase().replace(/\s+/g, "");
  if (rest === "") return undefined;
  let total = 0;
  while (rest !== "") {
    const match = SHORT.exec(rest);
    if (!match) return undefined;
    total += Number(match[1]) * UNIT_MS[match[2]!]!;
    rest = rest.slice(match[0].length);
  }
  return total;
}

function parseIso(text: string): number | undefined {
  const match = ISO.exec(text);
  if (!match || text.toUpperCase() === "P" || /T$/i.test(text)) return undefined;
  const [, negative, w, d, h, m, s] = match;
  if (negative) return undefined;
  const part = (value: string | undefined, unit: number) => (value === undefined ? 0 : Number(value) * unit);
  return part(w, UNIT_MS.w!) + part(d, UNIT_MS.d!) + part(h, UNIT_MS.h!) + part(m, UNIT_MS.m!) + part(s, UNIT_MS.s!);
}
