// `npm run bench:against -- --ref <git ref> --bench <name> [--runs N] [--fields a,b] [-- <the bench's own arguments>]`:
// the bench `test/bench/<name>.bench.ts` of this checkout and the same bench of `ref`'s code (its own
// script on its own runtime, in a temporary worktree: `tools/previous-tree.ts`), run in turn N times
// (default 3), so that both meet the same machine. For each field of the benches' last JSON lines (by
// default every number both print), the median of the pairs' ratios, oriented so that above 1 means
// this code is better: `this / previous` for a rate (`…_per_s…`) or a bench's own ratio or speed
// (`ratio_…`, `speed_…`), `previous / this` for anything else (times, memory). Prints a table, then one JSON object.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { argument, median, textArgument } from "./bench-args.js";
import { previousTree, repo } from "./tools/previous-tree.js";

// What follows `--` is the bench's; the options before it are this runner's.
const cut = process.argv.indexOf("--");
const passed = cut < 0 ? [] : process.argv.slice(cut + 1);
if (cut >= 0) process.argv = process.argv.slice(0, cut);
const ref = textArgument("ref");
const bench = textArgument("bench");
if (ref === undefined || bench === undefined) throw new Error("usage: npm run bench:against -- --ref <git ref> --bench <name> [--runs N] [--fields a,b] [-- <bench arguments>]");
const runs = argument("runs", 3);
const wanted = textArgument("fields")?.split(",");
const script = `test/bench/${bench}.bench.ts`;
if (!existsSync(join(repo, script))) throw new Error(`no bench ${script}`);

type Figures = Record<string, number>;

/** One run of the bench in `dir`: the numbers of its last line. */
function run(dir: string): Figures {
  const done = spawnSync(process.execPath, [join(repo, "node_modules/tsx/dist/cli.mjs"), script, ...passed], { cwd: dir, encoding: "utf8", maxBuffer: 64 * 1024 * 1024, stdio: ["ignore", "pipe", "inherit"] });
  const last = done.stdout.trim().split("\n").at(-1) ?? "";
  if (done.status !== 0 || !last.startsWith("{")) throw new Error(`${script} in ${dir} failed (exit ${done.status}): ${last.slice(0, 200)}`);
  const figures: Figures = {};
  for (const [key, value] of Object.entries(JSON.parse(last) as Record<string, unknown>)) if (typeof value === "number") figures[key] = value;
  return figures;
}

/** Rates (`…_per_s…`) and the benches' own ratios and speeds (`ratio_…`, `speed_…`) are better higher; times and sizes lower. */
const higherIsBetter = (field: string) => /_per_s(_|$)/.test(field) || /^(ratio|speed)_/.test(field);

const tree = previousTree(ref);
const current: Figures[] = [];
const previous: Figures[] = [];
try {
  for (let i = 0; i < runs; i++) {
    current.push(run(repo));
    previous.push(run(tree.dir));
  }
} finally {
  tree.remove();
}

// By default, every number both print that is not the same in every run (the benches echo their settings too).
const varies = (f: string) => new Set([...current, ...previous].map((x) => x[f])).size > 1;
const fields = (wanted ?? Object.keys(current[0]!).filter(varies)).filter((f) => current.every((c) => f in c) && previous.every((p) => f in p));
const rows = fields.map((field) => {
  const pairs = current.map((c, i) => {
    const [a, b] = [c[field]!, previous[i]![field]!];
    return higherIsBetter(field) ? a / b : b / a;
  });
  const finite = pairs.filter(Number.isFinite);
  // A ratio of zeros (a count that stayed 0 in both) says nothing: null.
  return { field, current: median(current.map((c) => c[field]!)), previous: median(previous.map((p) => p[field]!)), ratio: finite.length === 0 ? null : Number(median(finite).toFixed(3)), pairs };
});
console.log(`${script}: this code against ${ref}, ${runs} runs each, in turn; ratio above 1: this code is better (rates: this / previous; times and sizes: previous / this)`);
console.log(`${"field".padEnd(28)} ${"this".padStart(12)} ${ref.padStart(12)} ${"ratio".padStart(7)}  pairs`);
for (const r of rows) console.log(`${r.field.padEnd(28)} ${String(r.current).padStart(12)} ${String(r.previous).padStart(12)} ${(r.ratio === null ? "n/a" : r.ratio.toFixed(3)).padStart(7)}  ${r.pairs.map((p) => p.toFixed(3)).join(", ")}`);
console.log(JSON.stringify({ bench, previous_ref: ref, runs, ratios: Object.fromEntries(rows.map((r) => [r.field, r.ratio])) }));
