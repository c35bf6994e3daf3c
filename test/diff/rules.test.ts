// One previous/current fixture pair per rule: the exact changes, their classification and source lines.
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { rules, type RuleId } from "../../compiler/diff/rules.js";
import { diffBuilt, fixturesDir, manifestOfDir } from "./helpers.js";

const cases = readdirSync(fixturesDir).filter((d) => /^[A-Z_]+$/.test(d)).sort();

describe("wowc diff rules", () => {
  it("has a fixture for every rule", () => {
    expect(cases).toEqual(Object.keys(rules).sort());
  });

  it.each(cases)("%s", (rule) => {
    const dir = `${fixturesDir}${rule}/`;
    const expected = JSON.parse(readFileSync(`${dir}expected.json`, "utf8")) as Array<{ rule: RuleId }>;
    const { changes, unaccepted } = diffBuilt(manifestOfDir(`${dir}previous`), manifestOfDir(`${dir}current`));
    expect(changes.map(({ rule, element, source, side }) => ({ rule, element, source, side }))).toEqual(expected);
    expect(changes.map((c) => c.category)).toEqual(expected.map((e) => rules[e.rule].category));
    expect(changes.some((c) => c.rule === rule)).toBe(true);
    expect(unaccepted).toBe(changes.filter((c) => c.category === "breaking").length);
  });

  it("reports nothing between a manifest and itself", () => {
    const manifest = manifestOfDir(`${fixturesDir}FIELD_ADDED/previous`);
    expect(diffBuilt(manifest, manifest).changes).toEqual([]);
  });
});
