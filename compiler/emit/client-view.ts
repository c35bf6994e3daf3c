// The view model of `client.ts`: one method per command of each aggregate, typed from the model (the
// body type of the command, the events its handler may produce), with the command's route.
import { camelCase } from "../case.js";
import { commandRoute } from "../manifest/routes.js";
import type { AggregateModel, ProgramModel } from "../model.js";
import { docComment, identifier, methodKey, stringLiteral } from "./escape.js";
import { aggregatesFile, contextFolder } from "./imports.js";

interface ClientCommandView {
  readonly doc: string;
  readonly method: string;
  readonly parameters: string;
  readonly events: string;
  readonly httpMethod: string;
  readonly path: string;
  readonly id: string;
  readonly body: string;
}

export interface ClientView {
  readonly imports: readonly string[];
  readonly aggregates: ReadonlyArray<{ readonly key: string; readonly qualified: string; readonly commands: readonly ClientCommandView[] }>;
  readonly example: string;
}

export function clientView(model: ProgramModel): ClientView {
  const imports: string[] = [];
  const aggregates: ClientView["aggregates"][number][] = [];
  // An aggregate's key is its name in camelCase; one that two contexts share gets its context's too;
  // names that camelCase makes one (`Cart` and `cart`) keep their own spelling, qualified if need be.
  const counts = new Map<string, number>();
  for (const context of model.contexts) for (const a of context.aggregates) counts.set(a.name, (counts.get(a.name) ?? 0) + 1);
  const preferredKeys = new Map<AggregateModel, string>();
  const preferred = (context: string, aggregate: AggregateModel): string => {
    let key = preferredKeys.get(aggregate);
    if (key === undefined) preferredKeys.set(aggregate, (key = counts.get(aggregate.name)! > 1 ? camelCase(`${context}-${aggregate.name}`) : camelCase(aggregate.name)));
    return key;
  };
  const keyCounts = new Map<string, number>();
  for (const context of model.contexts) for (const a of context.aggregates) keyCounts.set(preferred(context.name, a), (keyCounts.get(preferred(context.name, a)) ?? 0) + 1);
  model.contexts.forEach((context, index) => {
    const withHandlers = context.aggregates.filter((a) => a.commands.some((c) => c.handler !== undefined));
    if (withHandlers.length === 0) return;
    const ns = `$c${index}`;
    imports.push(`import type * as ${ns} from "./${contextFolder(context.name)}/${aggregatesFile()}.js";`);
    for (const aggregate of withHandlers) {
      const wanted = preferred(context.name, aggregate);
      const key = keyCounts.get(wanted)! === 1 ? wanted : counts.get(aggregate.name)! > 1 ? `${context.name}.${aggregate.name}` : aggregate.name;
      const methods = aggregate.commands.map((c) => camelCase(c.name));
      const methodCounts = new Map<string, number>();
      for (const method of methods) methodCounts.set(method, (methodCounts.get(method) ?? 0) + 1);
      const commands = aggregate.commands.flatMap((command, index): ClientCommandView[] => {
        const handler = command.handler;
        if (handler === undefined) return [];
        const route = commandRoute(context.name, aggregate.name, command.name, command);
        const events = handler.produces.length === 0 ? "never" : handler.produces.map((e) => `${ns}.${identifier(e.name)}Event`).join(" | ");
        const body = `${ns}.${identifier(command.name)}`;
        const optional = command.fields.every((f) => f.type.optional);
        const parameters: string[] = [];
        if (!command.create) parameters.push("id: string");
        if (command.fields.length > 0) parameters.push(`body: ${body}${optional ? " = {}" : ""}`);
        parameters.push(`options$?: ${command.create ? "CreateOptions" : "CommandOptions"}`);
        return [{
          doc: docComment(joined(command.decl.doc, handler.decl.doc), "      "),
          method: methodKey(methodCounts.get(methods[index]!)! === 1 ? methods[index]! : command.name),
          parameters: parameters.join(", "),
          events,
          httpMethod: stringLiteral(route.method),
          path: stringLiteral(route.path),
          id: command.create ? "undefined" : "id",
          body: command.fields.length === 0 ? "{}" : "body",
        }];
      });
      aggregates.push({ key: methodKey(key), qualified: `${context.name}.${aggregate.name}`, commands });
    }
  });
  const first = aggregates[0];
  const command = first?.commands[0];
  return { imports, aggregates, example: first === undefined || command === undefined ? "…" : `${first.key}.${command.method}(…)` };
}

function joined(...docs: (string | undefined)[]): string | undefined {
  const present = docs.filter((d): d is string => d !== undefined && d.trim() !== "");
  return present.length === 0 ? undefined : present.join("\n\n");
}
