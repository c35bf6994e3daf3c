// The links of Markdown files, as GitHub renders them: `[text](target)`, `![alt](target)` and
// `[label]: target`, outside code blocks and code spans; a heading's anchor as GitHub makes it
// (lower case, punctuation dropped, spaces to `-`, `-1`, `-2`… for repeats), and `<a id>`/`<a name>`.
// Then what is wrong with them: a link that leaves the repository, names a file that is not there,
// or an anchor its file does not have; and words that point at documents outside the repository.
import { dirname, join, normalize, relative, sep } from "node:path";

export interface MarkdownLink {
  readonly line: number;
  readonly target: string;
}

/** Documents the repository once deferred to, which it does not hold. */
export const foreignDocuments: readonly string[] = ["../shared", "LANGUAGE.md", "SEMANTICS.md", "ANCHORS.md"];

/** Each line of `text` outside fenced code blocks, with its number: as written, and with its code spans blanked. */
function proseLines(text: string): { line: number; raw: string; text: string }[] {
  const out: { line: number; raw: string; text: string }[] = [];
  let fence: string | undefined;
  text.split("\n").forEach((line, i) => {
    const marker = /^\s*(```+|~~~+)/.exec(line)?.[1];
    if (marker !== undefined && (fence === undefined || marker.startsWith(fence))) {
      fence = fence === undefined ? marker : undefined;
      return;
    }
    if (fence === undefined) out.push({ line: i + 1, raw: line, text: line.replace(/(`+)[\s\S]*?\1/g, (m) => " ".repeat(m.length)) });
  });
  return out;
}

export function linksOf(text: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  for (const { line, text: prose } of proseLines(text)) {
    for (const m of prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) links.push({ line, target: m[1]! });
    const definition = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/.exec(prose);
    if (definition !== null) links.push({ line, target: definition[1]! });
  }
  return links;
}

/** GitHub's anchor of a heading's text. */
export function slug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/<[^>]+>/g, "")
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

/** The anchors a Markdown file has: its headings' (repeats numbered) and its explicit `<a id>`s. */
export function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const counts = new Map<string, number>();
  for (const { raw, text: prose } of proseLines(text)) {
    // A heading's code spans are part of its text (their backticks are dropped as punctuation).
    const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(raw);
    if (heading !== null) {
      const base = slug(heading[1]!);
      const seen = counts.get(base) ?? 0;
      counts.set(base, seen + 1);
      anchors.add(seen === 0 ? base : `${base}-${seen}`);
    }
    for (const m of prose.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(m[1]!);
  }
  return anchors;
}

export interface Tree {
  /** The text of a Markdown file (relative path, `/`-separated), or undefined when there is none. */
  markdown(path: string): string | undefined;
  /** Whether a file or directory exists at the relative path. */
  exists(path: string): boolean;
}

/** What is wrong in the Markdown file `path` (relative to the repository root), as `path:line: …`. */
export function problemsOf(path: string, text: string, tree: Tree): string[] {
  const problems: string[] = [];
  for (const word of foreignDocuments) {
    text.split("\n").forEach((line, i) => {
      if (line.includes(word)) problems.push(`${path}:${i + 1}: mentions ${word}, which is not in the repository`);
    });
  }
  for (const { line, target } of linksOf(text)) {
    const at = `${path}:${line}: ${target}`;
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) {
      problems.push(`${at}: links outside the repository`);
      continue;
    }
    const hash = target.indexOf("#");
    const file = decodeURIComponent(hash < 0 ? target : target.slice(0, hash));
    const anchor = hash < 0 ? undefined : decodeURIComponent(target.slice(hash + 1));
    const resolved = file === "" ? path : normalize(join(dirname(path), file)).split(sep).join("/").replace(/\/$/, "");
    if (resolved.startsWith("../") || resolved === ".." || relative(".", resolved).startsWith("..")) {
      problems.push(`${at}: leads out of the repository`);
      continue;
    }
    if (!tree.exists(resolved)) {
      problems.push(`${at}: no file ${resolved}`);
      continue;
    }
    if (anchor === undefined || anchor === "") continue;
    const markdown = resolved.endsWith(".md") ? tree.markdown(resolved) : undefined;
    if (markdown !== undefined && !anchorsOf(markdown).has(anchor)) problems.push(`${at}: ${resolved} has no heading #${anchor}`);
  }
  return problems;
}
