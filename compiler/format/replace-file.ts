// How `wowc fmt` writes a source back: the user's file, so an interrupted write (a full disk, a
// killed process) must leave the old content or the new one, never a file cut short.
import { chmodSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";

/**
 * Replaces the content of the file at `path` with `text`: written to a temporary file beside it,
 * given its mode, then renamed over it. Through a symbolic link, the link's target is replaced and
 * the link stays.
 */
export function replaceFile(path: string, text: string): void {
  const target = realpathSync(path);
  const { mode } = statSync(target);
  const temporary = join(dirname(target), `.${basename(target)}.wowc-${process.pid}.tmp`);
  writeFileSync(temporary, text, { flag: "wx" }); // never over a file that is not ours
  try {
    chmodSync(temporary, mode & 0o7777);
    renameSync(temporary, target);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}
