// One case per WOW7xxx code (the tools): the command line that reports it. test/diff runs them;
// the diagnostics table's meta-test and grammar/DIAGNOSTICS.md read them.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { scratchDir } from "./run-wowc.js";

export interface ToolCase {
  readonly code: string;
  readonly title: string;
  /** The `wowc` arguments, and the working directory they run in (prepared by `setup`). */
  readonly setup: () => { readonly argv: string[]; readonly cwd: string };
  readonly exitCode: number;
}

const project = (files: Record<string, string>): string => {
  const dir = scratchDir("wowc-tool-case-");
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
};

export const toolCases: readonly ToolCase[] = [
  {
    code: "WOW7001",
    title: "`wowc diff` of a file that is not a manifest",
    setup: () => ({ argv: ["diff", "old.json", "new.json"], cwd: project({ "old.json": "[1, 2]", "new.json": "{}" }) }),
    exitCode: 2,
  },
  {
    code: "WOW7002",
    title: "`wowc diff --against` a revision that does not exist",
    setup: () => ({ argv: ["diff", "--against", "no-such-branch"], cwd: project({ "a.wow": "context a\n" }) }),
    exitCode: 2,
  },
  {
    code: "WOW7003",
    title: "`wowc diff` of a source directory with errors",
    setup: () => ({ argv: ["diff", "old", "new"], cwd: project({ "old/a.wow": "context a\ntype T { x: int }\n", "new/a.wow": "context a\ntype T { x: nt }\n" }) }),
    exitCode: 2,
  },
  {
    code: "WOW7004",
    title: "`wowc diff` with a malformed wowc.diff.json",
    setup: () => ({
      argv: ["diff", "old", "new"],
      cwd: project({ "old/a.wow": "context a\ntype T { x: int }\n", "new/a.wow": "context a\ntype T { x: int }\n", "wowc.diff.json": '{ "accept": "everything" }' }),
    }),
    exitCode: 2,
  },
  {
    code: "WOW7101",
    title: "`wowc init` where a package.json exists",
    setup: () => ({ argv: ["init"], cwd: project({ "package.json": "{}\n" }) }),
    exitCode: 1,
  },
  {
    code: "WOW7102",
    title: "`wowc init --context` with a name that cannot be a context",
    setup: () => ({ argv: ["init", "--context", "My_Tasks"], cwd: scratchDir("wowc-tool-case-") }),
    exitCode: 2,
  },
  {
    code: "WOW7103",
    title: "`wowc init --name` with a name npm does not accept",
    setup: () => ({ argv: ["init", "--name", "My Package"], cwd: scratchDir("wowc-tool-case-") }),
    exitCode: 2,
  },
  {
    code: "WOW7104",
    title: "`wowc init --wowc` with a dependency npm cannot install",
    setup: () => ({ argv: ["init", "--wowc", "^^1.0"], cwd: scratchDir("wowc-tool-case-") }),
    exitCode: 2,
  },
  {
    code: "WOW7105",
    title: "`wowc init` where a file stands in place of the directory src/",
    setup: () => ({ argv: ["init", "--force"], cwd: project({ src: "not a directory\n" }) }),
    exitCode: 1,
  },
];

export const toolCaseCodes: readonly string[] = toolCases.map((c) => c.code);
