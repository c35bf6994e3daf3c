// Case conversions of `.wow` names, shared by the binder (the SDK's names), the generator and the
// configuration's keys. snake_case, the routes' spelling, is the runtime's (runtime/model/command-route.ts).

/** `OrderStatus` → `orderStatus`; `receive-deliveries` → `receiveDeliveries`. */
export function camelCase(name: string): string {
  const pascal = pascalCase(name);
  return pascal.charAt(0).toLowerCase() + pascal.slice(1);
}

/** `eshop-order` → `EshopOrder`; `stock` → `Stock`. */
export function pascalCase(name: string): string {
  return name
    .split(/[^A-Za-z0-9]+/)
    .filter((part) => part !== "")
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join("");
}
