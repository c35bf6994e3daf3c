// Build-level diagnostics (no source to point at): how each is provoked on disk.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build, type BuildResult } from "../../compiler/program/build.js";
import type { DiagnosticCode } from "../../compiler/diagnostics/messages.js";

export interface BuildCase {
  readonly code: DiagnosticCode;
  readonly title: string;
  readonly run: () => BuildResult;
  /** Where in a source it is reported (`path:line:col`), for a code that has a place. */
  readonly at?: string;
}

const clean = "context shop\naggregate A {\n  command C {}\n  event E {}\n  @OnCommand(produces = [E])\n  on C\n}\n";

export function tempDir(prefix = "wowc-test-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export const buildCases: readonly BuildCase[] = [
  {
    code: "WOW1014",
    title: "a file with 600 syntax errors (a missing ':' on each of 600 lines): the first 500 are reported, then where reading stopped",
    at: "noise.wow:501:12",
    run: () => {
      const root = tempDir();
      writeFileSync(join(root, "noise.wow"), `context shop\n${"type T { a int }\n".repeat(600)}`);
      return build({ root, write: false });
    },
  },
  {
    code: "WOW6001",
    title: "no .wow files under the directory",
    run: () => build({ root: tempDir(), write: false }),
  },
  {
    code: "WOW6002",
    title: "a source that cannot be read",
    run: () => build({ root: tempDir(), write: false, files: ["missing.wow"] }),
  },
  {
    code: "WOW6003",
    title: "the manifest cannot be written",
    run: () => {
      const root = tempDir();
      writeFileSync(join(root, "shop.wow"), clean);
      mkdirSync(join(root, "blocked"));
      writeFileSync(join(root, "blocked", "generated"), "a file where the output directory should be");
      return build({ root, outDir: join(root, "blocked", "generated"), write: true });
    },
  },
  {
    code: "WOW6004",
    title: "a source saved as Latin-1, not UTF-8 (\"café\" in a doc comment, with é as the byte 0xE9)",
    at: "latin1.wow:2:8",
    run: () => {
      const root = tempDir();
      writeFileSync(join(root, "latin1.wow"), Buffer.concat([Buffer.from("context shop\n/** caf"), Buffer.from([0xe9]), Buffer.from(" */\n" + clean.slice("context shop\n".length))]));
      return build({ root, write: false });
    },
  },
  {
    code: "WOW6005",
    title: "the output directory holds files wowc did not write",
    run: () => {
      const root = tempDir();
      writeFileSync(join(root, "shop.wow"), clean);
      mkdirSync(join(root, "src"));
      writeFileSync(join(root, "src", "index.ts"), "// the user's own code\n");
      return build({ root, outDir: join(root, "src"), write: true });
    },
  },
];

export const buildCaseCodes: readonly string[] = buildCases.map((c) => c.code);
