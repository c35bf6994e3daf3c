import type Database from "better-sqlite3";

/** Rows per statement of a full chunk; a remainder goes in statements of 32, 16, … 1 rows. */
const CHUNK = 64;

/**
 * One statement over many rows, run a chunk of rows at a time: a statement call costs about as much as
 * the row it writes (binding, stepping, the result object), so rows written together go `CHUNK` per
 * call. `sql(rows)` is the statement for `rows` rows of `width` values each; statements are prepared on
 * first use, one per power-of-two row count.
 */
export class MultiRowStatement {
  private readonly statements = new Map<number, Database.Statement>();

  constructor(
    private readonly db: Database.Database,
    private readonly width: number,
    private readonly sql: (rows: number) => string,
  ) {}

  /** `INSERT … VALUES (…), (…), …`; `head`: `INSERT INTO table (columns…)`. */
  static insert(db: Database.Database, head: string, width: number): MultiRowStatement {
    const row = `(${new Array<string>(width).fill("?").join(", ")})`;
    return new MultiRowStatement(db, width, (rows) => `${head} VALUES ${new Array<string>(rows).fill(row).join(", ")}`);
  }

  /** Runs it over the rows whose values `values` holds one after another (`width` per row). */
  run(values: readonly unknown[]): void {
    const width = this.width;
    const rows = values.length / width;
    let row = 0;
    for (let size = CHUNK; size >= 1; size >>= 1) {
      for (; rows - row >= size; row += size) {
        const from = row * width;
        const statement = this.statement(size);
        // Spread, not one array argument: better-sqlite3 binds arguments directly, an array's items one lookup at a time.
        statement.run.apply(statement, values.length === size * width ? (values as unknown[]) : values.slice(from, from + size * width));
      }
    }
  }

  private statement(rows: number): Database.Statement {
    let statement = this.statements.get(rows);
    if (statement === undefined) {
      statement = this.db.prepare(this.sql(rows));
      this.statements.set(rows, statement);
    }
    return statement;
  }
}
