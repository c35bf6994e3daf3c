// Every complete example of grammar/REFERENCE.md parses without diagnostics.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "./helpers.js";

const reference = readFileSync(new URL("../../grammar/REFERENCE.md", import.meta.url), "utf8");
const blocks = [...reference.matchAll(/```wow\n([\s\S]*?)```/g)].map((m) => m[1]!).filter((b) => !b.includes("…"));

describe("grammar/REFERENCE.md", () => {
  it("has examples", () => {
    expect(blocks.length).toBeGreaterThanOrEqual(8);
  });
  it.each(blocks.map((b, i) => [i, b] as const))("example %i parses", (_i, block) => {
    const text = /^\s*(\/\/.*\n)*context /.test(block) ? block : `context ref\n${block}`;
    expect(parse(text).diagnostics.map((d) => `${d.code} ${d.message}`)).toEqual([]);
  });
});
