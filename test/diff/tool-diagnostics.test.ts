// Every WOW7xxx code, reported by the tool command line that causes it, printed with its hint.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { messages } from "../../compiler/diagnostics/messages.js";
import { toolCases } from "../tools/diagnostic-cases.js";
import { scratchDir, wowc } from "../tools/run-wowc.js";

describe("WOW7xxx: tool diagnostics", () => {
  it("has a case for every WOW7xxx code", () => {
    expect(toolCases.map((c) => c.code).sort()).toEqual(Object.keys(messages).filter((c) => c.startsWith("WOW7")).sort());
  });

  it.each(toolCases.map((c) => [c.code, c] as const))("%s", async (code, c) => {
    const { argv, cwd } = c.setup();
    const result = await wowc(argv, cwd);
    expect(result.code).toBe(c.exitCode);
    expect(result.stdout).toContain(`error ${code}: `);
    expect(result.stdout).not.toMatch(/\{[A-Za-z]+\}/);
  });
});

describe("wowc diff of a manifest that is not as wowc writes it", () => {
  // A manifest edited by hand, or cut, or from another manifest version: a WOW7001 that says
  // where, never an internal error (WOW9999) from deep in the comparison.
  const good = async () => {
    const dir = scratchDir("wowc-diff-input-");
    writeFileSync(join(dir, "a.wow"), "context shop\naggregate Cart {\n  command Pay {}\n  event Paid {}\n  @OnCommand(produces = [Paid])\n  on Pay\n}\n");
    expect((await wowc(["build", dir, "--out", join(dir, "out")], dir)).code).toBe(0);
    return { dir, manifest: JSON.parse(readFileSync(join(dir, "out", "wow-manifest.json"), "utf8")) as { manifestVersion: number; contexts: Record<string, Record<string, unknown>> } };
  };

  it.each([
    ["a map that is not an object", (m: { contexts: Record<string, Record<string, unknown>> }) => void (m.contexts.shop!.aggregates = 5), "it does not fit the manifest's schema at /contexts/shop/aggregates: must be object"],
    ["a context that is null", (m: { contexts: Record<string, unknown> }) => void (m.contexts.shop = null), "it does not fit the manifest's schema at /contexts/shop: must be object"],
    ["another manifest version", (m: { manifestVersion: number }) => void (m.manifestVersion = 2), "its manifestVersion is 2, and this wowc reads version 1"],
  ] as const)("%s", async (_, edit, reason) => {
    const { dir, manifest } = await good();
    writeFileSync(join(dir, "old.json"), JSON.stringify(manifest));
    edit(manifest as never);
    writeFileSync(join(dir, "new.json"), JSON.stringify(manifest));
    const result = await wowc(["diff", "old.json", "new.json"], dir);
    expect(result.code).toBe(2);
    expect(result.stdout).toContain(`error WOW7001: Cannot compare 'new.json': ${reason}`);
    expect(result.stderr).not.toContain("WOW9999");
  });
});
