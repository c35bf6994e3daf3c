// Between orders and stock: reserve on creation, confirm or cancel the order, release on
// cancellation, and each morning receive yesterday's supplier deliveries.
import { ScheduleRule } from "wowc/runtime";
import { CancelOrder, CancelReason, ConfirmOrderStock, Order } from "../generated/eshop-order/index.js";
import { defineStockSaga, ReceiveStock, ReleaseStock, ReserveStock, Stock } from "../generated/eshop-inventory/index.js";
import type { Deliveries } from "./services.js";

/** How long a reservation holds before the stock releases it by itself. */
export const RESERVATION_HOLD = "7d";

const DAY_MS = 86_400_000;

export const stockSaga = defineStockSaga<{ Deliveries: Deliveries }>({
  /** Reserves every item of a new order on its product's stock. */
  onOrderCreated(event, context) {
    return event.body.items.map((item) => context.command(Stock.target(item.productId), ReserveStock({ orderId: event.aggregate.id, quantity: item.quantity })));
  },

  /** Confirms the product to the order, and asks the stock to release the reservation if the order never settles. */
  onStockReserved(event, context) {
    const productId = event.aggregate.id;
    rememberReservation(event.body.orderId, productId);
    return [
      context.command(Order.target(event.body.orderId), ConfirmOrderStock({ productId })),
      context.schedule(`reservation:${event.body.orderId}`, ScheduleRule.after(RESERVATION_HOLD), Stock.target(productId), ReleaseStock({ orderId: event.body.orderId })),
    ];
  },

  /** A product is short: the order cannot be served. */
  onStockShortage(event, context) {
    return [context.command(Order.target(event.body.orderId), CancelOrder({ reason: CancelReason.OUT_OF_STOCK }))];
  },

  /** Releases the reservations of a cancelled order's products. */
  onOrderCancelled(event, context) {
    return takeReservations(event.aggregate.id).map((productId) => context.command(Stock.target(productId), ReleaseStock({ orderId: event.aggregate.id })));
  },

  /** A reservation the stock refused for a technical reason is left to the reservation hold. */
  onReserveStockRejected(rejection) {
    console.warn(`reservation for order ${rejection.command.body.orderId} rejected: ${rejection.errorCode} ${rejection.errorMsg}`);
  },

  /** Each morning, receives the deliveries of the days since the last run (yesterday, plus skipped days). */
  async receiveDeliveries(tick, context, { deliveries }) {
    const today = Math.floor(tick.due / DAY_MS) * DAY_MS;
    const days = Array.from({ length: tick.skipped + 1 }, (_, i) => new Date(today - (tick.skipped + 1 - i) * DAY_MS).toISOString().slice(0, 10));
    const delivered = (await Promise.all(days.map((day) => deliveries.deliveredOn(tick.tenantId, day)))).flat();
    return delivered.map((delivery) => context.command(Stock.ref(tick.tenantId, delivery.productId), ReceiveStock({ quantity: delivery.quantity })));
  },
});

/**
 * The products an order reserved. OrderCancelled carries only its reason, so the saga keeps what it
 * reserved per order (in memory here; a host app would use a projection).
 */
const reservations = new Map<string, Set<string>>();

function rememberReservation(orderId: string, productId: string): void {
  const set = reservations.get(orderId) ?? new Set<string>();
  set.add(productId);
  reservations.set(orderId, set);
}

function takeReservations(orderId: string): string[] {
  const productIds = [...(reservations.get(orderId) ?? [])].sort();
  reservations.delete(orderId);
  return productIds;
}
