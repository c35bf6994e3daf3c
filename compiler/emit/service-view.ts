// Services in the generated code. `.wow` declares only a service's name; its TypeScript type is the
// host's. Each aggregate and saga gets a `…ServiceTypes` interface (one `unknown` entry per service it
// uses, keyed by the service's name, qualified when it is another context's) that the host narrows
// with its own types: `defineOrder<{ PaymentPolicy: PaymentPolicy }>(…)`. At run time a service is
// looked up by its qualified name (`"eshop-order.PaymentPolicy"`) in the host's services.
import type { ServiceParameter } from "../model.js";
import { docComment, propertyKey, stringLiteral } from "./escape.js";
import { compare } from "./imports.js";

export interface ServiceView {
  /** The handler's parameter, as a property key of its `services` argument. */
  readonly parameter: string;
  /** The key in the `…ServiceTypes` interface, as a property key (`PaymentPolicy`). */
  readonly key: string;
  /** The same key as a string literal, for indexed access types (`$Svc["PaymentPolicy"]`). */
  readonly typeKey: string;
  /** The qualified name as a string literal (`"eshop-order.PaymentPolicy"`). */
  readonly qualified: string;
  readonly doc: string;
}

export function serviceViews(context: string, services: readonly ServiceParameter[]): ServiceView[] {
  return services.map((service) => {
    const key = service.service.context === context ? service.service.name : service.service.qualifiedName;
    return {
      parameter: propertyKey(service.name),
      key: propertyKey(key),
      typeKey: stringLiteral(key),
      qualified: stringLiteral(service.service.qualifiedName),
      doc: docComment(service.service.decl.doc, "  "),
    };
  });
}

/** The entries of a `…ServiceTypes` interface: one per service, sorted by key. */
export function serviceTypeViews(context: string, services: readonly ServiceParameter[]): ServiceView[] {
  const byKey = new Map<string, ServiceView>();
  for (const view of serviceViews(context, services)) if (!byKey.has(view.typeKey)) byKey.set(view.typeKey, view);
  return [...byKey.values()].sort((a, b) => compare(a.typeKey, b.typeKey));
}
