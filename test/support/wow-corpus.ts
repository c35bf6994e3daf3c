// The `.wow` files of the repository, and what the tests that hold two ways of reading them equal
// need: variants near the edge of well-formed, and a picture of a value that compares everything.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { SourceFile } from "../../compiler/ast.js";
import { mutateSource } from "./mutate-source.js";
import { mulberry32, pick, type Random } from "./random.js";

const repo = fileURLToPath(new URL("../../", import.meta.url));

export function repositoryWowFiles(): SourceFile[] {
  const paths = execFileSync("git", ["ls-files", "*.wow"], { cwd: repo, encoding: "utf8" }).split("\n").filter((path) => path !== "");
  return paths.map((path) => ({ path, text: readFileSync(`${repo}/${path}`, "utf8") }));
}

/**
 * A plain picture of `value`: objects as their keys in order with their values' pictures, an object
 * met before as the path where it was first met (so the sharing of nodes is compared too), the
 * source file as one word.
 */
export function picture(value: unknown, file: SourceFile): unknown {
  const seen = new Map<object, string>();
  const walk = (v: unknown, path: string): unknown => {
    if (v === file) return "<file>";
    if (typeof v !== "object" || v === null) return v === undefined ? "<undefined>" : v;
    const first = seen.get(v);
    if (first !== undefined) return { $same: first };
    seen.set(v, path);
    if (Array.isArray(v)) return v.map((item, i) => walk(item, `${path}/${i}`));
    return Object.entries(v).map(([key, item]) => [key, walk(item, `${path}/${key}`)]);
  };
  return walk(value, "");
}

/** Mutations near the edge of well-formed: a separator or a line break less, a token less or more. */
export function nearMiss(text: string, random: Random): string {
  const at = (pattern: RegExp): number[] => [...text.matchAll(pattern)].map((m) => m.index);
  const choice = Math.floor(random() * 4);
  if (choice === 0) {
    const places = at(/,/g);
    const i = places.length === 0 ? -1 : pick(random, places);
    return i < 0 ? text : text.slice(0, i) + text.slice(i + 1);
  }
  if (choice === 1) {
    const places = at(/\n/g);
    const i = places.length === 0 ? -1 : pick(random, places);
    return i < 0 ? text : `${text.slice(0, i)} ${text.slice(i + 1)}`;
  }
  return mutateSource(text, random);
}

/** `count` variants (`nearMiss`) of the files under 6,000 characters, from `seed`, each named after its file. */
export function variants(files: readonly SourceFile[], count: number, seed: number): SourceFile[] {
  const random = mulberry32(seed);
  const small = files.filter((file) => file.text.length < 6_000);
  const out: SourceFile[] = [];
  for (let n = 0; n < count; n++) {
    const base = pick(random, small);
    out.push({ path: `${base.path}#${n}`, text: nearMiss(base.text, random) });
  }
  return out;
}
