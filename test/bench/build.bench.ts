// `npm run bench:build [-- --aggregates N]`: the synthetic project of bench:compile (default 1,000
// aggregates), a cold full `wowc build` (compiled CLI under plain node: check + manifest + SDK +
// config, written) against a cold `tsc --noEmit` of the generated SDK, in the same run; then a
// rebuild with nothing changed, counting the files it wrote (by modification time and content).
// Prints a table, then one JSON object as the last line.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { generate } from "./synthetic-project.js";

function argument(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} needs a positive integer`);
  return value;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function timed(args: string[]): { ms: number; stdout: string } {
  const start = performance.now();
  const stdout = execFileSync(process.execPath, args, { encoding: "utf8", maxBuffer: 1 << 26 });
  return { ms: performance.now() - start, stdout };
}

function snapshot(dir: string): Map<string, number> {
  const out = new Map<string, number>();
  const walk = (d: string): void => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) walk(path);
      else out.set(path, statSync(path).mtimeMs);
    }
  };
  walk(dir);
  return out;
}

const aggregates = argument("aggregates", 1000);
const runs = argument("runs", 3);
const repo = fileURLToPath(new URL("../../", import.meta.url));
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
  // Cold builds into a fresh output directory each time: everything generated and written.
  const buildSamples: number[] = [];
  for (let r = 0; r < runs; r++) {
    rmSync(out, { recursive: true, force: true });
    buildSamples.push(timed([cli, "build", root]).ms);
  }
  const files = snapshot(out);
  const bytes = [...files.keys()].reduce((sum, path) => sum + statSync(path).size, 0);
  // A rebuild with nothing changed.
  const before = snapshot(out);
  const rebuild = timed([cli, "build", root]);
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
  let tscMs = 0;
  try {
    tscMs = timed([tsc, "-p", join(root, "tsconfig.json")]).ms;
  } catch (error) {
    const stdout = (error as { stdout?: string }).stdout ?? "";
    throw new Error(`tsc found errors in the generated SDK:\n${stdout.split("\n").slice(0, 20).join("\n")}`);
  }
  const buildMs = median(buildSamples);
  const ratio = buildMs / tscMs;
  const row = (name: string, ms: number, note: string): string => `  ${name.padEnd(28)} ${ms.toFixed(0).padStart(8)} ms  ${note}`;
  console.log(`wowc build bench: ${aggregates} aggregates, ${sources.length} .wow files → ${files.size} generated files (${(bytes / 1e6).toFixed(2)} MB)`);
  console.log(row("wowc build (cold, median)", buildMs, `node dist/compiler/cli/main.js build; ${runs} runs: ${buildSamples.map((ms) => ms.toFixed(0)).join(", ")}`));
  console.log(row("wowc build (nothing changed)", rebuild.ms, `${filesWrittenOnRebuild} files written`));
  console.log(row("tsc --noEmit (generated SDK)", tscMs, "node node_modules/typescript/bin/tsc -p (cold)"));
  console.log(`  ratio build/tsc: ${(ratio * 100).toFixed(1)}% (target ≤ 15%)`);
  console.log(
    JSON.stringify({
      aggregates,
      generated_files: files.size,
      generated_bytes: bytes,
      build_ms: Math.round(buildMs),
      rebuild_ms: Math.round(rebuild.ms),
      tsc_ms: Math.round(tscMs),
      ratio_to_tsc: Number(ratio.toFixed(4)),
      files_written_on_rebuild: filesWrittenOnRebuild,
    }),
  );
} finally {
  rmSync(root, { recursive: true, force: true });
}
