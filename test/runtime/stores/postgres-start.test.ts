// Five host processes started at once on an empty PostgreSQL schema: the schema is created once (its
// migrations under an advisory lock), no process fails, and every host serves.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { withDefaultUser } from "../../../runtime/store/postgres/options.js";
import { SCHEMA_VERSION } from "../../../runtime/store/postgres/schema.js";
import { postgresUrl, testSchema } from "../../support/postgres.js";

const PG_URL = postgresUrl();
const CHILD = fileURLToPath(new URL("../fixtures/pg-start-host.ts", import.meta.url));
const PROCESSES = 5;

/** Starts a host process; resolves with its port once it serves (or rejects with what it printed). */
function startHost(url: string, schema: string): { port: Promise<number>; kill: () => void } {
  const child = spawn(process.execPath, ["--import", "tsx", CHILD, url, schema], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const port = new Promise<number>((resolve, reject) => {
    child.stdout.on("data", (d) => {
      output += d;
      const serving = /serving (\d+)/.exec(output);
      if (serving) resolve(Number(serving[1]));
      if (/failed|error/.test(output)) reject(new Error(output));
    });
    child.stderr.on("data", (d) => (output += d));
    child.on("exit", (code) => reject(new Error(`exited with ${code}: ${output}`)));
  });
  return { port, kill: () => child.kill("SIGKILL") };
}

describe.skipIf(PG_URL === undefined)("concurrent start on PostgreSQL (real processes)", () => {
  it("5 hosts starting at once on an empty schema: one schema, no error, all serve", async () => {
    const url = PG_URL!;
    const schema = testSchema(url);
    const hosts = Array.from({ length: PROCESSES }, () => startHost(url, schema));
    try {
      const ports = await Promise.all(hosts.map((h) => h.port));
      for (const port of ports) {
        const response = await fetch(`http://127.0.0.1:${port}/wow/ready`);
        expect([response.status, await response.json()]).toEqual([200, { ready: true }]);
      }
      const client = new pg.Client({ connectionString: withDefaultUser(url) });
      await client.connect();
      try {
        const versions = await client.query(`SELECT version FROM "${schema}".wow_schema_version ORDER BY version`);
        expect(versions.rows.map((r: { version: number }) => r.version)).toEqual(Array.from({ length: SCHEMA_VERSION }, (_, i) => i + 1));
        const positions = await client.query(`SELECT last FROM "${schema}".wow_positions`);
        expect(positions.rows).toEqual([{ last: "0" }]);
      } finally {
        await client.end();
      }
    } finally {
      for (const h of hosts) h.kill();
    }
  });
});
