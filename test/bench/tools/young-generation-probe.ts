// A tool, not a bench: how often V8 allocates the AST's kept objects straight in the old generation
// (allocation-site pretenuring: compiler/parse/source-name.ts). V8 decides per process, so the
// figure is a count of processes. Each process compiles the synthetic bench project a few times,
// then a small project, and reports which kinds of the small project's nodes are still in the
// young generation (so would be copied by the next scavenges).
//   npx tsx test/bench/tools/young-generation-probe.ts [dist] [processes] [aggregates]
// Prints one line per process and, last, one JSON object with the counts.
import { execFileSync } from "node:child_process";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { WowFile } from "../../../compiler/ast.js";
import { generate } from "../synthetic-project.js";

const [first, second, third] = process.argv.slice(2);

if (first === "--child") {
  const dist = resolve(second!);
  const { compileSources } = (await import(`${dist}/compiler/program/compile.js`)) as typeof import("../../../compiler/program/compile.js");
  const sources = generate(Number(third));
  for (let run = 0; run < 4; run++) compileSources(sources, { manifest: false });
  const { files } = compileSources(sources.slice(0, 4), { manifest: false });
  // `%InYoungGeneration` needs --allow-natives-syntax, which the parent passes.
  const young = new Function("o", "return %InYoungGeneration(o)") as (o: object) => boolean;
  const kinds = collect(files);
  const share = Object.fromEntries(Object.entries(kinds).map(([kind, list]) => [kind, list.filter(young).length / Math.max(1, list.length)]));
  console.log(JSON.stringify(share));
} else {
  const dist = first ?? "dist";
  const processes = Number(second ?? 10);
  const aggregates = third ?? "1000";
  const self = fileURLToPath(import.meta.url);
  const old: Record<string, number> = {};
  for (let p = 0; p < processes; p++) {
    const out = execFileSync(process.execPath, ["--allow-natives-syntax", "--import", "tsx", self, "--child", dist, aggregates], { encoding: "utf8" });
    const share = JSON.parse(out.trim().split("\n").at(-1)!) as Record<string, number>;
    console.log(Object.entries(share).map(([kind, s]) => `${kind} ${Math.round(100 * s)}% young`).join(", "));
    // A kind counts as old in a process when at most a tenth of its objects are young.
    for (const [kind, s] of Object.entries(share)) old[kind] = (old[kind] ?? 0) + (s <= 0.1 ? 1 : 0);
  }
  console.log(JSON.stringify({ processes, old_generation_in: old }));
}

/** The small project's names, fields, lists and declaration locations. */
function collect(files: readonly WowFile[]): Record<string, object[]> {
  const kinds: Record<string, object[]> = { names: [], fields: [], lists: [], locations: [] };
  for (const file of files) {
    for (const decl of file.declarations) {
      kinds["names"]!.push(decl.name);
      kinds["locations"]!.push(decl.loc);
      if (decl.annotations.length > 0) kinds["lists"]!.push(decl.annotations);
      if (decl.kind !== "Aggregate") continue;
      for (const member of decl.members) {
        if (member.kind !== "Command" && member.kind !== "Event") continue;
        kinds["names"]!.push(member.name);
        if (member.fields.length > 0 && member.fields.length <= 4) kinds["lists"]!.push(member.fields);
        kinds["fields"]!.push(...member.fields);
      }
    }
  }
  return kinds;
}
