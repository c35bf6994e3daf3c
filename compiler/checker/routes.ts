// Each command's HTTP route (runtime/model/command-route.ts: the manifest's, and what the runtime's
// HTTP layer serves) must be its own: routes spell aggregates and commands in snake_case, so
// `PAYOrder` and `PayORDER` are both `…/pay_order`, and only one of them could be reached (WOW3024).
import type { AggregateModel, CommandModel } from "../model.js";
import { commandRoute } from "../../runtime/model/command-route.js";
import type { Reporter } from "../diagnostics/reporter.js";
import { forEachSpelledAlike, looseHash } from "./spelled-alike.js";

interface Placed {
  readonly aggregate: AggregateModel;
  readonly command: CommandModel;
}

/** Reports each command whose route an earlier command of `context` already has. */
export function checkRoutes(context: string, aggregates: readonly AggregateModel[], reporter: Reporter): void {
  const route = ({ aggregate, command }: Placed) => commandRoute(context, aggregate.name, command.name, command);
  forEachSpelledAlike(
    placed(aggregates),
    ({ aggregate, command }) => looseHash(command.name, looseHash(aggregate.name)),
    (item) => {
      const { method, path } = route(item);
      return `${method} ${path}`;
    },
    (item, earlier) => {
      // Two commands of one name: the duplicate-name error (WOW2007) already says it.
      if (item.command.name === earlier.command.name) return;
      const { method, path } = route(item);
      const args = { name: item.command.name, other: `${earlier.aggregate.name}.${earlier.command.name}`, method, path };
      reporter.report("WOW3024", args, item.command.decl.name.loc);
    },
  );
}

function placed(aggregates: readonly AggregateModel[]): Placed[] {
  const out: Placed[] = [];
  for (const aggregate of aggregates) for (const command of aggregate.commands) out.push({ aggregate, command });
  return out;
}
