// A saga's event handlers and jobs are durable subscriptions named `<saga>.<function>` (as the
// manifest names them, compiler/manifest/build-manifest.ts): the name has no context, and the
// runtime keeps each subscription's checkpoint under it, so two contexts' sagas of one name must
// not subscribe alike (WOW3027). In one context, two sagas of one name are WOW2007 already.
import type { Location } from "../ast.js";
import { subscriptionName, type ProgramModel } from "../model.js";
import { compareLocations, where, type Reporter } from "../diagnostics/reporter.js";

interface Subscriber {
  readonly name: string;
  readonly saga: string;
  readonly context: string;
  /** The event handled, or the job (named when reported: most subscriptions never are). */
  readonly event?: string;
  readonly job?: string;
  readonly loc: Location;
}

/** Across the whole program: reports each subscription that a saga of another context, earlier in the sources, already has. */
export function checkSubscriptions(model: ProgramModel, reporter: Reporter): void {
  const all = subscribers(model);
  const first = new Map<string, Subscriber>();
  for (const subscriber of all) {
    const other = first.get(subscriber.name);
    if (other === undefined || compareLocations(subscriber.loc, other.loc) < 0) first.set(subscriber.name, subscriber);
  }
  for (const subscriber of all) {
    const other = first.get(subscriber.name)!;
    if (other.context === subscriber.context) continue;
    const { name, context, saga, event, job } = subscriber;
    const what = event !== undefined ? `the handler of event '${event}'` : `job '${job}'`;
    reporter.report("WOW3027", { name, what, context, saga, otherContext: other.context, other: where(other.loc) }, subscriber.loc, [other.loc]);
  }
}

function subscribers(model: ProgramModel): Subscriber[] {
  const out: Subscriber[] = [];
  for (const { name: context, sagas } of model.contexts) {
    for (const saga of sagas) {
      for (const h of saga.eventHandlers) {
        out.push({ name: subscriptionName(saga.name, h.function), saga: saga.name, context, event: h.decl.target.text, loc: h.decl.target.loc });
      }
      for (const job of saga.jobs) {
        out.push({ name: subscriptionName(job.saga, job.function), saga: saga.name, context, job: job.function, loc: job.decl.name.loc });
      }
    }
  }
  return out;
}
