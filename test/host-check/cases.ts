// One case per host cross-check code (WOW5xxx): the test of each code, and the examples of
// grammar/DIAGNOSTICS.md. A small shop: an order that schedules its own cancellation, a saga that
// pays it.
import type { HostCase } from "./fixture.js";

export const shopWow = `
  context shop

  aggregate Order {
    state { open: boolean }

    @CreateAggregate
    command PlaceOrder {}
    command CancelOrder {}
    command PayOrder {}

    event OrderPlaced {}
    event OrderCancelled {}
    event OrderPaid {}

    @OnCommand(produces = [OrderPlaced], schedules = [CancelOrder])
    on PlaceOrder

    @OnCommand(produces = [OrderCancelled])
    on CancelOrder

    @OnCommand(produces = [OrderPaid])
    on PayOrder
  }

  saga Billing {
    @OnEvent(commands = [PayOrder])
    on OrderPlaced
  }
`;

/** The order's implementation; `placeOrder` and `payOrder` are the bodies of the two decisions that vary. */
export function orderTs(placeOrder: string, payOrder = "return Decision.events(OrderPaid());"): string {
  return `
    import { ScheduleRule } from "wowc/runtime";
    import { Decision } from "../generated/sdk.js";
    import { CancelOrder, defineOrder, OrderCancelled, OrderPaid, OrderPlaced } from "../generated/shop/index.js";

    export const order = defineOrder({
      initialState: () => ({ open: false }),
      onPlaceOrder(_state, _command, scope) {
        ${placeOrder}
      },
      onCancelOrder: () => Decision.events(OrderCancelled()),
      onPayOrder(_state, _command, scope) {
        ${payOrder}
      },
      apply: { OrderPlaced: (s) => ({ open: true }), OrderCancelled: (s) => ({ open: false }), OrderPaid: (s) => s },
    });
    void ScheduleRule; void CancelOrder;
  `;
}

const schedulesCancel = `scope.schedule("timeout", ScheduleRule.after("1h"), CancelOrder());\n        return Decision.events(OrderPlaced());`;

export function billingTs(body: string): string {
  return `
    import { defineBilling, Order, PayOrder, CancelOrder } from "../generated/shop/index.js";

    export const billing = defineBilling({
      onOrderPlaced(event, context) {
        ${body}
      },
    });
    void PayOrder; void CancelOrder; void Order;
  `;
}

const paysOrder = `return [context.command(Order.target(event.aggregate.id), PayOrder())];`;

export const hostCases: readonly HostCase[] = [
  {
    code: "WOW5001",
    title: "a decision schedules a command its `schedules` does not list (the type cast away)",
    wow: { "shop.wow": shopWow },
    host: { "src/order.ts": orderTs(schedulesCancel, `scope.schedule("again", ScheduleRule.after("1h"), CancelOrder() as never);\n        return Decision.events(OrderPaid());`), "src/billing.ts": billingTs(paysOrder) },
    expected: ["src/order.ts WOW5001 13:55"],
  },
  {
    code: "WOW5002",
    title: "a saga sends a command its `commands` does not list (the type cast away)",
    wow: { "shop.wow": shopWow },
    host: { "src/order.ts": orderTs(schedulesCancel), "src/billing.ts": billingTs(`return [context.command(Order.target(event.aggregate.id), PayOrder()), context.command(Order.target(event.aggregate.id), CancelOrder() as any)];`) },
    expected: ["src/billing.ts WOW5002 5:126"],
  },
  {
    code: "WOW5003",
    title: "a command declared in `schedules` that no implementation schedules",
    wow: { "shop.wow": shopWow },
    host: { "src/order.ts": orderTs("return Decision.events(OrderPlaced());"), "src/billing.ts": billingTs(paysOrder) },
    expected: ["shop.wow WOW5003 15:53"],
  },
  {
    code: "WOW5004",
    title: "a command declared in a saga's `commands` that no implementation sends",
    wow: { "shop.wow": shopWow },
    host: { "src/order.ts": orderTs(schedulesCancel), "src/billing.ts": billingTs("return [];") },
    expected: ["shop.wow WOW5004 26:24"],
  },
  {
    code: "WOW5005",
    title: "a scheduled command typed `any`",
    wow: { "shop.wow": shopWow },
    host: { "src/order.ts": orderTs(`const command: any = CancelOrder();\n        scope.schedule("timeout", ScheduleRule.after("1h"), command);\n        return Decision.events(OrderPlaced());`), "src/billing.ts": billingTs(paysOrder) },
    expected: ["src/order.ts WOW5005 9:57"],
  },
  {
    code: "WOW5006",
    title: "the host tsconfig does not exist",
    wow: { "shop.wow": shopWow },
    host: {},
    tsconfig: "missing/tsconfig.json",
    expected: ["WOW5006"],
  },
  {
    code: "WOW5007",
    title: "the host project calls no generated `define…` function",
    wow: { "shop.wow": shopWow },
    host: { "src/index.ts": `export const nothing = 0;\n` },
    expected: ["WOW5007"],
  },
  {
    code: "WOW5008",
    title: "an implementation object that cannot be followed (a parameter)",
    wow: { "shop.wow": shopWow },
    host: {
      "src/order.ts": `
        import { defineOrder, type OrderHandlers } from "../generated/shop/index.js";

        export function makeOrder(impl: OrderHandlers) {
          return defineOrder(impl);
        }
      `,
      "src/billing.ts": billingTs(paysOrder),
    },
    expected: ["src/order.ts WOW5008 4:22"],
  },
];

export const hostCaseCodes: readonly string[] = hostCases.map((c) => c.code);
