// An earlier commit's code beside this checkout, for a bench that compares the two in one run: a
// temporary git worktree at `ref` that shares this checkout's node_modules, its dist/ compiled there.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const repo = fileURLToPath(new URL("../../../", import.meta.url));

export interface PreviousTree {
  /** The worktree's root. */
  readonly dir: string;
  /** Removes the worktree (and its dist/). */
  remove(): void;
}

/** `ref`'s tree with its dist/ built by its own tsconfig.build.json (the console's bundle is not built). */
export function previousTree(ref: string): PreviousTree {
  const dir = mkdtempSync(join(tmpdir(), "wowc-bench-against-"));
  rmSync(dir, { recursive: true });
  execFileSync("git", ["worktree", "add", "--detach", dir, ref], { cwd: repo, stdio: "ignore" });
  const remove = (): void => void execFileSync("git", ["worktree", "remove", "--force", dir], { cwd: repo, stdio: "ignore" });
  try {
    symlinkSync(join(repo, "node_modules"), join(dir, "node_modules"));
    execFileSync(process.execPath, [join(repo, "node_modules/typescript/bin/tsc"), "-p", join(dir, "tsconfig.build.json")], { cwd: dir, stdio: "inherit" });
  } catch (error) {
    remove();
    throw error;
  }
  return { dir, remove };
}
