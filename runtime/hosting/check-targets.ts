// A host starts only when every command its sagas and jobs may send (or ask a target to schedule)
// is handled by an aggregate it registers: otherwise those commands would go nowhere, hours later.
import type { SagaRegistration } from "../model/saga-registration.js";
import type { AggregateRegistry } from "../processing/registry.js";

/** Throws one error naming each command type no registered aggregate handles, and who sends it. */
export function checkTargets(sagas: readonly SagaRegistration[], registry: AggregateRegistry): void {
  const missing = new Map<string, string[]>();
  const need = (types: readonly string[] | undefined, who: string): void => {
    for (const type of types ?? []) {
      if (registry.route(type) !== undefined) continue;
      const whom = missing.get(type);
      if (whom === undefined) missing.set(type, [who]);
      else if (!whom.includes(who)) whom.push(who);
    }
  };
  for (const saga of sagas) {
    for (const handler of Object.values(saga.events)) {
      need(handler.commands, handler.subscription);
      need(handler.schedules, handler.subscription);
    }
    for (const job of saga.jobs) need(job.commands, job.subscription);
  }
  if (missing.size === 0) return;
  const list = [...missing].map(([type, whom]) => `${type} (sent by ${whom.join(", ")})`);
  throw new Error(
    `no registered aggregate handles ${missing.size === 1 ? "the command" : "the commands"} ${list.join("; ")}: register the aggregate${missing.size === 1 ? " that handles it" : "s that handle them"} in createHost's \`registrations\``,
  );
}
