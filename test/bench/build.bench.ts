// `npm run bench:build [-- --aggregates N]`: the synthetic project of bench:compile (default 1,000
// aggregates), a cold full `wowc build` (compiled CLI under plain node: check + manifest + SDK +
// config, written) against a cold `tsc --noEmit` of the generated SDK, in the same run; then a
// rebuild with nothing changed, counting the files it wrote (by modification time). Each is run
// `--runs N` times (default 3) and reported as the median of its wall time and of its CPU time
// (user + system, read by the preload cpu-usage.mjs): on a shared, loaded machine the wall time
// measures the neighbours too, so `ratio_to_tsc` is the ratio of CPU times, and the wall-time ratio
// is printed beside it. With `--against <git ref>`, the same cold build by that commit's code (built
// in a temporary worktree) alternates with this code's, pair by pair: `speed_vs_previous` is the
// median of the pairs' CPU ratios (previous / this; above 1 is faster). Prints a table, then one
// JSON object as the last line.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { filesUnder } from "../support/files.js";
import { generate } from "./synthetic-project.js";
import { argument, median, textArgument } from "./bench-args.js";
import { previousTree, repo } from "./tools/previous-tree.js";



interface Sample {
  readonly ms: number;
  readonly cpuMs: number;
}

const cpuPreload = fileURLToPath(new URL("./cpu-usage.mjs", import.meta.url));

/** Runs `node <args>` and measures its wall time and (through the preload) its CPU time. */
function timed(args: string[], cpuFile: string): Sample {
  const start = performance.now();
  execFileSync(process.execPath, ["--import", cpuPreload, ...args], { encoding: "utf8", maxBuffer: 1 << 26, env: { ...process.env, WOWC_BENCH_CPU_FILE: cpuFile } });
  const ms = performance.now() - start;
  return { ms, cpuMs: Number(readFileSync(cpuFile, "utf8")) };
}

function medians(samples: readonly Sample[]): Sample {
  return { ms: median(samples.map((s) => s.ms)), cpuMs: median(samples.map((s) => s.cpuMs)) };
}

function snapshot(dir: string): Map<string, number> {
  return new Map(filesUnder(dir).map((path) => [path, statSync(path).mtimeMs]));
}

/** The CLI of `ref`'s code, compiled in a temporary worktree that shares this checkout's node_modules. */
function previousCli(ref: string): { readonly cli: string; remove(): void } {
  const tree = previousTree(ref);
  return { cli: join(tree.dir, "dist/compiler/cli/main.js"), remove: tree.remove };
}

const aggregates = argument("aggregates", 1000);
const against = textArgument("against");
const runs = argument("runs", 3);
const cli = join(repo, "dist/compiler/cli/main.js");
const tsc = join(repo, "node_modules/typescript/bin/tsc");
const root = mkdtempSync(join(tmpdir(), "wowc-build-bench-"));
try {
  const sources = generate(aggregates);
  for (const file of sources) {
    mkdirSync(join(root, file.path, ".."), { recursive: true });
    writeFileSync(join(root, file.path), file.text);
  }
  const out = join(root, "generated");
  const cpuFile = join(root, ".cpu-ms");
  // Cold builds into a fresh output directory each time: everything generated and written.
  const buildSamples: Sample[] = [];
  for (let r = 0; r < runs; r++) {
    rmSync(out, { recursive: true, force: true });
    buildSamples.push(timed([cli, "build", root], cpuFile));
  }
  const files = snapshot(out);
  const bytes = [...files.keys()].reduce((sum, path) => sum + statSync(path).size, 0);
  // Rebuilds with nothing changed: every file written by any of them is counted.
  const before = snapshot(out);
  const rebuildSamples: Sample[] = [];
  for (let r = 0; r < runs; r++) rebuildSamples.push(timed([cli, "build", root], cpuFile));
  const after = snapshot(out);
  const filesWrittenOnRebuild = [...after].filter(([path, mtime]) => before.get(path) !== mtime).length + [...before.keys()].filter((path) => !after.has(path)).length;
  // tsc --noEmit of the generated SDK, as a host would type-check it (wowc/runtime from dist's .d.ts).
  writeFileSync(
    join(root, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, noEmit: true, skipLibCheck: true, types: [], paths: { "wowc/runtime": [join(repo, "dist/runtime/index.d.ts")] } },
      include: ["generated/**/*.ts"],
    }),
  );
  const tscSamples: Sample[] = [];
  try {
    for (let r = 0; r < runs; r++) tscSamples.push(timed([tsc, "-p", join(root, "tsconfig.json")], cpuFile));
  } catch (error) {
    const stdout = (error as { stdout?: string }).stdout ?? "";
    throw new Error(`tsc found errors in the generated SDK:\n${stdout.split("\n").slice(0, 20).join("\n")}`);
  }
  // This code's and the previous code's cold builds in turn, each into a fresh directory.
  let previous: { readonly ref: string; readonly samples: Sample[]; readonly current: Sample[]; readonly speed: number } | undefined;
  if (against !== undefined) {
    const old = previousCli(against);
    try {
      const samples: Sample[] = [];
      const current: Sample[] = [];
      const pairOut = join(root, "pair-out");
      for (let r = 0; r < runs; r++) {
        rmSync(pairOut, { recursive: true, force: true });
        current.push(timed([cli, "build", root, "--out", pairOut], cpuFile));
        rmSync(pairOut, { recursive: true, force: true });
        samples.push(timed([old.cli, "build", root, "--out", pairOut], cpuFile));
      }
      previous = { ref: against, samples, current, speed: median(samples.map((s, i) => s.cpuMs / current[i]!.cpuMs)) };
    } finally {
      old.remove();
    }
  }
  const build = medians(buildSamples);
  const rebuild = medians(rebuildSamples);
  const tscRun = medians(tscSamples);
  const ratio = build.cpuMs / tscRun.cpuMs;
  const ratioWall = build.ms / tscRun.ms;
  const list = (samples: readonly Sample[]): string => samples.map((s) => `${s.ms.toFixed(0)}/${s.cpuMs.toFixed(0)}`).join(", ");
  const row = (name: string, sample: Sample, note: string): string => `  ${name.padEnd(30)} ${sample.ms.toFixed(0).padStart(8)} ms wall ${sample.cpuMs.toFixed(0).padStart(8)} ms CPU  ${note}`;
  console.log(`wowc build bench: ${aggregates} aggregates, ${sources.length} .wow files → ${files.size} generated files (${(bytes / 1e6).toFixed(2)} MB); medians of ${runs} runs (wall/CPU ms each)`);
  console.log(row("wowc build (cold)", build, `node dist/compiler/cli/main.js build: ${list(buildSamples)}`));
  console.log(row("wowc build (nothing changed)", rebuild, `${filesWrittenOnRebuild} files written: ${list(rebuildSamples)}`));
  console.log(row("tsc --noEmit (generated SDK)", tscRun, `node node_modules/typescript/bin/tsc -p: ${list(tscSamples)}`));
  console.log(`  ratio build/tsc: ${(ratio * 100).toFixed(1)}% of CPU time (target ≤ 15%); ${(ratioWall * 100).toFixed(1)}% of wall time`);
  if (previous !== undefined) {
    console.log(row(`wowc build at ${previous.ref}`.slice(0, 30), medians(previous.samples), `in turn with this code's (${list(previous.current)}): ${list(previous.samples)}`));
    console.log(`  speed against ${previous.ref}: ${previous.speed.toFixed(3)} (median of the pairs' CPU ratios, previous / this; 1 is as fast)`);
  }
  console.log(
    JSON.stringify({
      aggregates,
      runs,
      generated_files: files.size,
      generated_bytes: bytes,
      build_ms: Math.round(build.ms),
      build_cpu_ms: Math.round(build.cpuMs),
      rebuild_ms: Math.round(rebuild.ms),
      rebuild_cpu_ms: Math.round(rebuild.cpuMs),
      tsc_ms: Math.round(tscRun.ms),
      tsc_cpu_ms: Math.round(tscRun.cpuMs),
      ratio_to_tsc: Number(ratio.toFixed(4)),
      ratio_to_tsc_wall: Number(ratioWall.toFixed(4)),
      files_written_on_rebuild: filesWrittenOnRebuild,
      ...(previous === undefined ? {} : { previous_ref: previous.ref, previous_build_cpu_ms: Math.round(medians(previous.samples).cpuMs), speed_vs_previous: Number(previous.speed.toFixed(4)) }),
    }),
  );
} finally {
  rmSync(root, { recursive: true, force: true });
}
