// A synthetic `.wow` project in the proportions of examples/eshop, for the compile bench.
import type { SourceFile } from "../../compiler/ast.js";

export const AGGREGATES_PER_CONTEXT = 20;

/** Two aggregates (an order and a stock, as in the example) and a saga with a job, per file. */
function pairFile(context: string, previous: string | undefined, i: number): string {
  const crossEvent = previous === undefined ? `OrderCreated${i}` : `${previous}.OrderCreated${i}`;
  return `// Synthetic pair ${i}: an order, its stock and the saga between them.
context ${context}

enum OrderStatus${i} { AWAITING_VALIDATION, AWAITING_PAYMENT, PAID, CANCELLED }
enum CancelReason${i} { OUT_OF_STOCK, PAYMENT_TIMEOUT, CUSTOMER }

type OrderItem${i} {
  productId: string
  quantity: int
}

/** Host-provided: how long an order waits for payment. */
service PaymentPolicy${i}
/** Host-provided: what suppliers delivered on a day. */
service Deliveries${i}

aggregate Order${i} {
  state {
    status: OrderStatus${i}
    items: OrderItem${i}[]
    confirmedProducts: string[]
    paidAt: instant?
  }

  @CreateAggregate
  command CreateOrder${i} { items: OrderItem${i}[] }
  command ConfirmOrderStock${i} { productId: string }
  command PayOrder${i} { amount: decimal }
  command CancelOrder${i} { reason: CancelReason${i} }

  event OrderCreated${i} { items: OrderItem${i}[] }
  event OrderStockItemConfirmed${i} { productId: string }
  event OrderStockConfirmed${i} {}
  event OrderPaid${i} { amount: decimal, at: instant }
  event OrderCancelled${i} { reason: CancelReason${i} }

  @OnCommand(produces = [OrderCreated${i}])
  on CreateOrder${i}

  @OnCommand(produces = [OrderStockItemConfirmed${i}, OrderStockConfirmed${i}], schedules = [CancelOrder${i}])
  on ConfirmOrderStock${i}(paymentPolicy: PaymentPolicy${i})

  @OnCommand(produces = [OrderPaid${i}])
  on PayOrder${i}

  @OnCommand(produces = [OrderCancelled${i}])
  on CancelOrder${i}
}

aggregate Stock${i} {
  state { available: int, reserved: int }

  command ReceiveStock${i} { quantity: int }
  command ReserveStock${i} { orderId: string, quantity: int }
  command ReleaseStock${i} { orderId: string }

  event StockReceived${i} { quantity: int }
  event StockReserved${i} { orderId: string, quantity: int }
  event StockShortage${i} { orderId: string }
  event StockReleased${i} { orderId: string }

  @OnCommand(produces = [StockReceived${i}])
  on ReceiveStock${i}

  @OnCommand(produces = [StockReserved${i}, StockShortage${i}])
  on ReserveStock${i}

  @OnCommand(produces = [StockReleased${i}])
  on ReleaseStock${i}
}

saga StockSaga${i} {
  @OnEvent(commands = [ReserveStock${i}])
  on ${crossEvent}

  @OnEvent(commands = [ConfirmOrderStock${i}], schedules = [ReleaseStock${i}])
  on StockReserved${i}

  @OnEvent(commands = [CancelOrder${i}])
  on StockShortage${i}

  @OnEvent(commands = [ReleaseStock${i}])
  on OrderCancelled${i}

  @OnRejected
  on ReserveStock${i}

  @Blocking
  @OnSchedule(name = "receive-deliveries-${i}", cron = "0 ${i % 60} 6 * * *", zone = "Europe/Paris", misfire = COALESCE, commands = [ReceiveStock${i}])
  job receiveDeliveries${i}(deliveries: Deliveries${i})
}
`;
}

/** The project: N aggregates as N/2 pair files, 20 aggregates per context. Cross-context handlers reach the previous context. */
export function generate(aggregates: number): SourceFile[] {
  const files: SourceFile[] = [];
  const pairs = Math.ceil(aggregates / 2);
  const pairsPerContext = AGGREGATES_PER_CONTEXT / 2;
  for (let i = 0; i < pairs; i++) {
    const c = Math.floor(i / pairsPerContext);
    const context = `ctx-${c}`;
    // The saga of the first pair of a context (from the second context on) reacts to an event of the previous context.
    const previous = c > 0 && i % pairsPerContext === 0 ? `ctx-${c - 1}` : undefined;
    const eventPair = previous === undefined ? i : i - pairsPerContext;
    files.push({ path: `${context}/pair-${i}.wow`, text: pairFile(context, previous, i).replace(`on ${previous}.OrderCreated${i}`, `on ${previous}.OrderCreated${eventPair}`) });
  }
  return files;
}
