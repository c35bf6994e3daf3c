// The command routes a host serves, derived from its registrations with the one route grammar
// (`model/command-route.ts`, which the compiler writes into the manifest too).
import { commandRoute, type CommandRoute as PathRoute } from "../model/command-route.js";
import type { AggregateRegistration } from "../model/registration.js";
import { isSystemCommand } from "../processing/system-commands.js";

export interface CommandRoute extends PathRoute {
  readonly type: string;
  readonly context: string;
  readonly aggregate: string;
  readonly create: boolean;
  /** The body's JSON Schema, when the registration carries one. */
  readonly bodySchema?: object;
}

export function commandRoutes(aggregates: readonly AggregateRegistration[]): CommandRoute[] {
  const routes: CommandRoute[] = [];
  for (const a of aggregates) {
    for (const [type, command] of Object.entries(a.commands)) {
      if (isSystemCommand(type)) continue;
      const name = type.slice(type.lastIndexOf(".") + 1);
      const { method, path } = commandRoute(a.context, a.aggregate, name, command);
      const route = { method, path, type, context: a.context, aggregate: a.aggregate, create: command.create === true };
      routes.push(command.bodySchema === undefined ? route : { ...route, bodySchema: command.bodySchema });
    }
  }
  return routes.sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
}

/** The key a request's path is looked up by: `{tenantId}` and `{id}` segments replaced by `*`. */
export function routeKey(method: string, segments: readonly string[], create: boolean): string {
  const shape = segments.map((s, i) => (i === 2 || (!create && i === 4) ? "*" : s));
  return `${method} /${shape.join("/")}`;
}

/**
 * The routes by `routeKey`, for serving. Two commands with one route (`PayNow` and `PAY_NOW` in one
 * aggregate: both `pay_now`) are refused: only one of them could be reached. Sources that
 * `wowc build` accepts never have them (WOW3024); registrations written by hand can.
 */
export function routeTable(aggregates: readonly AggregateRegistration[]): Map<string, CommandRoute> {
  const table = new Map<string, CommandRoute>();
  for (const route of commandRoutes(aggregates)) {
    const key = routeKey(route.method, route.path.slice(1).split("/"), route.create);
    const other = table.get(key);
    if (other !== undefined) {
      throw new Error(`commands ${other.type} and ${route.type} have one HTTP route, ${route.method} ${route.path}, and only one could be reached: rename one of them`);
    }
    table.set(key, route);
  }
  return table;
}
