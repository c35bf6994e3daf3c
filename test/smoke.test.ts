import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";

describe("package", () => {
  it("exposes the three public entry points and the bin", () => {
    const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
    expect(Object.keys(pkg.exports)).toEqual(expect.arrayContaining([".", "./runtime", "./testing"]));
    expect(pkg.bin.wowc).toBe("dist/compiler/cli/main.js");
  });
});
