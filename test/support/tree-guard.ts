// Vitest's global setup: the suite writes only into temporary directories. `git status --ignored`
// is read before the run and after it; an entry that is new afterwards fails the run, unless the
// table below allows it (what `npm run build` and `wowc build examples/eshop` write). Skipped with
// UPDATE_GOLDEN=1 (refreshing goldens writes into the tree on purpose) and outside a git checkout.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** What a run may add to the tree, each with the file that shows wowc wrote it (or undefined: anything). */
const allowed: readonly { readonly entry: string; readonly mark?: string }[] = [
  { entry: "dist/" }, // npm run build (the init and CLI tests compile the package)
  { entry: "node_modules/" },
  { entry: "examples/eshop/generated/", mark: ".wowc-files" }, // wowc build examples/eshop, with its list of the files it owns
];

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The entries of `git status --porcelain --ignored` (`?? path`, `!! path`, ` M path`), or undefined without git. */
function treeEntries(): Set<string> | undefined {
  try {
    const out = execFileSync("git", ["status", "--porcelain", "--ignored"], { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
    return new Set(out.split("\n").filter((line) => line !== ""));
  } catch {
    return undefined;
  }
}

export default function setup(): (() => void) | undefined {
  if (process.env["UPDATE_GOLDEN"] === "1") return undefined;
  const before = treeEntries();
  if (before === undefined) return undefined;
  const unmarked = (entry: string, mark: string): boolean => existsSync(join(ROOT, entry)) && !existsSync(join(ROOT, entry, mark));
  // A directory already there without its mark is the tree's state, not this run's doing.
  const unmarkedBefore = new Set(allowed.filter((a) => a.mark !== undefined && unmarked(a.entry, a.mark)).map((a) => a.entry));
  return () => {
    const problems: string[] = [];
    for (const line of treeEntries() ?? []) {
      if (before.has(line)) continue;
      const path = line.slice(3);
      const rule = allowed.find((a) => path === a.entry);
      if (rule === undefined) problems.push(`${line} (not in the tree before the run)`);
    }
    for (const { entry, mark } of allowed) {
      if (mark !== undefined && !unmarkedBefore.has(entry) && unmarked(entry, mark)) problems.push(`${entry} holds no ${mark}: it was not written by \`wowc build\`, which will refuse it (WOW6005)`);
    }
    if (problems.length === 0) return;
    // Vitest reports an error thrown here but keeps its exit status: set it too.
    process.exitCode = 1;
    throw new Error(`The tests wrote into the repository (tests write only into temporary directories):\n  ${problems.join("\n  ")}`);
  };
}
