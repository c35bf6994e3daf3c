// Environment overrides. The generated config lists every variable it knows with the path it sets
// (`WOW_SCHEDULES__RECEIVE_DELIVERIES__EXPRESSION` → wow/schedules/receive-deliveries/expression,
// `WOW_TIMERS__POLL_INTERVAL` → wow/timers/poll-interval): `__` separates levels, `-` becomes `_`,
// letters are upper case. A value that reads as a JSON number or boolean is one; else it is a string.

/** The variables that are set, as a nested object, and which variable set each JSON pointer. */
export function readEnvironment(
  table: Readonly<Record<string, readonly string[]>>,
  env: Readonly<Record<string, string | undefined>>,
): { readonly overrides: Record<string, unknown>; readonly sources: Map<string, string> } {
  const overrides: Record<string, unknown> = {};
  const sources = new Map<string, string>();
  for (const variable of Object.keys(table).sort()) {
    const raw = env[variable];
    if (raw === undefined) continue;
    const path = table[variable]!;
    let node = overrides;
    for (const key of path.slice(0, -1)) {
      const next = Object.hasOwn(node, key) ? node[key] : undefined;
      if (typeof next === "object" && next !== null) node = next as Record<string, unknown>;
      else node = setOwn(node, key, {}) as Record<string, unknown>;
    }
    setOwn(node, path[path.length - 1]!, coerce(raw));
    sources.set(pointer(path), variable);
  }
  return { overrides, sources };
}

function coerce(raw: string): unknown {
  const text = raw.trim();
  if (text === "true") return true;
  if (text === "false") return false;
  if (/^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  return raw;
}

/** A JSON pointer for a path: `/wow/schedules/a~1b`. */
export function pointer(path: readonly string[]): string {
  return path.map((key) => `/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");
}

/**
 * `object[key] = value` as an own data property, whatever the key: a job may be named `__proto__`,
 * and a plain assignment of that key would set the object's prototype instead (and reading
 * `node["__proto__"]` on the way down would reach `Object.prototype` itself).
 */
export function setOwn<T>(object: Record<string, unknown>, key: string, value: T): T {
  Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
  return value;
}
