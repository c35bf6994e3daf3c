// What the benches share: reading `--name N` and `--name word` from the command line, and the median of
// samples. The hosts a bench makes log only warnings (WOW_LOG__LEVEL), so its output stays its table and JSON line.
process.env["WOW_LOG__LEVEL"] ??= "warn";

/** The integer after `--name` on the command line (at least `min`), or `fallback` without one. */
export function argument(name: string, fallback: number, min = 1): number {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(value) || value < min) throw new Error(`--${name} needs an integer ≥ ${min}`);
  return value;
}

/** The middle value (the upper one of an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** The word after `--name` on the command line, one of `choices`, or `fallback` without one. */
export function option<T extends string>(name: string, choices: readonly T[], fallback: T): T {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const value = process.argv[i + 1];
  if (!choices.includes(value as T)) throw new Error(`--${name} takes one of ${choices.join(", ")}${value === undefined ? "" : `, got ${value}`}`);
  return value as T;
}

/** The word after `--name` on the command line, or undefined without one. */
export function textArgument(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return undefined;
  const value = process.argv[i + 1];
  if (value === undefined || value.startsWith("--")) throw new Error(`--${name} needs a value`);
  return value;
}
