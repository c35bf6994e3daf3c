// The services the host provides to the handlers (declared in .wow as `service PaymentPolicy` and
// `service Deliveries`); the app wires real implementations.
import type { DurationInput } from "wowc/runtime";

/** How long an order waits for payment. */
export interface PaymentPolicy {
  readonly gracePeriod: DurationInput;
}

/** One supplier delivery of a product. */
export interface Delivery {
  readonly productId: string;
  readonly quantity: number;
}

/** What suppliers delivered on a day (`YYYY-MM-DD`, UTC), for a tenant. */
export interface Deliveries {
  deliveredOn(tenantId: string, day: string): Promise<readonly Delivery[]>;
}
