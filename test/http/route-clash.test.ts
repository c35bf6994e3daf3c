// Two hand-written registrations whose commands have one HTTP route (`PayNow` and `PAY_NOW` are
// both `pay_now`): serving them is refused with both command types named, since the route table
// could reach only one. wowc build refuses the same in sources (WOW3024).
import { expect, it } from "vitest";
import { createHost, MemoryStore, type AggregateRegistration } from "../../runtime/index.js";

function cart(commands: readonly string[], aggregate = "Cart"): AggregateRegistration {
  return {
    context: "shop",
    aggregate,
    initialState: () => ({}),
    commands: Object.fromEntries(commands.map((name) => [`shop.${name}`, { decide: () => ({ kind: "noop" as const }) }])),
    events: {},
  };
}

it("refuses to serve two commands with one route, naming both", () => {
  const host = createHost({ registrations: [cart(["PayNow", "PAY_NOW"])], store: new MemoryStore() });
  expect(() => host.requestListener).toThrow(/commands shop\.(PayNow|PAY_NOW) and shop\.(PAY_NOW|PayNow) have one HTTP route, PUT \/shop\/tenant\/\{tenantId\}\/cart\/\{id\}\/pay_now/);
});

it("refuses the same across two aggregates whose names meet in snake_case", () => {
  const host = createHost({ registrations: [cart(["PayNow"]), cart(["Pay_now"], "cart")], store: new MemoryStore() });
  expect(() => host.requestListener).toThrow(/have one HTTP route/);
});

it("serves commands whose routes differ", () => {
  const host = createHost({ registrations: [cart(["PayNow", "PayLater"])], store: new MemoryStore() });
  expect(typeof host.requestListener).toBe("function");
});
