// An invalid rule is the command's fault, not a technical failure: the decision that schedules it is
// rejected with IllegalArgument and a message saying what is wrong — so a saga's schedule request
// reaches its @OnRejected handler instead of being retried and parked.
import { afterEach, describe, expect, it } from "vitest";
import { commandMessage, aggregateRef, ScheduleRule, type CommandRejection, type SagaRegistration } from "../../runtime/index.js";
import { scheduleSpec } from "../../runtime/testing/index.js";
import { harness, type Harness } from "./fixtures/harness.js";
import { T } from "./fixtures/order-domain.js";
import { stores } from "./fixtures/stores.js";
import { order, S, stock } from "./sagas/saga-domain.js";

const bad: [string, unknown, RegExp][] = [
  ["a cron syntax error", ScheduleRule.cron("not a cron"), /not a cron.*six fields|six fields.*not a cron/],
  ["a cron field out of range", ScheduleRule.cron("0 61 * * * *"), /minute/],
  ["an unknown zone", ScheduleRule.cron("0 0 * * * *", "Mars/Olympus"), /Mars\/Olympus/],
  ["a cron that never fires", ScheduleRule.cron("0 0 0 30 2 *"), /never fires/],
  ["an unknown misfire policy", { kind: "cron", expression: "0 0 * * * *", zone: "UTC", misfire: "SOMETIMES" }, /misfire/],
  ["an unknown kind", { kind: "whenever" }, /kind/],
  ["an instant that is not a number", { kind: "at", at: "2026-03-01T10:00:00Z" }, /at/],
  ["a negative delay", { kind: "after", after: -1 }, /after/],
  ["an infinite delay", { kind: "after", after: null }, /after/],
  ["a due time past the last Date", ScheduleRule.after(Number.MAX_SAFE_INTEGER), /due/],
];

describe.each(stores)("an invalid schedule rule ($name)", (store) => {
  let h: Harness;
  afterEach(async () => {
    await h.spec.stop();
    await h.spec.store.close();
  });

  it.each(bad)("%s: the decision is rejected (IllegalArgument), nothing is committed", async (_what, rule, message) => {
    h = harness(store);
    await h.spec.send(h.cmd(T.CreateOrder, { items: ["mug"] }));
    const result = await h.spec.send(h.cmd(T.SetSchedule, { key: "k", rule, command: { type: T.Ping, body: { n: 1 } }, withEvent: true }));
    expect(result).toMatchObject({ outcome: "rejected", errorCode: "IllegalArgument" });
    expect(result.errorMsg).toMatch(/^schedule k: /);
    expect(result.errorMsg).toMatch(message);
    const ref = aggregateRef("eshop-order", "order", "o-1");
    expect((await h.spec.store.events.load(ref)).version).toBe(1);
    expect(await h.spec.store.timers.timersOf(ref)).toEqual([]);
  });
});

describe.each(stores)("a saga's schedule request with an invalid rule ($name)", (store) => {
  it("reaches the saga's @OnRejected handler; the saga's event is not parked", async () => {
    const rejections: CommandRejection[] = [];
    const saga: SagaRegistration = {
      context: "shop",
      saga: "HoldSaga",
      events: {
        [S.OrderCreated]: {
          function: "onOrderCreated",
          subscription: "HoldSaga.onOrderCreated",
          blocking: false,
          commands: [],
          schedules: [S.Release],
          handle: (event, context) => {
            const body = event.body as { cron: string; zone: string };
            return [context.schedule("hold", ScheduleRule.cron(body.cron, body.zone), { context: "shop", aggregate: "Stock", id: "mug" }, { type: S.Release, body: { order: event.aggregate.id } })];
          },
        },
      },
      rejections: { [S.Release]: { function: "onReleaseRejected", subscription: "HoldSaga.onReleaseRejected", blocking: false, handle: (r) => void rejections.push(r) } },
      jobs: [],
    };
    const s = scheduleSpec({
      aggregates: [order, stock],
      sagas: [saga],
      start: "2026-05-01T00:00:00Z",
      store: store.open(),
      timers: { pollInterval: "10m" },
      subscriptions: { pollInterval: "10m", maxAttempts: 2, backoff: { initial: "1s" } },
    });
    await s.send(commandMessage(S.Receive, { quantity: 5 }, aggregateRef("shop", "Stock", "mug")));
    await s.send(commandMessage(S.CreateOrder, { cron: "not a cron", zone: "UTC" }, aggregateRef("shop", "Order", "o-1")));
    await s.send(commandMessage(S.CreateOrder, { cron: "0 0 * * * *", zone: "Mars/Olympus" }, aggregateRef("shop", "Order", "o-2")));
    await s.advanceTime("1m");
    expect(rejections.map((r) => [r.command.aggregate.id, r.errorCode])).toEqual([
      ["mug", "IllegalArgument"],
      ["mug", "IllegalArgument"],
    ]);
    expect(rejections[1]!.errorMsg).toMatch(/Mars\/Olympus/);
    expect(await s.app.subscriptions.parked()).toEqual([]);
    await s.stop();
  });
});
