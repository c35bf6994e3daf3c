// The order aggregate: it cancels itself when payment does not arrive within the grace period.
import { reject, ScheduleRule } from "wowc/runtime";
import {
  CancelOrder,
  defineOrder,
  OrderCancelled,
  OrderCreated,
  OrderPaid,
  OrderStockConfirmed,
  OrderStockItemConfirmed,
  type OrderState,
  CancelReason,
  OrderStatus,
} from "../generated/eshop-order/index.js";
import { Decision } from "../generated/sdk.js";
import type { PaymentPolicy } from "./services.js";

/** The key of the order's own payment deadline. */
export const PAYMENT_GRACE_PERIOD = "payment-grace-period";

const products = (state: OrderState): ReadonlySet<string> => new Set(state.items.map((item) => item.productId));

export const order = defineOrder<{ PaymentPolicy: PaymentPolicy }>({
  initialState: () => ({ status: OrderStatus.AWAITING_VALIDATION, items: [], confirmedProducts: [] }),

  onCreateOrder(_state, command) {
    if (command.body.items.length === 0) reject("IllegalArgument", "an order needs at least one item");
    return Decision.events(OrderCreated({ items: command.body.items }));
  },

  /**
   * Confirms one product. A confirmation the order does not wait for changes nothing: one read again
   * from the stock stream, or one that arrives after another product's shortage cancelled the order.
   */
  onConfirmOrderStock(state, command, scope, { paymentPolicy }) {
    const waiting =
      state.status === OrderStatus.AWAITING_VALIDATION &&
      products(state).has(command.body.productId) &&
      !state.confirmedProducts.includes(command.body.productId);
    if (!waiting) {
      return Decision.noOp;
    }
    const confirmed = OrderStockItemConfirmed({ productId: command.body.productId });
    if (state.confirmedProducts.length + 1 !== products(state).size) {
      return Decision.events(confirmed);
    }
    scope.schedule(PAYMENT_GRACE_PERIOD, ScheduleRule.after(paymentPolicy.gracePeriod), CancelOrder({ reason: CancelReason.PAYMENT_TIMEOUT }));
    return Decision.events(confirmed, OrderStockConfirmed());
  },

  /** Pays the order and cancels its payment deadline. */
  onPayOrder(state, command, scope) {
    if (state.status !== OrderStatus.AWAITING_PAYMENT) reject("IllegalState", `an order ${state.status} cannot be paid`);
    scope.cancelSchedule(PAYMENT_GRACE_PERIOD);
    return Decision.events(OrderPaid({ amount: command.body.amount, at: scope.now }));
  },

  /** A paid or cancelled order is not cancelled again: a late payment deadline is rejected as a normal guard. */
  onCancelOrder(state, command) {
    if (state.status === OrderStatus.PAID || state.status === OrderStatus.CANCELLED) {
      reject("IllegalState", `an order ${state.status} cannot be cancelled`);
    }
    return Decision.events(OrderCancelled({ reason: command.body.reason }));
  },

  apply: {
    OrderCreated: (state, event) => ({ ...state, items: event.body.items }),
    OrderStockItemConfirmed: (state, event) => ({ ...state, confirmedProducts: [...state.confirmedProducts, event.body.productId] }),
    OrderStockConfirmed: (state) => ({ ...state, status: OrderStatus.AWAITING_PAYMENT }),
    OrderPaid: (state, event) => ({ ...state, status: OrderStatus.PAID, paidAt: event.body.at }),
    OrderCancelled: (state) => ({ ...state, status: OrderStatus.CANCELLED }),
  },
});
