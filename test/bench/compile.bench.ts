// `npm run bench:compile [-- --aggregates N]`: generates a synthetic project of N aggregates (default
// 1,000) in the proportions of examples/eshop — commands, events, schedules, sagas, jobs, spread over
// many contexts and files — then measures source MB/s for lexing, parsing, checking and in total
// (in-process), and a cold `wowc check` of the project (Node start included, compiled CLI).
// Prints a table, then one JSON object as the last line.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { bind } from "../../compiler/binder/bind.js";
import { check } from "../../compiler/checker/check.js";
import { Reporter } from "../../compiler/checker/reporter.js";
import { compileSources } from "../../compiler/program/compile.js";
import { lexFile, parseTokens } from "../../compiler/parse/parse-file.js";
import { AGGREGATES_PER_CONTEXT, generate } from "./synthetic-project.js";

function argument(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(value) || value < 2) throw new Error(`--${name} needs an integer ≥ 2`);
  return value;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function time(work: () => void, runs: number): number {
  const samples: number[] = [];
  for (let r = 0; r < runs; r++) {
    const start = performance.now();
    work();
    samples.push(performance.now() - start);
  }
  return median(samples);
}

const aggregates = argument("aggregates", 1000);
const runs = argument("runs", 5);
const sources = generate(aggregates);
const bytes = sources.reduce((sum, f) => sum + Buffer.byteLength(f.text), 0);
const mb = bytes / 1e6;

// Sanity: the project is clean, so every phase does its full work.
const once = compileSources(sources, { manifest: false });
const errors = once.diagnostics.filter((d) => d.severity === "error");
if (errors.length > 0) throw new Error(`the synthetic project has errors: ${errors.slice(0, 3).map((d) => d.message).join("; ")}`);

// Warm up the JIT, then measure each phase on its own and the whole pipeline.
for (let w = 0; w < 2; w++) compileSources(sources, { manifest: false });
const lexMs = time(() => void sources.map(lexFile), runs);
const lexed = sources.map((file) => ({ file, lexed: lexFile(file) }));
const parseMs = time(() => void lexed.map(({ file, lexed: l }) => parseTokens(file, l)), runs);
const asts = lexed.map(({ file, lexed: l }) => parseTokens(file, l).ast);
const checkMs = time(() => {
  const reporter = new Reporter();
  check(bind(asts, reporter), reporter, { complete: true });
}, runs);
const totalMs = time(() => void compileSources(sources, { manifest: false }), runs); // what `wowc check` runs

// Cold `wowc check`: Node start, module loading, reading the files, everything.
const dir = mkdtempSync(join(tmpdir(), "wowc-bench-"));
for (const file of sources) {
  mkdirSync(join(dir, file.path, ".."), { recursive: true });
  writeFileSync(join(dir, file.path), file.text);
}
const cli = fileURLToPath(new URL("../../dist/compiler/cli/main.js", import.meta.url));
const coldSamples: number[] = [];
for (let r = 0; r < 5; r++) {
  const start = performance.now();
  execFileSync(process.execPath, [cli, "check", dir], { stdio: "pipe" });
  coldSamples.push(performance.now() - start);
}
rmSync(dir, { recursive: true, force: true });
const coldMs = median(coldSamples);

const rate = (ms: number) => mb / (ms / 1000);
const result = {
  aggregates,
  files: sources.length,
  contexts: Math.ceil(aggregates / AGGREGATES_PER_CONTEXT),
  source_mb: Number(mb.toFixed(3)),
  lex_mb_per_s: Number(rate(lexMs).toFixed(2)),
  parse_mb_per_s: Number(rate(parseMs).toFixed(2)),
  check_mb_per_s: Number(rate(checkMs).toFixed(2)),
  total_mb_per_s: Number(rate(totalMs).toFixed(2)),
  ratio_to_lexing: Number((rate(totalMs) / rate(lexMs)).toFixed(3)),
  cold_check_ms: Math.round(coldMs),
  targets_met: rate(totalMs) >= 5 && coldMs < 1500,
};

const row = (name: string, ms: number, note = "") => `${name.padEnd(22)} ${ms.toFixed(1).padStart(9)} ms ${rate(ms).toFixed(2).padStart(9)} MB/s  ${note}`;
console.log(`wowc compile bench: ${aggregates} aggregates, ${sources.length} files, ${result.contexts} contexts, ${mb.toFixed(2)} MB (median of ${runs})`);
console.log(`${"phase".padEnd(22)} ${"time".padStart(12)} ${"rate".padStart(14)}`);
console.log(row("lex", lexMs));
console.log(row("parse (CST + AST)", parseMs));
console.log(row("bind + check", checkMs));
console.log(row("total (in-process)", totalMs, `ratio to lexing ${result.ratio_to_lexing}  (target ≥ 5 MB/s)`));
console.log(`${"cold wowc check".padEnd(22)} ${coldMs.toFixed(0).padStart(9)} ms ${"".padStart(14)}  (node dist/compiler/cli/main.js; target < 1500 ms)`);
console.log(JSON.stringify(result));
