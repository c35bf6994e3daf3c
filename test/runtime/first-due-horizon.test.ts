// The first due time of a cron rule is searched on the request path, so the search is bounded: far
// enough to find every rule that fires (the longest wait between two matches of any rule is 40 years),
// no further. A rule whose every match falls in a daylight-saving gap is then rejected at once, with a
// message that says so, instead of after a 400-year search per zone.
import { afterEach, describe, expect, it } from "vitest";
import { aggregateRef, ScheduleRule, type CronNext } from "../../runtime/index.js";
import { FIRST_DUE_HORIZON_MS, firstDue } from "../../runtime/processing/first-due.js";
import { harness, START, type Harness } from "./fixtures/harness.js";
import { T } from "./fixtures/order-domain.js";
import { stores } from "./fixtures/stores.js";
import { scheduleSpec } from "../../runtime/testing/index.js";
import { order, probe, receiveJob, shopSaga, stock, suppliers } from "./sagas/saga-domain.js";

const YEAR = 365.2425 * 86_400_000;
/** Last Sunday of March at 02:30: inside the EU spring-forward gap every year. */
const IN_THE_GAP = "0 30 2 25-31 3 SUN";

describe("firstDue", () => {
  it("bounds the cron search to the horizon (the search itself, not only its verdict)", () => {
    const calls: [number, number | undefined][] = [];
    const spy: CronNext = (_expression, _zone, afterMs, untilMs) => {
      calls.push([afterMs, untilMs]);
      return undefined;
    };
    expect(firstDue(ScheduleRule.cron("0 0 * * * *"), START, spy)).toMatchObject({ problem: expect.any(String) });
    expect(calls).toEqual([[START, START + FIRST_DUE_HORIZON_MS]]);
  });

  it("the horizon covers the longest wait between two matches of any rule, with a year to spare", () => {
    expect(FIRST_DUE_HORIZON_MS).toBeGreaterThanOrEqual(41 * YEAR);
    expect(FIRST_DUE_HORIZON_MS).toBeLessThan(50 * YEAR);
  });
});

describe.each(stores)("the first due time of a cron rule ($name)", (store) => {
  let h: Harness;
  afterEach(async () => {
    await h.spec.stop();
    await h.spec.store.close();
  });
  const set = (rule: ScheduleRule) => h.spec.send(h.cmd(T.SetSchedule, { key: "k", rule, command: { type: T.Ping, body: { n: 1 } } }));

  it("a rule that never fires in its zone (every match in a DST gap) is rejected with a message that says so", async () => {
    h = harness(store);
    await h.spec.send(h.cmd(T.CreateOrder, { items: ["mug"] }));
    const result = await set(ScheduleRule.cron(IN_THE_GAP, "Europe/Berlin"));
    expect(result).toMatchObject({ outcome: "rejected", errorCode: "IllegalArgument" });
    expect(result.errorMsg).toMatch(/Europe\/Berlin/);
    expect(result.errorMsg).toMatch(/daylight-saving gap/);
    // the same rule in a zone without that gap fires
    expect(await set(ScheduleRule.cron(IN_THE_GAP, "America/New_York"))).toMatchObject({ outcome: "decided" });
  });

  it("the rarest rule that fires is still found: Feb 29 on a Monday, 40 years after the last one", async () => {
    h = harness(store);
    await h.spec.send(h.cmd(T.CreateOrder, { items: ["mug"] }));
    await h.spec.stop();
    await h.spec.clock.advanceTo("2072-03-01T00:00:00Z"); // just after 2072-02-29 (a Monday); 2100 is not a leap year
    expect(await set(ScheduleRule.cron("0 0 0 29 2 MON", "Europe/Paris"))).toMatchObject({ outcome: "decided" });
    const [timer] = await h.spec.store.timers.timersOf(aggregateRef("eshop-order", "order", "o-1"));
    expect(new Date(timer!.due).toISOString()).toBe("2112-02-28T23:00:00.000Z");
  });
});

describe.each(stores)("a tenant enabling a job with a rule that never fires in its zone ($name)", (store) => {
  it("is rejected with a message naming the zone and the gap", async () => {
    const s = scheduleSpec({
      aggregates: [order, stock],
      sagas: [shopSaga(probe(), [receiveJob({ scope: "TENANT" })])],
      services: { "shop.Suppliers": suppliers },
      start: "2026-10-20T00:00:00Z",
      store: store.open(),
      timers: { pollInterval: "1h" },
      subscriptions: { pollInterval: "1h" },
    });
    const result = await s.enable("receive", { tenantId: "acme", expression: IN_THE_GAP, zone: "Europe/Madrid" });
    expect(result).toMatchObject({ outcome: "rejected" });
    expect(result.errorMsg).toMatch(/Europe\/Madrid/);
    expect(result.errorMsg).toMatch(/daylight-saving gap/);
    await s.stop();
  });
});
