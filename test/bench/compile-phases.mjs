// @ts-check
// The in-process half of `npm run bench:compile`, run by compile.bench.ts in a plain `node` child
// (no tsx loader: the compiled dist/ modules exactly as `wowc` runs them). Reads the `.wow` files
// under a directory, warms up, then times lexing, parsing, bind + check and the whole pipeline
// (`compileSources(…, { manifest: false })`, what `wowc check` runs), each the median of several
// runs, in CPU time of the process (`process.cpuUsage`, all threads) and in wall time; in CPU time,
// also the fastest and the slowest run.
// Usage: node test/bench/compile-phases.mjs <dir> [runs]. Prints one JSON object.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";

const dist = new URL("../../dist/", import.meta.url);
const importStart = process.cpuUsage();
const { lexFile, parseTokens } = await import(new URL("compiler/parse/parse-file.js", dist).href);
const { compileSources } = await import(new URL("compiler/program/compile.js", dist).href);
const { IncrementalProgram } = await import(new URL("compiler/program/incremental.js", dist).href);
const importCpuMs = cpuMs(process.cpuUsage(importStart));

const root = process.argv[2];
const runs = Number(process.argv[3] ?? 7);
if (root === undefined || !Number.isInteger(runs) || runs < 1) throw new Error("usage: compile-phases.mjs <dir> [runs]");

/** @param {NodeJS.CpuUsage} usage */
function cpuMs(usage) {
  return (usage.user + usage.system) / 1000;
}

/** @param {number[]} values */
function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** @param {() => unknown} work */
function time(work) {
  const cpu = [];
  const wall = [];
  for (let r = 0; r < runs; r++) {
    const startCpu = process.cpuUsage();
    const start = performance.now();
    work();
    wall.push(performance.now() - start);
    cpu.push(cpuMs(process.cpuUsage(startCpu)));
  }
  // The fastest and slowest run beside the median: runs in one process differ by up to 2x (garbage
  // collection and V8's re-optimizations land in some runs and not others).
  return { cpuMs: median(cpu), wallMs: median(wall), cpuMinMs: Math.min(...cpu), cpuMaxMs: Math.max(...cpu) };
}

/** @type {{ path: string; text: string }[]} */
const sources = [];
/** @param {string} dir */
function walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path);
    else if (entry.name.endsWith(".wow")) sources.push({ path: relative(root, path).split(sep).join("/"), text: readFileSync(path, "utf8") });
  }
}
walk(root);
sources.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)); // as the binder expects
const bytes = sources.reduce((sum, file) => sum + Buffer.byteLength(file.text), 0);

// Sanity: the project is clean, so every phase does its full work.
const once = compileSources(sources, { manifest: false });
/** @type {{ severity: string; message: string }[]} */
const errors = once.diagnostics.filter((/** @type {{ severity: string }} */ d) => d.severity === "error");
if (errors.length > 0) throw new Error(`the project has errors: ${errors.slice(0, 3).map((d) => d.message).join("; ")}`);

// Warm up the JIT on the whole pipeline, then measure the whole, then each phase on its own. The
// whole runs first, with nothing else held: what `wowc check` runs. Each phase's inputs (the lexed
// tokens, the ASTs) are held only while that phase is measured, in a function of its own: kept for
// the rest of the run, they would make every later full GC mark ~35 MB that `wowc check` never holds.
for (let w = 0; w < 3; w++) compileSources(sources, { manifest: false });
const total = time(() => compileSources(sources, { manifest: false }));
const lex = time(() => sources.map(lexFile));
const parse = timeParse();
const checkPhase = timeCheck();

function timeParse() {
  const lexed = sources.map((file) => ({ file, lexed: lexFile(file) }));
  return time(() => lexed.map(({ file, lexed: l }) => parseTokens(file, l)));
}

/** Bind + check as a compile runs them: a fresh program each run, given the files already parsed. */
function timeCheck() {
  const parsed = new Map(sources.map((file) => [file.path, parseTokens(file, lexFile(file))]));
  const parse = (/** @type {{ path: string }} */ file) => parsed.get(file.path);
  return time(() => new IncrementalProgram().compile(sources, { manifest: false, parse }));
}

console.log(JSON.stringify({ files: sources.length, bytes, runs, importCpuMs, lex, parse, check: checkPhase, total }));
