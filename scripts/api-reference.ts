// The API reference of `wowc/runtime` and `wowc/testing`, written from the TSDoc of their sources by
// TypeDoc's model into Markdown (docs/api/*.md, committed, so it reads in the repository and its
// changes show in review). `npm run docs:api` writes it; a test fails when it is stale.
//   npx tsx scripts/api-reference.ts [--check]
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Application, type JSONOutput } from "typedoc";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

export const ENTRY_POINTS = [
  { source: "runtime/index.ts", module: "index", file: "docs/api/runtime.md", title: "wowc/runtime", intro: "What hosts and generated code import: the model (commands, events, decisions, schedule rules), stores, the host and its HTTP API, configuration, and the cron engine." },
  { source: "runtime/testing/index.ts", module: "testing", file: "docs/api/testing.md", title: "wowc/testing", intro: "The test kit: aggregate specs (given events, when a command, expect events and schedules) and schedule specs on a virtual clock." },
] as const;

type Reflection = JSONOutput.DeclarationReflection;
type Type = JSONOutput.SomeType;
type Signature = JSONOutput.SignatureReflection;

/** TypeDoc's reflection kinds that this reference writes, in the order it writes their groups. */
const KINDS: readonly [number, string][] = [
  [128, "Classes"],
  [64, "Functions"],
  [256, "Interfaces"],
  [2097152, "Types"],
  [32, "Constants"],
  [8, "Enums"],
];

/** The Markdown of every entry point, by file. */
export async function apiReference(): Promise<Map<string, string>> {
  const app = await Application.bootstrap({
    entryPoints: ENTRY_POINTS.map((e) => join(ROOT, e.source)),
    tsconfig: join(ROOT, "tsconfig.build.json"),
    logLevel: "Error",
    disableSources: true,
    excludePrivate: true,
    excludeProtected: true,
    sort: ["alphabetical"],
  });
  const project = await app.convert();
  if (project === undefined) throw new Error("TypeDoc could not read the sources");
  const json = app.serializer.projectToObject(project, ROOT as Parameters<typeof app.serializer.projectToObject>[1]);
  const out = new Map<string, string>();
  for (const entry of ENTRY_POINTS) {
    const module = json.children?.find((c) => c.name === entry.module);
    if (module === undefined) throw new Error(`TypeDoc found no module ${entry.module}`);
    out.set(entry.file, page(entry.title, entry.intro, module.children ?? []));
  }
  return out;
}

function page(title: string, intro: string, children: readonly Reflection[]): string {
  const lines = [`# ${title}`, "", "<!-- Written by scripts/api-reference.ts from the sources' TSDoc (npm run docs:api): edit the sources, not this file. -->", "", intro, ""];
  for (const [kind, heading] of KINDS) {
    const members = children.filter((c) => c.kind === kind);
    if (members.length === 0) continue;
    lines.push(`## ${heading}`, "");
    for (const member of members) lines.push(...declaration(member), "");
  }
  return `${lines.join("\n").replace(/\n{3,}/g, "\n\n").trimEnd()}\n`;
}

function declaration(d: Reflection): string[] {
  const lines = [`### ${d.name}`, ""];
  if (d.kind === 64) {
    for (const s of d.signatures ?? []) lines.push(code(`function ${d.name}${signature(s)}`), "", ...commentOf(s.comment));
    return lines;
  }
  if (d.kind === 2097152) return [...lines, code(`type ${d.name}${typeParameters(d.typeParameters)} = ${type(d.type)}`), "", ...commentOf(d.comment)];
  if (d.kind === 32) return [...lines, code(`const ${d.name}: ${type(d.type)}`), "", ...commentOf(d.comment)];
  const head = d.kind === 128 ? "class" : d.kind === 8 ? "enum" : "interface";
  const extended = d.extendedTypes?.length ? ` extends ${d.extendedTypes.map(type).join(", ")}` : "";
  const implemented = d.implementedTypes?.length ? ` implements ${d.implementedTypes.map(type).join(", ")}` : "";
  lines.push(code(`${head} ${d.name}${typeParameters(d.typeParameters)}${extended}${implemented}`), "", ...commentOf(d.comment));
  const members = (d.children ?? []).filter((m) => !m.flags.isPrivate && !m.flags.isProtected && !m.inheritedFrom);
  if (members.length > 0) {
    lines.push("| member | |", "| --- | --- |");
    for (const m of members) lines.push(`| ${cell(memberCode(m))} | ${cell(summary(m.comment ?? m.signatures?.[0]?.comment ?? m.getSignature?.comment))} |`);
    lines.push("");
  }
  return lines;
}

function memberCode(m: Reflection): string {
  const flags = `${m.flags.isStatic ? "static " : ""}${m.flags.isReadonly ? "readonly " : ""}`;
  if (m.kind === 512) return (m.signatures ?? []).map((s) => `\`new${signature(s, false)}\``).join("<br>");
  if (m.kind === 2048) return (m.signatures ?? []).map((s) => `\`${flags}${m.name}${signature(s)}\``).join("<br>");
  if (m.kind === 262144) return `\`get ${m.name}(): ${type(m.getSignature?.type)}\``;
  if (m.kind === 16) return `\`${m.name} = ${type(m.type)}\``;
  return `\`${flags}${m.name}${m.flags.isOptional ? "?" : ""}: ${type(m.type)}\``;
}

function signature(s: Signature, withReturn = true): string {
  const params = (s.parameters ?? []).map((p) => `${p.flags.isRest ? "..." : ""}${p.name}${p.flags.isOptional || p.defaultValue !== undefined ? "?" : ""}: ${type(p.type)}`).join(", ");
  return `${typeParameters(s.typeParameters)}(${params})${withReturn ? `: ${type(s.type)}` : ""}`;
}

function typeParameters(params: readonly JSONOutput.TypeParameterReflection[] | undefined): string {
  if (!params?.length) return "";
  return `<${params.map((p) => `${p.name}${p.type ? ` extends ${type(p.type)}` : ""}${p.default ? ` = ${type(p.default)}` : ""}`).join(", ")}>`;
}

/** A type as TypeScript writes it (short: an object literal's members on one line). */
function type(t: Type | undefined): string {
  if (t === undefined) return "void";
  switch (t.type) {
    case "intrinsic":
      return t.name;
    case "literal":
      return t.value === null ? "null" : typeof t.value === "object" ? `${t.value.negative ? "-" : ""}${t.value.value}n` : JSON.stringify(t.value);
    case "reference":
      return `${t.name}${t.typeArguments?.length ? `<${t.typeArguments.map(type).join(", ")}>` : ""}`;
    case "union":
      return t.types.map((u) => (u.type === "reflection" && u.declaration.signatures ? `(${type(u)})` : type(u))).join(" | ");
    case "intersection":
      return t.types.map(type).join(" & ");
    case "array":
      return ["union", "intersection", "reflection"].includes(t.elementType.type) ? `(${type(t.elementType)})[]` : `${type(t.elementType)}[]`;
    case "tuple":
      return `[${(t.elements ?? []).map(type).join(", ")}]`;
    case "namedTupleMember":
      return `${t.name}${t.isOptional ? "?" : ""}: ${type(t.element)}`;
    case "optional":
      return `${type(t.elementType)}?`;
    case "rest":
      return `...${type(t.elementType)}`;
    case "typeOperator":
      return `${t.operator} ${type(t.target)}`;
    case "query":
      return `typeof ${type(t.queryType)}`;
    case "indexedAccess":
      return `${type(t.objectType)}[${type(t.indexType)}]`;
    case "conditional":
      return `${type(t.checkType)} extends ${type(t.extendsType)} ? ${type(t.trueType)} : ${type(t.falseType)}`;
    case "predicate":
      return t.targetType ? `${t.asserts ? "asserts " : ""}${t.name} is ${type(t.targetType)}` : `asserts ${t.name}`;
    case "templateLiteral":
      return `\`${t.head}${t.tail.map(([inner, text]) => `\${${type(inner)}}${text}`).join("")}\``;
    case "mapped":
      return `{ ${t.readonlyModifier === "+" ? "readonly " : ""}[${t.parameter} in ${type(t.parameterType)}]${t.optionalModifier === "+" ? "?" : ""}: ${type(t.templateType)} }`;
    case "inferred":
      return `infer ${t.name}`;
    case "reflection": {
      const d = t.declaration;
      if (d.signatures?.length) return d.signatures.map((s) => `${signature(s, false)} => ${type(s.type)}`).join(" & ");
      const index = d.indexSignatures?.map((s) => `[${s.parameters?.map((p) => `${p.name}: ${type(p.type)}`).join(", ")}]: ${type(s.type)}`) ?? [];
      const members = (d.children ?? []).map((c) => `${c.flags.isReadonly ? "readonly " : ""}${c.name}${c.flags.isOptional ? "?" : ""}: ${c.signatures ? c.signatures.map((s) => `${signature(s, false)} => ${type(s.type)}`).join(" & ") : type(c.type)}`);
      return `{ ${[...index, ...members].join("; ")} }`;
    }
    default:
      return "unknown";
  }
}

function text(parts: readonly JSONOutput.CommentDisplayPart[] | undefined): string {
  return (parts ?? []).map((p) => (p.kind === "inline-tag" ? `\`${p.text}\`` : p.text)).join("");
}

function summary(comment: JSONOutput.Comment | undefined): string {
  return text(comment?.summary).trim();
}

function commentOf(comment: JSONOutput.Comment | undefined): string[] {
  if (comment === undefined) return [];
  const lines = [summary(comment)];
  for (const tag of comment.blockTags ?? []) {
    const body = text(tag.content).trim();
    if (tag.tag === "@param") lines.push(`- \`${tag.name ?? ""}\`: ${body}`);
    else if (tag.tag === "@returns") lines.push(`Returns: ${body}`);
    else if (tag.tag === "@example") lines.push(body);
    else lines.push(`${tag.tag.slice(1)}: ${body}`);
  }
  return [...lines.filter((l) => l !== ""), ""];
}

function code(source: string): string {
  return `\`\`\`ts\n${source}\n\`\`\``;
}

/** A table cell: pipes escaped, lines joined with <br>. */
function cell(value: string): string {
  return value.replace(/\|/g, "\\|").replace(/\n+/g, " ");
}

async function main(): Promise<void> {
  const check = process.argv.includes("--check");
  const pages = await apiReference();
  const stale: string[] = [];
  for (const [file, content] of pages) {
    const path = join(ROOT, file);
    if (check) {
      let current = "";
      try {
        current = readFileSync(path, "utf8");
      } catch {}
      if (current !== content) stale.push(file);
    } else writeFileSync(path, content);
  }
  if (stale.length > 0) {
    console.error(`stale API reference: ${stale.join(", ")} (run npm run docs:api)`);
    process.exit(1);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
