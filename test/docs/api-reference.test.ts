// The API reference in docs/api is what the sources' TSDoc says now: regenerated from them and
// compared, so a changed signature or comment without `npm run docs:api` fails here.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { apiReference } from "../../scripts/api-reference.js";

it("docs/api/runtime.md and docs/api/testing.md are as the sources write them (else: npm run docs:api)", async () => {
  const pages = await apiReference();
  expect([...pages.keys()].sort()).toEqual(["docs/api/runtime.md", "docs/api/testing.md"]);
  for (const [file, content] of pages) expect(readFileSync(join(process.cwd(), file), "utf8"), `${file} is stale: run npm run docs:api`).toBe(content);
}, 120_000);
