// Files under a directory, for tests and benches that compare or list what a build wrote.
import { readdirSync } from "node:fs";
import { join } from "node:path";

/** Every file under `dir` (absolute paths, sorted); directories for which `skip` says true are not entered. */
export function filesUnder(dir: string, skip: (name: string) => boolean = () => false): string[] {
  const out: string[] = [];
  const walk = (at: string): void => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) {
        if (!skip(entry.name)) walk(path);
      } else out.push(path);
    }
  };
  walk(dir);
  return out.sort();
}
