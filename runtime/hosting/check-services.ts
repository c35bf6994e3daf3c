// A host starts only with every service its handlers list: a missing one is found when the host is
// created, not at the first command that needs it (which may come hours later, from a timer).
import type { AggregateRegistration, Services } from "../model/registration.js";
import type { SagaRegistration } from "../model/saga-registration.js";

/** Throws one error naming each service the host lacks and the handlers that list it. */
export function checkServices(aggregates: readonly AggregateRegistration[], sagas: readonly SagaRegistration[], services: Services): void {
  const missing = new Map<string, string[]>();
  const need = (names: readonly string[] | undefined, who: string): void => {
    for (const name of names ?? []) {
      if (name in services) continue;
      const whom = missing.get(name);
      if (whom === undefined) missing.set(name, [who]);
      else whom.push(who);
    }
  };
  for (const aggregate of aggregates) for (const [type, command] of Object.entries(aggregate.commands)) need(command.services, type);
  for (const saga of sagas) {
    for (const handler of [...Object.values(saga.events), ...Object.values(saga.rejections), ...saga.jobs]) need(handler.services, handler.subscription);
  }
  if (missing.size === 0) return;
  const list = [...missing].map(([name, whom]) => `${name} (listed by ${whom.join(", ")})`);
  throw new Error(`the host does not provide ${missing.size === 1 ? "the service" : "the services"} ${list.join("; ")}: pass ${missing.size === 1 ? "it" : "them"} in createHost's \`services\`, by qualified name`);
}
