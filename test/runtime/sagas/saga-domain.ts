// A small domain for saga and job tests: shop.order (created explicitly), shop.stock (exists once
// it has an event), a saga between them, and jobs of each kind.
import { Decision, reject, type AggregateRegistration, type CommandRejection, type SagaJobRegistration, type SagaRegistration } from "../../../runtime/index.js";

export const S = {
  CreateOrder: "shop.CreateOrder",
  CancelOrder: "shop.CancelOrder",
  ArchiveOrder: "shop.ArchiveOrder",
  Explode: "shop.Explode",
  OrderCreated: "shop.OrderCreated",
  OrderCancelled: "shop.OrderCancelled",
  Receive: "shop.Receive",
  Reserve: "shop.Reserve",
  Release: "shop.Release",
  Received: "shop.Received",
  Reserved: "shop.Reserved",
  Released: "shop.Released",
} as const;

export const order: AggregateRegistration<{ status: string }> = {
  context: "shop",
  aggregate: "Order",
  initialState: () => ({ status: "NONE" }),
  commands: {
    [S.CreateOrder]: { create: true, decide: (_s, c) => Decision.events({ type: S.OrderCreated, body: c.body }) },
    [S.CancelOrder]: {
      decide: (s) => (s.status === "CANCELLED" ? reject("IllegalState", "already cancelled") : Decision.events({ type: S.OrderCancelled, body: {} })),
    },
    [S.ArchiveOrder]: { delete: true, decide: () => Decision.noOp },
  },
  events: { [S.OrderCreated]: () => ({ status: "OPEN" }), [S.OrderCancelled]: () => ({ status: "CANCELLED" }) },
};

export const stock: AggregateRegistration<{ available: number }> = {
  context: "shop",
  aggregate: "Stock",
  initialState: () => ({ available: 0 }),
  commands: {
    [S.Receive]: { decide: (_s, c) => Decision.events({ type: S.Received, body: c.body }) },
    [S.Reserve]: {
      decide: (s, c) => {
        const { quantity } = c.body as { quantity: number };
        if (s.available < quantity) reject("OutOfStock", `only ${s.available} left`);
        return Decision.events({ type: S.Reserved, body: c.body });
      },
    },
    /** An order id starting with `x-` is refused (a scheduled release's own rejection). */
    /** A technical failure (not a rejection): timers retry, then park it. */
    [S.Explode]: {
      decide: () => {
        throw new Error("the stock's store is down");
      },
    },
    [S.Release]: {
      decide: (_s, c) => ((c.body as { order: string }).order.startsWith("x-") ? reject("NotHeld", "nothing held") : Decision.events({ type: S.Released, body: c.body })),
    },
  },
  events: {
    [S.Received]: (s, e) => ({ available: s.available + (e.body as { quantity: number }).quantity }),
    [S.Reserved]: (s, e) => ({ available: s.available - (e.body as { quantity: number }).quantity }),
  },
};

/** What the saga's handlers saw; tests flip `fail` to make the OrderCreated handler throw. */
export interface Probe {
  fail: number;
  calls: number;
  rejections: CommandRejection[];
}

export function probe(): Probe {
  return { fail: 0, calls: 0, rejections: [] };
}

export interface OrderBody {
  product: string;
  quantity: number;
  /** Asks a stock that may not exist to hold the reservation (schedule Release after 1h). */
  holdOn?: string;
}

export function shopSaga(p: Probe, jobs: SagaJobRegistration[] = []): SagaRegistration {
  return {
    context: "shop",
    saga: "ShopSaga",
    events: {
      [S.OrderCreated]: {
        function: "onOrderCreated",
        subscription: "ShopSaga.onOrderCreated",
        blocking: false,
        commands: [S.Reserve],
        schedules: [S.Release],
        handle(event, context) {
          p.calls++;
          if (p.fail > 0) {
            p.fail--;
            throw new Error("the saga's service is down");
          }
          const body = event.body as OrderBody;
          return [
            context.command({ context: "shop", aggregate: "Stock", id: body.product }, { type: S.Reserve, body: { order: event.aggregate.id, quantity: body.quantity } }),
            context.schedule(`hold:${event.aggregate.id}`, { kind: "after", after: 3_600_000 }, { context: "shop", aggregate: "Stock", id: body.holdOn ?? body.product }, {
              type: S.Release,
              body: { order: event.aggregate.id },
            }),
          ];
        },
      },
      [S.OrderCancelled]: {
        function: "onOrderCancelled",
        subscription: "ShopSaga.onOrderCancelled",
        blocking: false,
        commands: [],
        schedules: [],
        handle: (event, context) => [context.cancel(`hold:${event.aggregate.id}`, { context: "shop", aggregate: "Stock", id: "mug" })],
      },
    },
    rejections: {
      [S.Reserve]: { function: "onReserveRejected", subscription: "ShopSaga.onReserveRejected", blocking: false, handle: (r) => void p.rejections.push(r) },
      [S.Release]: { function: "onReleaseRejected", subscription: "ShopSaga.onReleaseRejected", blocking: false, handle: (r) => void p.rejections.push(r) },
    },
    jobs,
  };
}

/** A job that receives `quantity` of each product on every tick (products from a service). */
export function receiveJob(overrides: Partial<SagaJobRegistration> = {}): SagaJobRegistration {
  return {
    name: "receive",
    function: "receive",
    subscription: "ShopSaga.receive",
    cron: "0 0 * * * *",
    zone: "UTC",
    scope: "SYSTEM",
    sharded: false,
    misfire: "COALESCE",
    blocking: false,
    commands: [S.Receive],
    services: ["shop.Suppliers"],
    async handle(tick, context, services) {
      const suppliers = services["shop.Suppliers"] as { delivered(tenantId: string, due: number, skipped: number): Promise<string[]> };
      const products = await suppliers.delivered(tick.tenantId, tick.due, tick.skipped);
      return products.map((product) =>
        context.command({ context: "shop", aggregate: "Stock", tenantId: tick.tenantId, id: product }, { type: S.Receive, body: { quantity: 10, slot: tick.slot, partition: tick.partition ?? null } }),
      );
    },
    ...overrides,
  };
}

export const suppliers = {
  async delivered(_tenantId: string, _due: number, _skipped: number): Promise<string[]> {
    return ["cap", "mug"];
  },
};
