// wowc check --host: each WOW5xxx case, implementations given by reference, and the clean e-shop.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { billingTs, hostCases, shopWow } from "./cases.js";
import { describeAll, runHostCase } from "./fixture.js";

const TIMEOUT = 180_000;

describe("wowc check --host", () => {
  for (const c of hostCases) {
    it(`${c.code}: ${c.title}`, () => {
      const diagnostics = runHostCase(c);
      expect(describeAll(diagnostics).sort()).toEqual(c.expected);
      for (const d of diagnostics) expect(`${d.message} ${d.hint ?? ""}`).not.toMatch(/\{[A-Za-z]+\}/);
    }, TIMEOUT);
  }
});

describe("wowc check --host: finding implementations", () => {
  it("follows an implementation object given by reference and handlers declared as functions elsewhere", () => {
    const diagnostics = runHostCase({
      code: "WOW5001",
      title: "by reference",
      wow: { "shop.wow": shopWow },
      host: {
        "src/decisions.ts": `
          import { ScheduleRule } from "wowc/runtime";
          import { Decision } from "../generated/sdk.js";
          import { CancelOrder, OrderPaid, OrderPlaced, type OrderHandlers } from "../generated/shop/index.js";

          const cancelLater = () => CancelOrder();

          export function placeOrder(...[, , scope]: Parameters<OrderHandlers["onPlaceOrder"]>) {
            scope.schedule("timeout", ScheduleRule.after("1h"), cancelLater());
            return Decision.events(OrderPlaced());
          }

          export const payOrder: OrderHandlers["onPayOrder"] = (_state, _command, scope) => {
            (scope as any).schedule("again", ScheduleRule.after("1h"), cancelLater());
            return Decision.events(OrderPaid());
          };
        `,
        "src/order.ts": `
          import { Decision } from "../generated/sdk.js";
          import { defineOrder, OrderCancelled, type OrderHandlers } from "../generated/shop/index.js";
          import { payOrder, placeOrder } from "./decisions.js";

          const base = { onPayOrder: payOrder };
          const impl: OrderHandlers = {
            ...base,
            initialState: () => ({ open: false }),
            onPlaceOrder: placeOrder,
            onCancelOrder: () => Decision.events(OrderCancelled()),
            apply: { OrderPlaced: () => ({ open: true }), OrderCancelled: () => ({ open: false }), OrderPaid: (s) => s },
          };
          export const order = defineOrder(impl);
        `,
        "src/billing.ts": billingTs(`return [context.command(Order.target(event.aggregate.id), PayOrder())];`),
      },
      expected: [],
    });
    expect(describeAll(diagnostics).sort()).toEqual(["src/decisions.ts WOW5001 13:62"]);
    expect(diagnostics[0]!.hint).toContain("`on PayOrder` at shop.wow:21");
  }, TIMEOUT);

  // Once silently skipped: "Checked 1 file", no WOW5001, no WOW5003.
  const orderObject = (placeOrder: string) => `{
    initialState: () => ({ open: false }),
    onPlaceOrder(_state, _command, scope) {
      ${placeOrder}
      return Decision.events(OrderPlaced());
    },
    onCancelOrder: () => Decision.events(OrderCancelled()),
    onPayOrder(_state, _command, scope) {
      scope.schedule("again", ScheduleRule.after("1h"), CancelOrder() as never);
      return Decision.events(OrderPaid());
    },
    apply: { OrderPlaced: () => ({ open: true }), OrderCancelled: () => ({ open: false }), OrderPaid: (s) => s },
  }`;
  const imports = `
    import { ScheduleRule } from "wowc/runtime";
    import { Decision } from "../generated/sdk.js";
    import { CancelOrder, defineOrder, OrderCancelled, OrderPaid, OrderPlaced, type OrderHandlers } from "../generated/shop/index.js";
    void defineOrder;
  `;
  const billing = billingTs(`return [context.command(Order.target(event.aggregate.id), PayOrder())];`);

  it("follows an implementation object exported by default and imported", () => {
    const diagnostics = runHostCase({
      code: "WOW5001",
      title: "export default",
      wow: { "shop.wow": shopWow },
      host: {
        "src/order-impl.ts": `${imports}\nexport default (${orderObject("")} satisfies OrderHandlers);\n`,
        "src/order.ts": `import { defineOrder } from "../generated/shop/index.js";\nimport impl from "./order-impl.js";\nexport const order = defineOrder(impl);\n`,
        "src/billing.ts": billing,
      },
      expected: [],
    });
    expect(describeAll(diagnostics).sort()).toEqual(["shop.wow WOW5003 15:53", "src/order-impl.ts WOW5001 14:57"]);
  }, TIMEOUT);

  it("follows a default export that names a variable, and an object returned by a factory", () => {
    const diagnostics = runHostCase({
      code: "WOW5001",
      title: "factories",
      wow: { "shop.wow": shopWow },
      host: {
        // A function declaration with one return; an arrow whose body is the object; a default export by name.
        "src/impl.ts": `${imports}
          function handlers(): OrderHandlers {
            const unused = () => { return 1; };
            void unused;
            return ${orderObject("")};
          }
          const arrow = (): OrderHandlers => (${orderObject(`scope.schedule("timeout", ScheduleRule.after("1h"), CancelOrder());`)});
          const impl: OrderHandlers = ${orderObject(`scope.schedule("timeout", ScheduleRule.after("1h"), CancelOrder());`)};
          export default impl;
          export const first = defineOrder(handlers());
          export const second = defineOrder(arrow());
        `,
        "src/third.ts": `import { defineOrder } from "../generated/shop/index.js";\nimport impl from "./impl.js";\nexport const third = defineOrder(impl);\n`,
        "src/billing.ts": billing,
      },
      expected: [],
    });
    // Each onPayOrder schedules the undeclared CancelOrder; handlers() never schedules the declared one,
    // but the other two implementations do, so it is not unused.
    expect(describeAll(diagnostics).sort()).toEqual(["src/impl.ts WOW5001 17:55", "src/impl.ts WOW5001 31:55", "src/impl.ts WOW5001 44:55"]);
  }, TIMEOUT);

  it("warns at a define… call whose implementation it cannot follow, instead of saying nothing", () => {
    const diagnostics = runHostCase({
      code: "WOW5008",
      title: "two returns",
      wow: { "shop.wow": shopWow },
      host: {
        "src/order.ts": `${imports}
          function handlers(flag: boolean): OrderHandlers {
            if (flag) return ${orderObject("")};
            return ${orderObject("")};
          }
          export const order = defineOrder(handlers(true));
        `,
        "src/billing.ts": billing,
      },
      expected: [],
    });
    expect(describeAll(diagnostics).sort()).toEqual(["src/order.ts WOW5008 34:42"]);
    expect(diagnostics[0]!.message).toBe("wowc cannot read the implementation given to `defineOrder(…)` at src/order.ts:34, so its handlers were not cross-checked.");
  }, TIMEOUT);

  it("tells apart the aggregates that share their context's generated module", () => {
    const wow = `
      context desk

      aggregate Ticket {
        state { open: boolean }
        @CreateAggregate
        command OpenTicket {}
        command CloseTicket {}
        event TicketOpened {}
        event TicketClosed {}
        @OnCommand(produces = [TicketOpened], schedules = [CloseTicket])
        on OpenTicket
        @OnCommand(produces = [TicketClosed])
        on CloseTicket
      }

      aggregate Agent {
        state { busy: boolean }
        @CreateAggregate
        command HireAgent {}
        event AgentHired {}
        @OnCommand(produces = [AgentHired])
        on HireAgent
      }
    `;
    const diagnostics = runHostCase({
      code: "WOW5001",
      title: "two aggregates, one module",
      wow: { "desk.wow": wow },
      host: {
        "src/desk.ts": `
          import { ScheduleRule } from "wowc/runtime";
          import { Decision } from "../generated/sdk.js";
          import { AgentHired, CloseTicket, defineAgent, defineTicket, TicketClosed, TicketOpened } from "../generated/desk/index.js";

          export const ticket = defineTicket({
            initialState: () => ({ open: false }),
            onOpenTicket(_state, _command, scope) {
              scope.schedule("close", ScheduleRule.after("1d"), CloseTicket());
              return Decision.events(TicketOpened());
            },
            onCloseTicket(_state, _command, scope) {
              (scope as any).schedule("again", ScheduleRule.after("1d"), CloseTicket());
              return Decision.events(TicketClosed());
            },
            apply: { TicketOpened: () => ({ open: true }), TicketClosed: () => ({ open: false }) },
          });

          export const agent = defineAgent({
            initialState: () => ({ busy: false }),
            onHireAgent: () => Decision.events(AgentHired()),
            apply: { AgentHired: (s) => s },
          });
        `,
      },
      expected: [],
    });
    // Each define… call is read against its own aggregate's declaration: the ticket's undeclared schedule is
    // found, its declared one is not reported as never scheduled, and the agent (declared after it) is clean.
    expect(describeAll(diagnostics).sort()).toEqual(["src/desk.ts WOW5001 12:64"]);
    expect(diagnostics[0]!.hint).toContain("`on CloseTicket` at desk.wow:");
  }, TIMEOUT);

  it("finds nothing wrong in the example e-shop and its host", () => {
    // A copy of the example with an SDK of its own: examples/eshop/generated is not committed, and
    // another test writes it meanwhile.
    const example = fileURLToPath(new URL("../../examples/eshop/", import.meta.url));
    const read = (dir: string, suffix: string) =>
      Object.fromEntries(readdirSync(join(example, dir)).filter((name) => name.endsWith(suffix)).map((name) => [join(dir, name), readFileSync(join(example, dir, name), "utf8")]));
    const diagnostics = runHostCase({ code: "-", title: "the e-shop", wow: read(".", ".wow"), host: read("src", ".ts"), expected: [] });
    expect(describeAll(diagnostics)).toEqual([]);
  }, TIMEOUT);
});
