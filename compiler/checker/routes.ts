// Each command's HTTP route (runtime/model/command-route.ts: the manifest's, and what the runtime's
// HTTP layer serves) must be its own: routes spell aggregates and commands in snake_case, so
// `PAYOrder` and `PayORDER` are both `…/pay_order`, and only one of them could be reached (WOW3024).
import type { AggregateModel, CommandModel } from "../model.js";
import { commandRoute } from "../../runtime/model/command-route.js";
import type { Reporter } from "./reporter.js";

interface Placed {
  readonly aggregate: AggregateModel;
  readonly command: CommandModel;
}

/**
 * Reports each command whose route an earlier command of `context` already has. Two names can
 * only share a snake_case spelling when they are equal ignoring case, `_` and `-`, so routes are
 * made only for commands whose names meet on a hash of that (`looseHash`): in most builds, none.
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

/** A hash of `name` in lower case without `_` and `-`, continuing `seed`; equal for names snake_case spells alike. */
function looseHash(name: string, seed: number): number {
  let hash = (Math.imul(seed, 31) + 47) | 0; // separates the aggregate's part from the command's
  for (let i = 0; i < name.length; i++) {
    const code = name.charCodeAt(i);
    if (code === 95 || code === 45) continue; // `_`, `-`
    hash = (Math.imul(hash, 31) + (code >= 65 && code <= 90 ? code + 32 : code)) | 0;
  }
  return hash;
}
