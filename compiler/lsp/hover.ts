// Hover: what the name at the cursor declares — its declaration and doc comment; for a command its
// HTTP route and who handles, schedules and sends it; for an event who produces and handles it —
// and, on a job, its cron rule in words and its next five fire times in its zone.
import { MarkupKind, type Hover } from "vscode-languageserver";
import type { JobDeclaration, Location, WowFile } from "../ast.js";
import type { WowSymbol } from "../binder/symbols.js";
import { positionOf } from "../diagnostics/line-map.js";
import type { ProgramModel } from "../model.js";
import { commandRoute } from "../../runtime/model/command-route.js";
import { CronExpression } from "../../runtime/cron/index.js";
import { isValidTimeZone } from "../../runtime/cron/zone.js";
import { fireTime } from "../../runtime/cron/fire-time.js";
import { describeCron } from "../../runtime/cron/cron-words.js";
import { toRange } from "./positions.js";
import type { Project } from "./project.js";

export interface HoverOptions {
  /** The instant fire times are counted from (tests pin it). */
  readonly now: () => number;
}

const FIRE_TIMES = 5;
const MAX_SOURCE_LINES = 20;

export function hover(project: Project, file: WowFile, offset: number, options: HoverOptions): Hover | null {
  const at = project.names.at(file.file.path, offset);
  if (at !== undefined) {
    const text = at.target.includes(".") ? symbolHover(project, at.target) : contextHover(project, at.target);
    if (text !== undefined) return { contents: { kind: MarkupKind.Markdown, value: text }, range: toRange(at.loc) };
  }
  const job = jobAt(file, offset);
  if (job !== undefined) {
    const text = jobHover(job, options.now());
    if (text !== undefined) return { contents: { kind: MarkupKind.Markdown, value: text }, range: toRange(job.name.loc) };
  }
  return null;
}

/** `order.wow:12`. */
function place(loc: Location): string {
  return `${loc.file.path}:${positionOf(loc.file, loc.start).line}`;
}

/** The declaration's source, as written (long ones cut). */
function source(loc: Location): string {
  const lines = loc.file.text.slice(loc.start, loc.end).split(/\r\n|\r|\n/);
  const shown = lines.length > MAX_SOURCE_LINES ? [...lines.slice(0, MAX_SOURCE_LINES), "  …"] : lines;
  return `\`\`\`wow\n${shown.join("\n")}\n\`\`\``;
}

function symbolOf(project: Project, target: string): WowSymbol | undefined {
  const dot = target.lastIndexOf(".");
  return project.result.scopes.get(target.slice(0, dot))?.symbols.get(target.slice(dot + 1));
}

function symbolHover(project: Project, target: string): string | undefined {
  const symbol = symbolOf(project, target);
  if (symbol === undefined) return undefined;
  const kind = symbol.kind.toLowerCase();
  const owner = symbol.kind === "Command" || symbol.kind === "Event" ? ` of aggregate \`${symbol.aggregate.name}\`` : "";
  const parts = [`**${kind}** \`${symbol.name}\`${owner} — context \`${symbol.context}\``];
  if (symbol.decl.doc !== undefined && symbol.decl.doc !== "") parts.push(symbol.decl.doc);
  const model = project.result.model;
  if (symbol.kind === "Aggregate") {
    const members = symbol.decl.members.flatMap((m) => (m.kind === "Command" || m.kind === "Event" ? [`${m.kind.toLowerCase()} \`${m.name.text}\``] : []));
    parts.push(members.length === 0 ? "No commands or events." : members.join(" · "));
  } else if (symbol.kind === "Saga") {
    parts.push(symbol.decl.members.map((m) => (m.kind === "Job" ? `job \`${m.name.text}\`` : `on \`${m.target.text}\``)).join(" · "));
  } else {
    parts.push(source(symbol.decl.loc));
  }
  if (symbol.kind === "Command") parts.push(...commandFacts(model, symbol.context, symbol.aggregate.name, symbol.name, target));
  if (symbol.kind === "Event") parts.push(...eventFacts(model, target));
  if (symbol.kind === "Service") parts.push(...serviceFacts(model, target));
  return parts.join("\n\n");
}

function contextHover(project: Project, name: string): string | undefined {
  const scope = project.result.scopes.get(name);
  if (scope === undefined) return undefined;
  const docs = scope.files.flatMap((f) => (f.context?.doc === undefined ? [] : [f.context.doc]));
  return [`**context** \`${name}\` — ${scope.files.length} file${scope.files.length === 1 ? "" : "s"}, ${scope.symbols.size} declarations`, ...docs].join("\n\n");
}

const bullets = (title: string, items: readonly string[]): string[] => (items.length === 0 ? [] : [`${title}:\n${items.map((i) => `- ${i}`).join("\n")}`]);

function commandFacts(model: ProgramModel, context: string, aggregate: string, name: string, target: string): string[] {
  const out: string[] = [];
  const command = model.contexts.find((c) => c.name === context)?.aggregates.find((a) => a.name === aggregate)?.commands.find((c) => c.name === name);
  if (command !== undefined) {
    const route = commandRoute(context, aggregate, name, command);
    out.push(`Route: \`${route.method} ${route.path}\``);
    out.push(command.handler === undefined ? "Handled by: no `on` handler yet." : `Handled by: \`on ${name}\` in aggregate \`${aggregate}\` (${place(command.handler.decl.target.loc)})`);
  }
  const scheduled: string[] = [];
  const sent: string[] = [];
  const rejections: string[] = [];
  for (const c of model.contexts) {
    for (const a of c.aggregates) {
      for (const cmd of a.commands) {
        if (cmd.handler?.schedules.some((s) => s.command.qualifiedName === target)) scheduled.push(`\`on ${cmd.name}\` of aggregate \`${c.name}.${a.name}\` (${place(cmd.handler.decl.target.loc)})`);
      }
    }
    for (const s of c.sagas) {
      for (const h of s.eventHandlers) {
        if (h.schedules.some((x) => x.command.qualifiedName === target)) scheduled.push(`\`on ${h.decl.target.text}\` of saga \`${c.name}.${s.name}\` (${place(h.decl.target.loc)})`);
        if (h.commands.some((x) => x.qualifiedName === target)) sent.push(`\`on ${h.decl.target.text}\` of saga \`${c.name}.${s.name}\` (${place(h.decl.target.loc)})`);
      }
      for (const j of s.jobs) if (j.commands.some((x) => x.qualifiedName === target)) sent.push(`job \`${j.function}\` ("${j.name}", cron \`${j.cron}\`) of saga \`${c.name}.${s.name}\` (${place(j.decl.name.loc)})`);
      for (const r of s.rejectionHandlers) if (r.command.qualifiedName === target) rejections.push(`saga \`${c.name}.${s.name}\` (${place(r.decl.target.loc)})`);
    }
  }
  return [...out, ...bullets("Scheduled by", scheduled), ...bullets("Sent by", sent), ...bullets("Rejections handled by", rejections)];
}

function eventFacts(model: ProgramModel, target: string): string[] {
  const produced: string[] = [];
  const handled: string[] = [];
  for (const c of model.contexts) {
    for (const a of c.aggregates) for (const cmd of a.commands) if (cmd.handler?.produces.some((e) => e.qualifiedName === target)) produced.push(`\`on ${cmd.name}\` of aggregate \`${c.name}.${a.name}\` (${place(cmd.handler.decl.target.loc)})`);
    for (const s of c.sagas) for (const h of s.eventHandlers) if (h.event.qualifiedName === target) handled.push(`saga \`${c.name}.${s.name}\` (${place(h.decl.target.loc)})`);
  }
  return [...bullets("Produced by", produced), ...bullets("Handled by", handled)];
}

function serviceFacts(model: ProgramModel, target: string): string[] {
  const users: string[] = [];
  for (const c of model.contexts) {
    for (const a of c.aggregates) for (const cmd of a.commands) if (cmd.handler?.services.some((s) => s.service.qualifiedName === target)) users.push(`\`on ${cmd.name}\` of aggregate \`${c.name}.${a.name}\``);
    for (const s of c.sagas) {
      for (const h of [...s.eventHandlers, ...s.rejectionHandlers]) if (h.services.some((x) => x.service.qualifiedName === target)) users.push(`\`on ${h.decl.target.text}\` of saga \`${c.name}.${s.name}\``);
      for (const j of s.jobs) if (j.services.some((x) => x.service.qualifiedName === target)) users.push(`job \`${j.function}\` of saga \`${c.name}.${s.name}\``);
    }
  }
  return bullets("Passed to", users);
}

/** The job whose declaration (its annotations included) holds `offset`. */
function jobAt(file: WowFile, offset: number): JobDeclaration | undefined {
  for (const decl of file.declarations) {
    if (decl.kind !== "Saga" || offset < decl.loc.start || offset > decl.loc.end) continue;
    for (const member of decl.members) if (member.kind === "Job" && member.loc.start <= offset && offset <= member.loc.end) return member;
  }
  return undefined;
}

function jobHover(job: JobDeclaration, now: number): string | undefined {
  const schedule = job.annotations.find((a) => a.name.text === "OnSchedule");
  const arg = (name: string) => schedule?.args.find((a) => a.name.text === name)?.value;
  const cron = arg("cron");
  if (cron?.kind !== "String") return undefined;
  const zoneValue = arg("zone");
  const zone = zoneValue?.kind === "String" ? zoneValue.value : "UTC";
  const parts = [`**job** \`${job.name.text}\` — cron \`${cron.value}\` in ${zone}`];
  if (job.doc !== undefined && job.doc !== "") parts.push(job.doc);
  const words = describeCron(cron.value);
  if (words === undefined || !isValidTimeZone(zone)) return parts.join("\n\n");
  parts.push(`Fires ${words} (${zone}).`);
  const expression = CronExpression.parse(cron.value);
  const rows: string[] = [];
  let after = now;
  for (let i = 0; i < FIRE_TIMES; i++) {
    const next = expression.nextAfterMs(after, zone);
    if (next === null) break;
    const t = fireTime(next, zone);
    rows.push(`| ${t.local.replace("T", " ")} ${t.offset} | ${t.utc} |`);
    after = next;
  }
  parts.push(rows.length === 0 ? `It never fires in ${zone}.` : `Next ${rows.length} fire times:\n\n| ${zone} | UTC |\n| --- | --- |\n${rows.join("\n")}`);
  return parts.join("\n\n");
}
