// The stock of one product (aggregate id = product id): deliveries in, reservations out.
import { reject } from "wowc/runtime";
import { defineStock, StockReceived, StockReleased, StockReserved, StockShortage } from "../generated/eshop-inventory/index.js";
import { Decision } from "../generated/sdk.js";

export const stock = defineStock({
  initialState: () => ({ available: 0, reserved: 0 }),

  onReceiveStock(_state, command) {
    if (command.body.quantity <= 0) reject("IllegalArgument", "a delivery has a positive quantity");
    return Decision.events(StockReceived({ quantity: command.body.quantity }));
  },

  /** Reserves what is available, or reports a shortage (the order saga then cancels the order). */
  onReserveStock(state, command) {
    const { orderId, quantity } = command.body;
    return state.available >= quantity ? Decision.events(StockReserved({ orderId, quantity })) : Decision.events(StockShortage({ orderId }));
  },

  /** Releases an order's reservation (the stock keeps no per-order ledger: counts return on the next delivery). */
  onReleaseStock(_state, command) {
    return Decision.events(StockReleased({ orderId: command.body.orderId }));
  },

  apply: {
    StockReceived: (state, event) => ({ ...state, available: state.available + event.body.quantity }),
    StockReserved: (state, event) => ({ available: state.available - event.body.quantity, reserved: state.reserved + event.body.quantity }),
    StockShortage: (state) => state,
    StockReleased: (state) => state,
  },
});
