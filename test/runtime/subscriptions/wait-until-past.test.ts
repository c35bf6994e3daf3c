// What `Command-Wait-Stage: SAGA_HANDLED` waits on: the subscriptions moving past a position, on the
// virtual clock — true as soon as the handlers did, false when the timeout comes first.
import { expect, it } from "vitest";
import { aggregateRef, commandMessage } from "../../../runtime/index.js";
import { scheduleSpec } from "../../../runtime/testing/index.js";
import { order, probe, S, shopSaga, stock, suppliers } from "../sagas/saga-domain.js";

it("waitUntilPast resolves once the saga handled the event, and false after its timeout while the handler retries", async () => {
  const p = probe();
  const s = scheduleSpec({ aggregates: [order, stock], sagas: [shopSaga(p, [])], services: { "shop.Suppliers": suppliers }, start: "2026-10-20T00:00:00Z", subscriptions: { pollInterval: "1s" } });
  await s.start();
  const sagaOnly = (name: string) => name === "ShopSaga.onOrderCreated";
  const first = await s.send(commandMessage(S.CreateOrder, { product: "mug", quantity: 1 }, aggregateRef("shop", "Order", "o1")));
  const handled = s.app.subscriptions.waitUntilPast(first.events[0]!.position!, sagaOnly, 5_000);
  await s.advanceTime("1ms");
  expect(await handled).toBe(true);

  p.fail = 1_000; // the saga's service is down: the handler retries for a while
  const second = await s.send(commandMessage(S.CreateOrder, { product: "mug", quantity: 1 }, aggregateRef("shop", "Order", "o2")));
  const waiting = s.app.subscriptions.waitUntilPast(second.events[0]!.position!, sagaOnly, 500);
  let settled: boolean | undefined;
  void waiting.then((value) => (settled = value));
  await s.advanceTime("499ms");
  expect(settled).toBeUndefined();
  await s.advanceTime("1ms");
  expect(settled).toBe(false);
  await s.stop();
});
