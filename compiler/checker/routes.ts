// Each command's HTTP route (runtime/model/command-route.ts: the manifest's, and what the runtime's
// HTTP layer serves) must be its own: routes spell aggregates and commands in snake_case, so
// `PAYOrder` and `PayORDER` are both `…/pay_order`, and only one of them could be reached (WOW3024).
import type { AggregateModel, CommandModel } from "../model.js";
import { commandRoute } from "../../runtime/model/command-route.js";
import { looseHash } from "./loose-hash.js";
import type { Reporter } from "./reporter.js";

interface Placed {
  readonly aggregate: AggregateModel;
  readonly command: CommandModel;
}

/**
 * Reports each command whose route an earlier command of `context` already has. Routes are made
 * only for commands whose aggregate and command names meet on `looseHash`: in most builds, none.
 */
export function checkRoutes(context: string, aggregates: readonly AggregateModel[], reporter: Reporter): void {
  const byHash = new Map<number, Placed[]>();
  for (const aggregate of aggregates) {
    const aggregateHash = looseHash(aggregate.name, 0);
    for (const command of aggregate.commands) {
      const hash = looseHash(command.name, aggregateHash);
      const earlier = byHash.get(hash);
      if (earlier === undefined) {
        byHash.set(hash, [{ aggregate, command }]);
        continue;
      }
      const route = routeOf(context, { aggregate, command });
      const other = earlier.find((placed) => {
        const theirs = routeOf(context, placed);
        return theirs.method === route.method && theirs.path === route.path;
      });
      if (other !== undefined) {
        const args = { name: command.name, other: `${other.aggregate.name}.${other.command.name}`, method: route.method, path: route.path };
        reporter.report("WOW3024", args, command.decl.name.loc);
      }
      earlier.push({ aggregate, command });
    }
  }
}

function routeOf(context: string, { aggregate, command }: Placed): { method: string; path: string } {
  return commandRoute(context, aggregate.name, command.name, command);
}
