// HTTP routes of commands, following Wow's route grammar
// `[{contextAlias}/][tenant/{tenantId}/][owner/{ownerId}/]{aggregate}/[{id}/]{command_name}`:
//   - the context name is the alias, and every route is tenant-scoped (`tenant/{tenantId}/`);
//   - aggregate and command names are snake_case;
//   - a create command is POST and has no `{id}` (the runtime assigns the new aggregate's id, or
//     takes it from the `Command-Aggregate-Id` header); a delete command is DELETE; others PUT.
// e.g. `PUT /eshop-order/tenant/{tenantId}/order/{id}/confirm_order_stock`.
// The one definition: the compiler writes these routes into the manifest, the HTTP layer serves them.

export type HttpMethod = "POST" | "PUT" | "DELETE";

export interface CommandRoute {
  readonly method: HttpMethod;
  /** With `{tenantId}` and `{id}` placeholders. */
  readonly path: string;
}

/** `ConfirmOrderStock` → `confirm_order_stock`, `HTTPRequest2` → `http_request2`, `order_item` stays. */
export function snakeCase(name: string): string {
  let snake = snakeCases.get(name);
  if (snake === undefined) {
    snake = name
      .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
      .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
      .replace(/-/g, "_")
      .toLowerCase();
    // Names repeat (a command is routed for the manifest, openapi.json, the client and the host): each is spelt once.
    if (snakeCases.size < 10_000) snakeCases.set(name, snake);
  }
  return snake;
}

const snakeCases = new Map<string, string>();

export function commandRoute(context: string, aggregate: string, command: string, kind: { readonly create?: boolean; readonly delete?: boolean }): CommandRoute {
  const method: HttpMethod = kind.create === true ? "POST" : kind.delete === true ? "DELETE" : "PUT";
  const id = kind.create === true ? "" : "{id}/";
  return { method, path: `/${context}/tenant/{tenantId}/${snakeCase(aggregate)}/${id}${snakeCase(command)}` };
}
