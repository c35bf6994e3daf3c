// PostgreSQL for tests: the server the global setup found (or undefined: its suites skip), and schemas
// of random names (`wow_test_<random>`), each dropped after the suite that made it.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { withDefaultUser } from "../../runtime/store/postgres/options.js";
import { afterAll, inject } from "vitest";

/** The test server's URL, or undefined when none answers (the global setup said so once). */
export function postgresUrl(): string | undefined {
  return inject("postgres").url;
}

/** A schema name no other run uses. */
export function randomSchema(): string {
  return `wow_test_${randomBytes(6).toString("hex")}`;
}

const made: { url: string; schema: string }[] = [];
afterAll(async () => {
  const byUrl = new Map<string, string[]>();
  for (const { url, schema } of made.splice(0)) byUrl.set(url, [...(byUrl.get(url) ?? []), schema]);
  for (const [url, schemas] of byUrl) await dropSchemas(url, schemas);
});

/** A fresh schema name, dropped (with everything in it) after the suite. */
export function testSchema(url: string): string {
  const schema = randomSchema();
  made.push({ url, schema });
  return schema;
}

export async function dropSchemas(url: string, schemas: readonly string[]): Promise<void> {
  const client = new pg.Client({ connectionString: withDefaultUser(url) });
  await client.connect();
  try {
    for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}
