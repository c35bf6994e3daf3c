// `npm run bench:lsp [-- --aggregates N --edits E --completions C]`: `wowc lsp` (dist/, a child
// process over stdio, its default debounce) on the 1,000-aggregate project of bench:compile. In
// one file, E one-character edits (default 200: a character typed into a name, a comment, a field,
// a cross-context reference, then taken out again), each timed from `didChange` to the
// `publishDiagnostics` of that file; then C completion requests (default 200) at three kinds of
// positions. Baseline, in the same run: a cold `wowc check` of the same project (a child process,
// Node's start included), median of 3. Targets: diagnostics p95 ≤ 1/10 of the cold check,
// completion p95 ≤ 1/20. Prints a table, then one JSON object as the last line.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { LspClient, positionAt, uriOf, type Position } from "../lsp/client.js";
import { argument, median } from "./bench-args.js";
import { generate } from "./synthetic-project.js";
import { DEFAULT_DEBOUNCE_MS } from "../../compiler/lsp/server.js";

const aggregates = argument("aggregates", 1000, 2);
const editCount = argument("edits", 200, 2);
const completionCount = argument("completions", 200, 1);

const percentile = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * p) - 1)]!;
};

const sources = generate(aggregates);
const root = mkdtempSync(join(tmpdir(), "wowc-lsp-bench-"));
for (const file of sources) {
  mkdirSync(dirname(join(root, file.path)), { recursive: true });
  writeFileSync(join(root, file.path), file.text);
}
// The first pair of a context past the first: its saga reads an event of the previous context.
const edited = sources.find((f) => f.path.endsWith("/pair-100.wow")) ?? sources[sources.length - 1]!;
const uri = uriOf(join(root, edited.path));

const cli = fileURLToPath(new URL("../../dist/compiler/cli/main.js", import.meta.url));
const cold: number[] = [];
execFileSync(process.execPath, [cli, "check", root], { stdio: "pipe" }); // warms the file system cache
for (let i = 0; i < 3; i++) {
  const start = performance.now();
  execFileSync(process.execPath, [cli, "check", root], { stdio: "pipe" });
  cold.push(performance.now() - start);
}
const coldMs = median(cold);

const client = new LspClient({ built: true });
const startedAt = performance.now();
await client.initialize(root);
await client.diagnostics(uri, 0);
const initialMs = performance.now() - startedAt;
await client.open(join(root, edited.path));

/** The offset just after the first occurrence of `marker` in the file's text (where a character is typed). */
const after = (marker: string): number => {
  const at = edited.text.indexOf(marker);
  if (at < 0) throw new Error(`'${marker}' is not in ${edited.path}`);
  return at + marker.length;
};
/** `breaks`: a character typed there makes a reference name nothing (an error). */
const spots = [
  { what: "a command's name at its `on`", offset: after("on ReceiveStock100"), breaks: true },
  { what: "a comment", offset: after("// Synthetic pair"), breaks: false },
  { what: "a field's name", offset: after("productId"), breaks: false },
  { what: "a cross-context event", offset: after("on ctx-9.OrderCreated90"), breaks: true },
];

const rows = new Map<string, number[]>();
const diagnostics: number[] = [];
/** Edits whose diagnostics held errors: a typed character in a name must give one, or the edit reached nothing. */
let withErrors = 0;
let breaking = 0;
for (let i = 0; i < editCount; i++) {
  const spot = spots[Math.floor(i / 2) % spots.length]!;
  // Even edits type a character at the spot, odd ones take it out again.
  const position: Position = positionAt(edited.text, spot.offset);
  const change = i % 2 === 0
    ? { range: { start: position, end: position }, newText: "x" }
    : { range: { start: position, end: { line: position.line, character: position.character + 1 } }, newText: "" };
  const from = client.published.length;
  const start = performance.now();
  await client.edit(uri, [change]);
  const published = await client.diagnostics(uri, from);
  const ms = performance.now() - start;
  if (published.diagnostics.some((d) => d.severity === 1)) withErrors++;
  if (i % 2 === 0 && spot.breaks) breaking++;
  diagnostics.push(ms);
  const key = `${spot.what} (${i % 2 === 0 ? "typed" : "taken out"})`;
  rows.set(key, [...(rows.get(key) ?? []), ms]);
}

const completionSpots = [
  { what: "`produces = [` (events)", offset: after("@OnCommand(produces = [") },
  { what: "a field's type (types)", offset: after("productId: ") },
  { what: "after `@` (annotations)", offset: after("  @") },
];
const completions: number[] = [];
const completionRows = new Map<string, number[]>();
let offered = 0;
for (let i = 0; i < completionCount; i++) {
  const spot = completionSpots[i % completionSpots.length]!;
  const start = performance.now();
  const list = await client.request<{ items: unknown[] }>("textDocument/completion", { textDocument: { uri }, position: positionAt(client.text(uri), spot.offset) });
  const ms = performance.now() - start;
  offered += list.items.length;
  completions.push(ms);
  completionRows.set(spot.what, [...(completionRows.get(spot.what) ?? []), ms]);
}
await client.close();
rmSync(root, { recursive: true, force: true });

const fixed = (n: number) => Number(n.toFixed(1));
const result = {
  aggregates,
  files: sources.length,
  edits: editCount,
  completions: completionCount,
  debounce_ms: DEFAULT_DEBOUNCE_MS,
  edits_with_errors: withErrors,
  edits_breaking_a_reference: breaking,
  initial_build_ms: Math.round(initialMs),
  diagnostics_p50_ms: fixed(percentile(diagnostics, 0.5)),
  diagnostics_p95_ms: fixed(percentile(diagnostics, 0.95)),
  completion_p50_ms: fixed(percentile(completions, 0.5)),
  completion_p95_ms: fixed(percentile(completions, 0.95)),
  cold_check_ms: Math.round(coldMs),
  ratio: Number((percentile(diagnostics, 0.95) / coldMs).toFixed(3)),
  completion_ratio: Number((percentile(completions, 0.95) / coldMs).toFixed(3)),
  targets_met: percentile(diagnostics, 0.95) <= coldMs / 10 && percentile(completions, 0.95) <= coldMs / 20,
};

console.log(`wowc lsp bench: ${aggregates} aggregates in ${sources.length} files; dist/ over stdio, debounce ${result.debounce_ms} ms; edits in ${edited.path}`);
console.log(`cold wowc check (child process, median of 3): ${result.cold_check_ms} ms; server start to first diagnostics: ${result.initial_build_ms} ms`);
console.log("| what | n | p50 ms | p95 ms |");
console.log("| --- | ---: | ---: | ---: |");
for (const [what, values] of rows) console.log(`| didChange → publishDiagnostics: ${what} | ${values.length} | ${percentile(values, 0.5).toFixed(1)} | ${percentile(values, 0.95).toFixed(1)} |`);
console.log(`| **didChange → publishDiagnostics, all** | ${diagnostics.length} | ${result.diagnostics_p50_ms} | ${result.diagnostics_p95_ms} |`);
for (const [what, values] of completionRows) console.log(`| completion: ${what} | ${values.length} | ${percentile(values, 0.5).toFixed(1)} | ${percentile(values, 0.95).toFixed(1)} |`);
console.log(`| **completion, all** (${Math.round(offered / completionCount)} items on average) | ${completions.length} | ${result.completion_p50_ms} | ${result.completion_p95_ms} |`);
console.log(`${withErrors} of ${editCount} edits gave errors (the characters typed into a reference: ${breaking})`);
console.log(`diagnostics p95 / cold check = ${result.ratio} (target ≤ 0.1); completion p95 / cold check = ${result.completion_ratio} (target ≤ 0.05)`);
console.log(JSON.stringify(result));
