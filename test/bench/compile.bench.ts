// `npm run bench:compile [-- --aggregates N --runs R --cold-runs C]`: generates a synthetic project
// of N aggregates (default 1,000) in the proportions of examples/eshop — commands, events,
// schedules, sagas, jobs, spread over many contexts and files — writes it to a temporary directory,
// then measures, on the compiled dist/ modules under plain `node` (never tsx-transpiled sources):
//  - in-process (compile-phases.mjs, in a child `node`): source MB/s for lexing, parsing, bind +
//    check and the whole check pipeline, after a warm-up, median of R runs (default 7), with the
//    fastest and slowest run of the whole;
//  - cold `node dist/compiler/cli/main.js check <dir>` (Node start included), median of C runs
//    (default 7), interleaved with runs of a bare `node -e 0` as the baseline of Node's own start.
// The machine may be shared, so both CPU time and wall time are measured. The JSON's MB/s figures
// are from CPU time (process.cpuUsage, all threads: load from other processes does not inflate it);
// `cold_check_ms` is wall time (what a user waits), with `cold_check_cpu_ms` beside it.
// Prints a table, then one JSON object as the last line.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { AGGREGATES_PER_CONTEXT, generate } from "./synthetic-project.js";
import { argument, median } from "./bench-args.js";



interface Timing {
  readonly cpuMs: number;
  readonly wallMs: number;
}

/** An in-process phase: the median run, and in CPU time the fastest and the slowest. */
interface PhaseTiming extends Timing {
  readonly cpuMinMs: number;
  readonly cpuMaxMs: number;
}

interface PhaseReport {
  readonly files: number;
  readonly bytes: number;
  readonly importCpuMs: number;
  readonly lex: PhaseTiming;
  readonly parse: PhaseTiming;
  readonly check: PhaseTiming;
  readonly total: PhaseTiming;
}

/** CPU time (ms) used so far by this process's finished, waited-for children (Linux; else NaN). */
function childrenCpuMs(): number {
  try {
    const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1]!.split(" ");
    return ((Number(fields[13]) + Number(fields[14])) * 1000) / 100; // cutime + cstime, in 1/100 s
  } catch {
    return NaN;
  }
}

/** Runs `node …args` to completion: wall and CPU time (the child's user + system). */
function runNode(args: string[]): Timing {
  const cpuBefore = childrenCpuMs();
  const start = performance.now();
  execFileSync(process.execPath, args, { stdio: "pipe" });
  const wallMs = performance.now() - start;
  return { wallMs, cpuMs: childrenCpuMs() - cpuBefore };
}

const aggregates = argument("aggregates", 1000, 2);
const runs = argument("runs", 7, 1);
const coldRuns = argument("cold-runs", 7, 1);
const sources = generate(aggregates);

const dir = mkdtempSync(join(tmpdir(), "wowc-bench-"));
let phases: PhaseReport;
const cold: Timing[] = [];
const bare: Timing[] = [];
try {
  for (const file of sources) {
    mkdirSync(join(dir, file.path, ".."), { recursive: true });
    writeFileSync(join(dir, file.path), file.text);
  }
  const driver = fileURLToPath(new URL("./compile-phases.mjs", import.meta.url));
  phases = JSON.parse(execFileSync(process.execPath, [driver, dir, String(runs)], { encoding: "utf8", maxBuffer: 1 << 20 })) as PhaseReport;

  const cli = fileURLToPath(new URL("../../dist/compiler/cli/main.js", import.meta.url));
  runNode([cli, "check", dir]); // warm the file system cache
  for (let r = 0; r < coldRuns; r++) {
    bare.push(runNode(["-e", "0"]));
    cold.push(runNode([cli, "check", dir]));
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const mb = phases.bytes / 1e6;
const rate = (ms: number) => mb / (ms / 1000);
const coldWall = median(cold.map((t) => t.wallMs));
const coldCpu = median(cold.map((t) => t.cpuMs));
const bareWall = median(bare.map((t) => t.wallMs));
const bareCpu = median(bare.map((t) => t.cpuMs));
const result = {
  aggregates,
  files: phases.files,
  contexts: Math.ceil(aggregates / AGGREGATES_PER_CONTEXT),
  source_mb: Number(mb.toFixed(3)),
  time_basis: "cpu",
  lex_mb_per_s: Number(rate(phases.lex.cpuMs).toFixed(2)),
  parse_mb_per_s: Number(rate(phases.parse.cpuMs).toFixed(2)),
  check_mb_per_s: Number(rate(phases.check.cpuMs).toFixed(2)),
  total_mb_per_s: Number(rate(phases.total.cpuMs).toFixed(2)),
  // The slowest and the fastest of the in-process runs of the whole pipeline.
  total_mb_per_s_range: [Number(rate(phases.total.cpuMaxMs).toFixed(2)), Number(rate(phases.total.cpuMinMs).toFixed(2))],
  ratio_to_lexing: Number((phases.lex.cpuMs / phases.total.cpuMs).toFixed(3)),
  total_wall_mb_per_s: Number(rate(phases.total.wallMs).toFixed(2)),
  cold_check_ms: Math.round(coldWall),
  cold_check_cpu_ms: Math.round(coldCpu),
  node_start_ms: Math.round(bareWall),
  node_start_cpu_ms: Math.round(bareCpu),
  targets_met: rate(phases.total.cpuMs) >= 5 && coldWall < 1500,
};

const row = (name: string, t: Timing, note = "") =>
  `${name.padEnd(22)} ${t.cpuMs.toFixed(1).padStart(9)} ms ${rate(t.cpuMs).toFixed(2).padStart(8)} MB/s ${t.wallMs.toFixed(1).padStart(9)} ms ${rate(t.wallMs).toFixed(2).padStart(8)} MB/s  ${note}`;
const coldRow = (name: string, cpuMs: number, wallMs: number, note: string) =>
  `${name.padEnd(22)} ${cpuMs.toFixed(0).padStart(9)} ms ${"".padStart(13)} ${wallMs.toFixed(0).padStart(9)} ms ${"".padStart(13)}  ${note}`;
console.log(`wowc compile bench: ${aggregates} aggregates, ${phases.files} files, ${result.contexts} contexts, ${mb.toFixed(2)} MB; dist/ under plain node; median of ${runs} (in-process) and ${coldRuns} (cold)`);
console.log(`${"phase".padEnd(22)} ${"CPU time".padStart(12)} ${"rate".padStart(13)} ${"wall time".padStart(12)} ${"rate".padStart(13)}`);
console.log(row("lex", phases.lex));
console.log(row("parse (CST + AST)", phases.parse));
console.log(row("bind + check", phases.check));
console.log(row("total (in-process)", phases.total, `ratio to lexing ${result.ratio_to_lexing}  (target ≥ 5 MB/s, CPU)`));
console.log(`${"  runs range".padEnd(22)} ${`${phases.total.cpuMinMs.toFixed(0)}-${phases.total.cpuMaxMs.toFixed(0)}`.padStart(9)} ms ${`${result.total_mb_per_s_range.join("-")}`.padStart(13)}       (fastest and slowest of the ${runs} in-process runs)`);
console.log(coldRow("cold wowc check", coldCpu, coldWall, "(node dist/compiler/cli/main.js check; target < 1500 ms wall)"));
console.log(coldRow("  of which node -e 0", bareCpu, bareWall, `(Node's own start; module import in-process: ${phases.importCpuMs.toFixed(0)} ms CPU)`));
console.log(JSON.stringify(result));
