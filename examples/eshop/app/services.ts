// The services the e-shop's handlers use in the tours: the payment policy (a short grace period) and a
// supplier that always delivers the same stock.
import type { Services } from "wowc/runtime";
import type { Deliveries, PaymentPolicy } from "../src/index.js";

/** The payment grace period, short for the tour. */
export const GRACE_PERIOD = "3s";

export function tourServices(): Services {
  const paymentPolicy: PaymentPolicy = { gracePeriod: GRACE_PERIOD };
  const deliveries: Deliveries = {
    async deliveredOn() {
      return [{ productId: "mug", quantity: 40 }, { productId: "cap", quantity: 12 }];
    },
  };
  return { "eshop-order.PaymentPolicy": paymentPolicy, "eshop-inventory.Deliveries": deliveries };
}
