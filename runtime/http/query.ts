// A request's query parameters, read by name and checked: a bad value is a 400 naming the parameter
// and what it takes; a parameter a route does not know is refused (a typo must not be ignored).
import { ErrorCodes } from "../model/errors.js";
import { toEpochMs } from "../model/schedule-rule.js";
import { HttpError } from "./http-error.js";

export class Query {
  private readonly params: URLSearchParams;

  constructor(url: string | undefined, allowed: readonly string[]) {
    const at = (url ?? "").indexOf("?");
    this.params = new URLSearchParams(at < 0 ? "" : (url ?? "").slice(at + 1));
    for (const name of new Set(this.params.keys())) {
      if (!allowed.includes(name)) {
        const expected = allowed.length === 0 ? "this route takes none" : `expected ${allowed.join(", ")}`;
        throw new HttpError(400, ErrorCodes.IllegalArgument, `unknown query parameter ${JSON.stringify(name.slice(0, 60))}: ${expected}`);
      }
      if (this.params.getAll(name).length > 1) throw new HttpError(400, ErrorCodes.IllegalArgument, `query parameter ${name} is given more than once`);
    }
  }

  string(name: string, maxLength = 200): string | undefined {
    const value = this.params.get(name) ?? undefined;
    if (value !== undefined && (value.length === 0 || value.length > maxLength)) this.fail(name, `1 to ${maxLength} characters`);
    return value;
  }

  /** An integer in [min, max]. */
  integer(name: string, min: number, max: number): number | undefined {
    const value = this.params.get(name) ?? undefined;
    if (value === undefined) return undefined;
    const n = Number(value);
    if (!/^-?\d+$/.test(value) || !Number.isSafeInteger(n) || n < min || n > max) this.fail(name, `an integer from ${min} to ${max}`);
    return n;
  }

  oneOf<T extends string>(name: string, values: readonly T[]): T | undefined {
    const value = this.params.get(name) ?? undefined;
    if (value !== undefined && !values.includes(value as T)) this.fail(name, `one of ${values.join(", ")}`);
    return value as T | undefined;
  }

  /** An ISO-8601 instant with its offset, or epoch milliseconds. */
  instant(name: string): number | undefined {
    const value = this.params.get(name) ?? undefined;
    if (value === undefined) return undefined;
    try {
      return toEpochMs(/^\d+$/.test(value) ? Number(value) : value);
    } catch {
      return this.fail(name, "an ISO-8601 instant such as 2026-11-30T00:00:00Z, or epoch milliseconds");
    }
  }

  private fail(name: string, expected: string): never {
    throw new HttpError(400, ErrorCodes.IllegalArgument, `query parameter ${name}: expected ${expected}`);
  }
}

/** How the admin API writes times: ISO-8601 strings, or epoch milliseconds when the client asks (`?times=epoch`). */
export type TimeFormat = (ms: number) => string | number;

export function timeFormat(query: Query): TimeFormat {
  return query.oneOf("times", ["iso", "epoch"]) === "epoch" ? (ms) => ms : (ms) => new Date(ms).toISOString();
}
