// Command routes, derived from registrations with the manifest's grammar (the runtime does not
// import the compiler; a test checks both agree on the example's manifest):
// `/{context}/tenant/{tenantId}/{aggregate}/[{id}/]{command}`, snake_case names, POST for create
// commands (no `{id}`), DELETE for delete commands, PUT otherwise.
import type { AggregateRegistration } from "../model/registration.js";
import { isSystemCommand } from "../processing/system-commands.js";

export type HttpMethod = "POST" | "PUT" | "DELETE";

export interface CommandRoute {
  readonly method: HttpMethod;
  /** With `{tenantId}` and `{id}` placeholders, as in the manifest. */
  readonly path: string;
  readonly type: string;
  readonly context: string;
  readonly aggregate: string;
  readonly create: boolean;
}

/** `ConfirmOrderStock` → `confirm_order_stock` (the manifest's rule). */
export function snakeCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .replace(/-/g, "_")
    .toLowerCase();
}

export function commandRoutes(aggregates: readonly AggregateRegistration[]): CommandRoute[] {
  const routes: CommandRoute[] = [];
  for (const a of aggregates) {
    for (const [type, command] of Object.entries(a.commands)) {
      if (isSystemCommand(type)) continue;
      const name = type.slice(type.lastIndexOf(".") + 1);
      const create = command.create === true;
      const method: HttpMethod = create ? "POST" : command.delete === true ? "DELETE" : "PUT";
      const path = `/${a.context}/tenant/{tenantId}/${snakeCase(a.aggregate)}/${create ? "" : "{id}/"}${snakeCase(name)}`;
      routes.push({ method, path, type, context: a.context, aggregate: a.aggregate, create });
    }
  }
  return routes.sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
}

/** The key a request's path is looked up by: `{tenantId}` and `{id}` segments replaced by `*`. */
export function routeKey(method: string, segments: readonly string[], create: boolean): string {
  const shape = segments.map((s, i) => (i === 2 || (!create && i === 4) ? "*" : s));
  return `${method} /${shape.join("/")}`;
}
