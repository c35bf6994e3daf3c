// Parse results by path and content hash: in watch mode a rebuild re-parses only the files whose
// content changed (the binder and checker still see the whole program).
import { createHash } from "node:crypto";
import type { SourceFile } from "../ast.js";
import { parseFile, type ParsedFile } from "../parse/parse-file.js";

export class ParseCache {
  private readonly entries = new Map<string, { readonly hash: string; readonly parsed: ParsedFile }>();
  /** Files parsed (cache misses) since the last `takeParsedCount()`. */
  private parsed = 0;

  /** `CompileOptions.parse`: the cached result when the file's content is unchanged. */
  readonly parse = (source: SourceFile): ParsedFile => {
    const hash = createHash("sha1").update(source.text).digest("base64");
    const entry = this.entries.get(source.path);
    if (entry !== undefined && entry.hash === hash) return entry.parsed;
    const parsed = parseFile(source);
    this.entries.set(source.path, { hash, parsed });
    this.parsed++;
    return parsed;
  };

  takeParsedCount(): number {
    const count = this.parsed;
    this.parsed = 0;
    return count;
  }

  /** Forgets files that are no longer part of the build. */
  retain(paths: Iterable<string>): void {
    const keep = new Set(paths);
    for (const path of this.entries.keys()) if (!keep.has(path)) this.entries.delete(path);
  }
}
