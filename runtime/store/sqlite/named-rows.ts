import type Database from "better-sqlite3";

/**
 * A reading statement whose rows come back as plain objects keyed by column name, built here from the
 * driver's arrays: the driver's own row objects are made property by property in native code and come
 * out slow to make and to read (about twice a raw row's cost on the timer claim's rows).
 */
export class NamedRows<P extends unknown[], R> {
  private readonly raw: Database.Statement<P, unknown[]>;
  private readonly named: (row: unknown[]) => R;

  constructor(statement: Database.Statement<P, R>) {
    this.named = rowBuilder<R>(statement.columns().map((column) => column.name));
    this.raw = statement.raw(true) as unknown as Database.Statement<P, unknown[]>;
  }

  get(...params: P): R | undefined {
    const row = this.raw.get(...params);
    return row === undefined ? undefined : this.named(row);
  }

  all(...params: P): R[] {
    return this.raw.all(...params).map(this.named);
  }
}

/**
 * `row => ({ name0: row[0], … })` for these column names, compiled once per statement: an object
 * literal is made in one step with one shape, where assigning the names in a loop costs about five
 * times as much per row. The names are the statement's own (written into the source as JSON strings);
 * a name given twice keeps its last column, as the driver's rows do.
 */
function rowBuilder<R>(names: readonly string[]): (row: unknown[]) => R {
  const last = new Map(names.map((name, i) => [name, i]));
  // In a literal, a `__proto__` key would set the prototype instead.
  if (last.has("__proto__")) throw new Error("a statement's column is named __proto__: rename it (AS …)");
  const fields = [...last].map(([name, i]) => `${JSON.stringify(name)}: row[${i}]`);
  return new Function("row", `return { ${fields.join(", ")} };`) as (row: unknown[]) => R;
}
