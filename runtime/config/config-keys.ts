// How settings of wow.config.json are named in the environment: `WOW_` + the path's segments in upper
// snake case, `__` between levels (`wow/timers/poll-interval` → `WOW_TIMERS__POLL_INTERVAL`). The one
// rule: the compiler names the declared jobs' variables with it, the runtime its own sections'.
import { RUNTIME_SECTIONS_SCHEMA } from "./runtime-sections.js";

/** `receive-deliveries` → `RECEIVE_DELIVERIES`. */
export function environmentSegment(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/[^A-Za-z0-9]+/g, "_")
    .toUpperCase();
}

/** The variable that sets `path` (which starts with `wow`). */
export function environmentVariable(path: readonly string[]): string {
  return `WOW_${path.slice(1).map(environmentSegment).join("__")}`;
}

/** A declared job's settings that an environment variable may set, as paths under `wow.schedules.<key>`. */
export const JOB_SETTINGS: readonly (readonly string[])[] = [["expression"], ["zone"], ["misfire"], ["enabled"], ["overlap"], ["timeout"], ["jitter"], ["retry", "max-attempts"], ["retry", "backoff"], ["retry", "max-backoff"]];

/** The timer settings (`wow.timers.*`) the generated configuration takes from the environment. */
const TIMER_SETTINGS: readonly string[] = ["poll-interval", "max-attempts"];

/**
 * The variables of the declared jobs' settings (each of `JOB_SETTINGS` under `wow.schedules.<key>`) and
 * of the timer settings, each with the path it sets. Built at load by the generated config.ts from its
 * job keys, rather than written out there: 1,000 jobs would make 10,000 lines.
 */
export function declaredEnvironment(jobKeys: readonly string[]): Record<string, readonly string[]> {
  const table: Record<string, readonly string[]> = {}; // every key starts with WOW_
  for (const key of jobKeys) {
    for (const setting of JOB_SETTINGS) {
      const path = ["wow", "schedules", key, ...setting];
      table[environmentVariable(path)] = path;
    }
  }
  for (const setting of TIMER_SETTINGS) table[environmentVariable(["wow", "timers", setting])] = ["wow", "timers", setting];
  return table;
}

/** Variables of config settings have a level separator; others starting with `WOW_` (a tool's own) are not the configuration's. */
export function isConfigVariable(name: string): boolean {
  return /^WOW_[A-Z0-9_]+__[A-Z0-9_]/.test(name);
}

interface SchemaNode {
  readonly type?: unknown;
  readonly properties?: Readonly<Record<string, SchemaNode>>;
}

/** The runtime's own sections' scalar settings (`wow.http.body-limit`, `wow.store.path`, …), by variable. */
export function runtimeEnvironment(): Record<string, readonly string[]> {
  const table: Record<string, readonly string[]> = {};
  const visit = (node: SchemaNode, path: readonly string[]): void => {
    if (node.properties !== undefined) {
      for (const [key, child] of Object.entries(node.properties)) visit(child, [...path, key]);
      return;
    }
    if (node.type === "array" || node.type === "object") return; // lists and records have no one variable
    table[environmentVariable(path)] = path;
  };
  for (const [section, schema] of Object.entries(RUNTIME_SECTIONS_SCHEMA)) visit(schema as SchemaNode, ["wow", section]);
  return table;
}
