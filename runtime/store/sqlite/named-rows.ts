import type Database from "better-sqlite3";

/**
 * A reading statement whose rows come back as plain objects keyed by column name, built here from the
 * driver's arrays: the driver's own row objects are made property by property in native code and come
 * out slow to make and to read (about twice a raw row's cost on the timer claim's rows).
 */
export class NamedRows<P extends unknown[], R> {
  private readonly raw: Database.Statement<P, unknown[]>;
  private readonly names: readonly string[];

  constructor(statement: Database.Statement<P, R>) {
    this.names = statement.columns().map((column) => column.name);
    this.raw = statement.raw(true) as unknown as Database.Statement<P, unknown[]>;
  }

  get(...params: P): R | undefined {
    const row = this.raw.get(...params);
    return row === undefined ? undefined : this.named(row);
  }

  all(...params: P): R[] {
    const rows = this.raw.all(...params);
    const named = new Array<R>(rows.length);
    for (let i = 0; i < rows.length; i++) named[i] = this.named(rows[i]!);
    return named;
  }

  /** Every object gets its keys in the same order, so they share one shape. */
  private named(row: unknown[]): R {
    const names = this.names;
    const object: Record<string, unknown> = {};
    for (let i = 0; i < names.length; i++) object[names[i]!] = row[i];
    return object as R;
  }
}
