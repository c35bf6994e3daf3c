// Shared inputs of the formatter tests: fixtures, examples and grammar/REFERENCE.md snippets.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const fixturesDir = fileURLToPath(new URL("./fixtures/", import.meta.url));
const examplesDir = fileURLToPath(new URL("../../examples/eshop/", import.meta.url));

export const fixtureNames = readdirSync(fixturesDir)
  .filter((f) => f.endsWith(".in.wow"))
  .map((f) => f.slice(0, -".in.wow".length))
  .sort();

export const read = (path: string): string => readFileSync(path, "utf8");

/** [name, text] of every fixture input, golden output, example and complete REFERENCE.md snippet. */
export function allSources(): Array<readonly [string, string]> {
  const out: Array<readonly [string, string]> = [];
  for (const name of fixtureNames) {
    out.push([`${name}.in.wow`, read(`${fixturesDir}${name}.in.wow`)]);
    if (existsSync(`${fixturesDir}${name}.out.wow`)) out.push([`${name}.out.wow`, read(`${fixturesDir}${name}.out.wow`)]);
  }
  for (const f of readdirSync(examplesDir).filter((f) => f.endsWith(".wow")).sort()) out.push([`examples/eshop/${f}`, read(examplesDir + f)]);
  const reference = read(fileURLToPath(new URL("../../grammar/REFERENCE.md", import.meta.url)));
  const blocks = [...reference.matchAll(/```wow\n([\s\S]*?)```/g)].map((m) => m[1]!).filter((b) => !b.includes("…"));
  blocks.forEach((block, i) => out.push([`REFERENCE.md #${i}`, /^\s*(\/\/.*\n)*context /.test(block) ? block : `context ref\n${block}`]));
  return out;
}
