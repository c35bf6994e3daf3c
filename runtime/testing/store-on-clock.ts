// A store seen through a virtual clock: each of its operations is I/O the clock waits for (`io`), so a
// store on a database server, whose round trips take many event-loop turns, runs a spec as an
// in-process one does. Reads and writes of properties go to the store itself.
import type { Store } from "../store/store.js";
import type { VirtualClock } from "./virtual-clock.js";

const PARTS = new Set<PropertyKey>(["events", "timers", "subscriptions", "runs"]);

export function storeOnClock(store: Store, clock: VirtualClock): Store {
  const parts = new Map<PropertyKey, object>();
  return onClock(store, clock, (key, value) => {
    if (!PARTS.has(key) || typeof value !== "object" || value === null) return undefined;
    if (!parts.has(key)) parts.set(key, onClock(value, clock));
    return parts.get(key);
  });
}

/** `target`'s methods returning promises as `clock.io`; `part`: what to give for a property instead, if anything. */
function onClock<T extends object>(target: T, clock: VirtualClock, part: (key: PropertyKey, value: unknown) => object | undefined = () => undefined): T {
  // The proxy's own target is an empty object: the store's frozen or read-only properties bind no invariant.
  return new Proxy({} as T, {
    get(_, key) {
      const value: unknown = Reflect.get(target, key, target);
      const instead = part(key, value);
      if (instead !== undefined) return instead;
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        const result: unknown = (value as (...a: unknown[]) => unknown).apply(target, args);
        return result instanceof Promise ? clock.io(result) : result;
      };
    },
    set: (_, key, value) => Reflect.set(target, key, value, target),
    has: (_, key) => Reflect.has(target, key),
  });
}
