import type { AggregateRegistration, CommandRegistration } from "../model/registration.js";

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
        const other = this.routes.get(type);
        if (other) throw new Error(`command ${type} is handled by both ${other.aggregate.aggregate} and ${aggregate.aggregate}`);
        this.routes.set(type, { aggregate, command });
      }
    }
  }

  route(type: string): CommandRoute | undefined {
    return this.routes.get(type);
  }

  aggregate(context: string, aggregate: string): AggregateRegistration | undefined {
    return this.aggregates.get(`${context}.${aggregate}`);
  }
}
