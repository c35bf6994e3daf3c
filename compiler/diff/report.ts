// The reports of `wowc diff`: text for a terminal, Markdown for a pull request (a section per
// context, breaking first), JSON for machines and GitHub Actions annotations on the `.wow` lines.
import type { Change } from "./change.js";
import { categoryOrder, type Category } from "./rules.js";

export type DiffFormat = "text" | "markdown" | "json" | "github";

export interface ReportOptions {
  /** Prefix of the `.wow` paths (the manifest's sources are relative to the build root). */
  readonly sourceRoot?: string;
  /** Prefix of the previous side's `.wow` paths, where removed elements were (default `sourceRoot`). */
  readonly previousSourceRoot?: string;
  readonly allowBreaking?: boolean;
}

const label: Record<Category, string> = { breaking: "breaking", behaviour: "behaviour", safe: "safe" };

function counts(changes: readonly Change[]): string {
  if (changes.length === 0) return "no changes";
  const parts = categoryOrder.map((c) => [c, changes.filter((x) => x.category === c).length] as const).filter(([, n]) => n > 0);
  const accepted = changes.filter((c) => c.category === "breaking" && c.accepted).length;
  const text = parts.map(([c, n]) => `${n} ${c === "behaviour" ? "behaviour-changing" : c}`).join(", ");
  return `${text} change${changes.length === 1 ? "" : "s"}${accepted > 0 ? ` (${accepted} breaking accepted)` : ""}`;
}

/** `file:line` of a change under its side's root. */
function sourcePath(change: Change, options: ReportOptions): string {
  if (change.source === undefined) return "";
  const root = change.side === "previous" ? (options.previousSourceRoot ?? options.sourceRoot) : options.sourceRoot;
  return root === undefined || root === "" || root === "." ? change.source : `${root.replace(/\/$/, "")}/${change.source}`;
}

function where(change: Change, options: ReportOptions): string {
  const path = sourcePath(change, options);
  return change.side === "previous" && path !== "" ? `${path} (previous)` : path;
}

export function renderReport(changes: readonly Change[], format: DiffFormat, options: ReportOptions = {}): string {
  switch (format) {
    case "json":
      return `${JSON.stringify({ summary: counts(changes), breaking: changes.filter((c) => c.category === "breaking" && !c.accepted).length, changes }, null, 2)}\n`;
    case "markdown":
      return markdown(changes, options);
    case "github":
      return github(changes, options);
    default:
      return text(changes, options);
  }
}

function text(changes: readonly Change[], options: ReportOptions): string {
  const lines = changes.map((c) => {
    const tag = c.accepted ? `${label[c.category]} (accepted)` : label[c.category];
    const at = where(c, options);
    return `${tag.padEnd(21)} ${c.rule.padEnd(30)} ${c.element}${at === "" ? "" : `  ${at}`}\n${" ".repeat(22)}${c.message}`;
  });
  return `${lines.join("\n")}${lines.length > 0 ? "\n" : ""}wowc diff: ${counts(changes)}.\n`;
}

const cell = (s: string) => s.replace(/\|/g, "\\|");

function markdown(changes: readonly Change[], options: ReportOptions): string {
  const out = [`## Manifest changes: ${counts(changes)}`, ""];
  if (changes.length === 0) return `${out.join("\n")}\nNo change to the manifest.\n`;
  const unaccepted = changes.filter((c) => c.category === "breaking" && !c.accepted).length;
  if (unaccepted > 0) {
    out.push(
      `> **${unaccepted} breaking change${unaccepted === 1 ? "" : "s"}** for clients, stored events or schedules.` +
        (options.allowBreaking === true ? " Allowed with `--allow-breaking`." : " Accept each one intended with `--accept RULE:element` or in `wowc.diff.json`."),
      "",
    );
  }
  const contexts = [...new Set(changes.map((c) => c.context))].sort();
  for (const context of contexts) {
    out.push(`### \`${context}\``, "", "| | Rule | Element | Change | Source |", "| --- | --- | --- | --- | --- |");
    for (const c of changes.filter((x) => x.context === context)) {
      const tag = c.category === "breaking" ? (c.accepted ? "breaking (accepted)" : "**breaking**") : label[c.category];
      const at = where(c, options);
      out.push(`| ${tag} | \`${c.rule}\` | \`${c.element}\` | ${cell(c.message)} | ${at === "" ? "" : `\`${cell(at)}\``} |`);
    }
    out.push("");
  }
  return out.join("\n");
}

/** GitHub Actions workflow commands: `::error file=…,line=…,title=RULE::message`. */
function github(changes: readonly Change[], options: ReportOptions): string {
  const escape = (s: string) => s.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
  const property = (s: string) => escape(s).replace(/:/g, "%3A").replace(/,/g, "%2C");
  const lines = changes.map((c) => {
    const level = c.category === "breaking" && !c.accepted && options.allowBreaking !== true ? "error" : c.category === "safe" ? "notice" : "warning";
    const props: string[] = [];
    if (c.source !== undefined) {
      // A removed element points at its file only: the old line may hold something else now.
      const [file, line] = splitSource(sourcePath(c, options));
      props.push(`file=${property(file)}`, ...(c.side === "current" ? [`line=${line}`] : []));
    }
    props.push(`title=${property(`${c.rule} ${c.element}`)}`);
    const previous = c.side === "previous" && c.source !== undefined ? ` (was declared at ${where(c, options)})` : "";
    return `::${level} ${props.join(",")}::${escape(c.message + previous)}`;
  });
  return lines.length === 0 ? "" : `${lines.join("\n")}\n`;
}

function splitSource(source: string): [string, string] {
  const colon = source.lastIndexOf(":");
  return [source.slice(0, colon), source.slice(colon + 1)];
}
