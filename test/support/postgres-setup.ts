// Vitest's global setup: asks the test PostgreSQL server once whether it answers, and tells every suite
// (`inject("postgres")`). Without one, the PostgreSQL suites are skipped with one line saying so; with
// WOW_REQUIRE_POSTGRES=1 (CI) the run fails instead.
import pg from "pg";
import { withDefaultUser } from "../../runtime/store/postgres/options.js";
import type { TestProject } from "vitest/node";

export const DEFAULT_TEST_URL = "postgres://127.0.0.1:5432/test";

declare module "vitest" {
  export interface ProvidedContext {
    /** The test server's URL, when it answers. */
    postgres: { readonly url: string } | { readonly url?: undefined; readonly why: string };
  }
}

export default async function setup(project: TestProject): Promise<void> {
  const url = process.env["WOW_TEST_POSTGRES_URL"] ?? DEFAULT_TEST_URL;
  const client = new pg.Client({ connectionString: withDefaultUser(url), connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query("SELECT 1");
    project.provide("postgres", { url });
  } catch (error) {
    const why = `no PostgreSQL answers at ${url} (${(error as Error).message})`;
    if (process.env["WOW_REQUIRE_POSTGRES"] === "1") throw new Error(`WOW_REQUIRE_POSTGRES=1 but ${why}`);
    console.warn(`PostgreSQL suites skipped: ${why}; start a server there (or set WOW_TEST_POSTGRES_URL) to run them, WOW_REQUIRE_POSTGRES=1 to fail instead.`);
    project.provide("postgres", { why });
  } finally {
    await client.end().catch(() => undefined);
  }
}
