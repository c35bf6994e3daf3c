// The e-shop's handler implementations, ready for a host to register.
export { order, PAYMENT_GRACE_PERIOD } from "./order.js";
export { stock } from "./stock.js";
export { stockSaga, RESERVATION_HOLD } from "./stock-saga.js";
export type { Deliveries, Delivery, PaymentPolicy } from "./services.js";
