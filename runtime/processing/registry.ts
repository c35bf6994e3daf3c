import type { AggregateRef } from "../model/aggregate-ref.js";
import type { AggregateRegistration, CommandRegistration } from "../model/registration.js";
import { isSystemCommand, UNIVERSAL_SYSTEM_COMMANDS } from "./system-commands.js";

export interface CommandRoute {
  readonly aggregate: AggregateRegistration;
  readonly command: CommandRegistration;
}

/** Finds the aggregate and handler of a command type. Each command type is handled exactly once. */
export class AggregateRegistry {
  private readonly routes = new Map<string, CommandRoute>();
  private readonly aggregates = new Map<string, AggregateRegistration>();

  constructor(registrations: readonly AggregateRegistration[]) {
    for (const aggregate of registrations) {
      const name = `${aggregate.context}.${aggregate.aggregate}`;
      if (this.aggregates.has(name)) throw new Error(`aggregate ${name} is registered twice`);
      this.aggregates.set(name, aggregate);
      for (const [type, command] of Object.entries(aggregate.commands)) {
        if (isSystemCommand(type)) continue;
        const other = this.routes.get(type);
        if (other) throw new Error(`command ${type} is handled by both ${other.aggregate.aggregate} and ${aggregate.aggregate}`);
        this.routes.set(type, { aggregate, command });
      }
    }
  }

  /** A system command (`wow.*`) routes by `ref` to that aggregate, which handles it itself or as every aggregate does. */
  route(type: string, ref?: AggregateRef): CommandRoute | undefined {
    if (!isSystemCommand(type)) return this.routes.get(type);
    const aggregate = ref && this.aggregates.get(`${ref.context}.${ref.aggregate}`);
    const command = aggregate && (aggregate.commands[type] ?? UNIVERSAL_SYSTEM_COMMANDS[type]);
    return aggregate && command ? { aggregate, command } : undefined;
  }

  /** The route of `command`, if an aggregate of its target's kind handles its type (the one place this is decided). */
  routeFor(command: { readonly type: string; readonly aggregate: AggregateRef }): CommandRoute | undefined {
    const route = this.route(command.type, command.aggregate);
    const { context, aggregate } = command.aggregate;
    return route && route.aggregate.context === context && route.aggregate.aggregate === aggregate ? route : undefined;
  }

  /** Every command type with its route (system commands aside). */
  commands(): IterableIterator<[string, CommandRoute]> {
    return this.routes.entries();
  }

  aggregate(context: string, aggregate: string): AggregateRegistration | undefined {
    return this.aggregates.get(`${context}.${aggregate}`);
  }
}
