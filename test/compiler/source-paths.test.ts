// Source paths given by an API caller (`build({ files })`) are normalized as the walk's are.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { build } from "../../compiler/program/build.js";
import { toJsonDiagnostic } from "../../compiler/diagnostics/format.js";
import { tempDir } from "./build-cases.js";

const clean = "context shop\naggregate A {\n  command C {}\n  event E {}\n  @OnCommand(produces = [E])\n  on C\n}\n";
const other = "context shop\naggregate B {\n  command D {}\n  event F {}\n  @OnCommand(produces = [F])\n  on D\n}\n";

function project(): string {
  const root = join(tempDir(), "root");
  mkdirSync(join(root, "sub"), { recursive: true });
  writeFileSync(join(root, "order.wow"), clean);
  writeFileSync(join(root, "sub", "a.wow"), other);
  return root;
}

describe("source paths given to build", () => {
  it("M3: `./x`, `sub\\x`, an absolute path inside the root and a repeat are one source, written to the manifest as the walk writes it", () => {
    const root = project();
    const given = build({ root, write: true, files: ["./order.wow", "order.wow", "sub\\a.wow", join(root, "sub", "a.wow"), "sub/../sub/a.wow"] });
    expect(given.diagnostics).toEqual([]);
    expect(given.sourceCount).toBe(2);
    const walked = build({ root, write: false, manifest: true });
    expect(readFileSync(given.manifestPath, "utf8")).not.toContain("./order.wow");
    expect(given.manifest).toEqual(walked.manifest);
  });

  it("M3: a path outside the root is a WOW6002 naming it, not read", () => {
    const root = project();
    writeFileSync(join(root, "..", "outside.wow"), clean);
    const result = build({ root, write: false, files: ["order.wow", "../outside.wow"] });
    expect(result.diagnostics.map(toJsonDiagnostic)).toEqual([
      expect.objectContaining({ code: "WOW6002", file: "../outside.wow", message: expect.stringContaining("outside the build root") }),
    ]);
    expect(result.sourceCount).toBe(1);
  });
});
