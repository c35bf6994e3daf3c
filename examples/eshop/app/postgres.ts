// The tour on PostgreSQL: its schema dropped before it starts (the tour begins on an empty store), and
// the server's URL as the timeline shows it (no password).
import { userInfo } from "node:os";
import pg from "pg";

export async function dropSchema(url: string, schema: string): Promise<void> {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(schema)) throw new Error(`not a schema name: ${schema}`);
  // A URL without a user connects as the operating system's, as psql (and the store) do.
  const withUser = new URL(url);
  if (withUser.username === "") withUser.username = process.env["PGUSER"] ?? process.env["USER"] ?? userInfo().username;
  const client = new pg.Client({ connectionString: withUser.toString() });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

export function redactedUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.password !== "") parsed.password = "***";
  return parsed.toString();
}
