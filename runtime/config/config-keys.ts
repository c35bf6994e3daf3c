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
