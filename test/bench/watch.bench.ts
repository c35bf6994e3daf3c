// bench:watch — `wowc build --watch` on a 1,000-aggregate project (the synthetic project of the
// compile bench): the time of a rebuild after one file changed. Each round edits one command's doc
// comment in one file (so the manifest and that context's SDK change), waits for the rebuild on real
// file-system events and records the watcher's own timing of the build. Last line: one JSON object.
//   npm run bench:watch -- [--aggregates 1000] [--rounds 15]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Watcher, type RebuildReport } from "../../compiler/watch/watcher.js";
import { generate } from "./synthetic-project.js";
import { argument } from "./bench-args.js";


const percentile = (values: readonly number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))]!;
};

const aggregates = argument("aggregates", 1000);
const rounds = argument("rounds", 15);
const DEBOUNCE_MS = 20;
const sources = generate(aggregates);
const root = mkdtempSync(join(tmpdir(), "wowc-watch-bench-"));
for (const file of sources) {
  mkdirSync(dirname(join(root, file.path)), { recursive: true });
  writeFileSync(join(root, file.path), file.text);
}

let waiting: ((report: RebuildReport) => void) | undefined;
const watcher = new Watcher({
  root,
  debounceMs: DEBOUNCE_MS,
  onBuild: (report) => {
    if (report.parsed === 0 && report.number > 0) return; // an echo event of the same write
    const done = waiting;
    waiting = undefined;
    done?.(report);
  },
});
const initial = watcher.start();
if (!initial.ok) throw new Error(`the synthetic project has errors: ${initial.diagnostics[0]?.message}`);

const rows: Array<{ round: number; file: string; rebuildMs: number; latencyMs: number; parsed: number; written: number; phases: string }> = [];
for (let round = 1; round <= rounds; round++) {
  const file = sources[(round * 7) % sources.length]!;
  const text = file.text.replace(/\n(\s*)command /, `\n$1/** Edited in round ${round}. */\n$1command `);
  const next = new Promise<RebuildReport>((done) => (waiting = done));
  const started = performance.now();
  writeFileSync(join(root, file.path), text);
  const report = await next;
  rows.push({ round, file: file.path, rebuildMs: report.ms, latencyMs: performance.now() - started - DEBOUNCE_MS, parsed: report.parsed, written: report.written.length, phases: report.timings.map((t) => `${t.phase} ${t.ms.toFixed(0)}`).join(", ") });
  if (!report.ok) throw new Error(`round ${round}: ${report.diagnostics[0]?.message}`);
}
watcher.close();
rmSync(root, { recursive: true, force: true });

console.log(`wowc build --watch: ${aggregates} aggregates in ${sources.length} files; initial build ${Math.round(initial.ms)} ms; ${rounds} rebuilds after one changed file`);
console.log("| round | file | rebuild ms | write→done ms (minus debounce) | parsed | files written | phases (ms) |");
console.log("| ---: | --- | ---: | ---: | ---: | ---: | --- |");
for (const r of rows) console.log(`| ${r.round} | ${r.file} | ${r.rebuildMs.toFixed(1)} | ${r.latencyMs.toFixed(1)} | ${r.parsed} | ${r.written} | ${r.phases} |`);
const rebuild = rows.map((r) => r.rebuildMs);
const summary = {
  aggregates,
  files: sources.length,
  rounds,
  initial_build_ms: Math.round(initial.ms),
  rebuild_ms_p50: Number(percentile(rebuild, 0.5).toFixed(1)),
  rebuild_ms_max: Number(Math.max(...rebuild).toFixed(1)),
  latency_ms_p50: Number(percentile(rows.map((r) => r.latencyMs), 0.5).toFixed(1)),
  files_parsed_per_rebuild: Math.max(...rows.map((r) => r.parsed)),
  files_written: Number((rows.reduce((s, r) => s + r.written, 0) / rows.length).toFixed(1)),
  target_ms: 100,
  cpus: (await import("node:os")).cpus().length,
};
console.log(JSON.stringify(summary));
