// The test kit: virtual clock, aggregateSpec, scheduleSpec.
import { describe, expect, it } from "vitest";
import { Decision, MemoryStore, ScheduleRule, aggregateRef, commandMessage, type AggregateRegistration, type Store, type TimerStore } from "../../runtime/index.js";
import { VirtualClock, aggregateSpec, scheduleSpec } from "../../runtime/testing/index.js";
import { GRACE_KEY, T, order } from "./fixtures/order-domain.js";

const created = { type: T.OrderCreated, body: { items: ["mug"] } };
const services = { paymentPolicy: { gracePeriod: "15m" }, probe: () => {} };

describe("VirtualClock", () => {
  it("wakes sleepers in due order at their exact virtual times, and never goes back", async () => {
    const clock = new VirtualClock("2026-01-01T00:00:00Z");
    const woke: [string, number][] = [];
    const t0 = clock.now();
    void clock.sleep(3_000).then(() => woke.push(["b", clock.now() - t0]));
    void clock.sleep(1_000).then(() => woke.push(["a", clock.now() - t0]));
    await clock.advanceTime("2s");
    expect(woke).toEqual([["a", 1_000]]);
    await clock.advanceTime("1s");
    expect(woke).toEqual([["a", 1_000], ["b", 3_000]]);
    await expect(clock.advanceTo(t0)).rejects.toThrow(RangeError);
  });

  it("lets an aborted sleep end at once", async () => {
    const clock = new VirtualClock(0);
    const abort = new AbortController();
    const slept = clock.sleep(10_000, abort.signal);
    abort.abort();
    await slept;
    expect(clock.pending).toBe(0);
  });
});

describe("aggregateSpec", () => {
  it("given events, when a command: expect events and the schedule (key, rule, command, target)", async () => {
    const then = await aggregateSpec(order, { services }).given(created).when({ type: T.ConfirmOrder, body: {} });
    then
      .expectEvents({ type: T.OrderConfirmed, body: {} })
      .expectSchedules({ key: GRACE_KEY, rule: ScheduleRule.after("15m"), command: { type: T.CancelOrder, body: { reason: "PAYMENT_TIMEOUT" } } })
      .expectCancellations()
      .expectState((s) => expect(s.status).toBe("AWAITING_PAYMENT"));
  });

  it("expectState with a predicate fails when it answers false, and passes when it answers true", async () => {
    const then = await aggregateSpec(order, { services }).given(created).when({ type: T.ConfirmOrder, body: {} });
    expect(() => then.expectState((s) => s.status === "PAID")).toThrow(/expected the state to pass/);
    then.expectState((s) => s.status === "AWAITING_PAYMENT");
  });

  it("expects cancellations", async () => {
    const then = await aggregateSpec(order).given(created, { type: T.OrderConfirmed, body: {} }).when({ type: T.PayOrder, body: {} });
    then.expectEventTypes(T.OrderPaid).expectCancellations(GRACE_KEY).expectNoSchedules();
  });

  it("expects a rejection, with its code", async () => {
    const then = await aggregateSpec(order).given(created).when({ type: T.PayOrder, body: {} });
    then.expectRejection("OrderNotPayable");
    expect(() => then.expectRejection("Other")).toThrow();
    expect(() => then.expectEvents()).toThrow(/decided/);
  });

  it("fails when the events or schedules differ", async () => {
    const then = await aggregateSpec(order, { services }).given(created).when({ type: T.ConfirmOrder, body: {} });
    expect(() => then.expectEvents({ type: T.OrderPaid, body: {} })).toThrow();
    expect(() => then.expectNoSchedules()).toThrow();
    expect(() => then.expectSchedules({ key: GRACE_KEY, rule: ScheduleRule.after("16m"), command: { type: T.CancelOrder, body: { reason: "PAYMENT_TIMEOUT" } } })).toThrow();
    expect(() => then.expectRejection()).toThrow(/rejection/);
  });

  it("applies create semantics: a create command on given events is rejected", async () => {
    (await aggregateSpec(order).given(created).when({ type: T.CreateOrder, body: { items: [] } })).expectRejection("IllegalState");
    (await aggregateSpec(order).when({ type: T.PayOrder, body: {} })).expectRejection("NotFound");
  });

  it("expects a schedule with an explicit target (tenant from the commit)", async () => {
    const reminder: AggregateRegistration<object> = {
      context: "crm",
      aggregate: "customer",
      initialState: () => ({}),
      commands: {
        "crm.Remind": {
          decide: (_s, _c, scope) => {
            scope.schedule("r", ScheduleRule.at("2026-02-01T00:00:00Z"), { type: "mail.Send", body: {} }, { context: "mail", aggregate: "mailbox", id: "m1" });
            return Decision.noOp;
          },
        },
      },
      events: {},
    };
    (await aggregateSpec(reminder, { tenantId: "acme" }).when({ type: "crm.Remind", body: {} })).expectNoEvents().expectSchedules({
      key: "r",
      rule: ScheduleRule.at("2026-02-01T00:00:00Z"),
      command: { type: "mail.Send", body: {} },
      target: { context: "mail", aggregate: "mailbox", id: "m1", tenantId: "acme" },
    });
  });
});

describe("scheduleSpec", () => {
  it("drives a host on the virtual clock: advanceTime, then the commands sent", async () => {
    const spec = scheduleSpec({ aggregates: [order], services, start: "2026-10-20T00:00:00Z" });
    const ref = aggregateRef("eshop-order", "order", "o-1", "acme");
    await spec.send(commandMessage(T.CreateOrder, { items: ["mug"] }, ref));
    await spec.send(commandMessage(T.ConfirmOrder, {}, ref));
    expect(await spec.advanceTime("14m")).toEqual([]);
    const sent = await spec.advanceTime("1m");
    expect(sent.map((s) => [s.command.type, s.command.aggregate, s.command.body, new Date(s.at).toISOString()])).toEqual([
      [T.CancelOrder, ref, { reason: "PAYMENT_TIMEOUT" }, "2026-10-20T00:15:00.000Z"],
    ]);
    expect(sent[0]!.result).toMatchObject({ outcome: "decided", errorCode: "Ok" });
    expect(spec.commands).toHaveLength(1);
    await spec.stop();
  });

  it("advanceTime rethrows a store error of its own advance only: after the store recovers, later advances deliver", async () => {
    const inner = new MemoryStore();
    let failNext = false;
    const timers: TimerStore = Object.create(inner.timers, {
      claimDue: {
        value: (...args: Parameters<TimerStore["claimDue"]>) => {
          if (!failNext) return inner.timers.claimDue(...args);
          failNext = false;
          return Promise.reject(new Error("store hiccup"));
        },
      },
    });
    const store: Store = { kind: "memory", events: inner.events, timers, subscriptions: inner.subscriptions, runs: inner.runs, close: () => inner.close() };
    const spec = scheduleSpec({ aggregates: [order], services, store, start: "2026-10-20T00:00:00Z" });
    const ref = aggregateRef("eshop-order", "order", "o-1");
    await spec.send(commandMessage(T.CreateOrder, { items: ["mug"] }, ref));
    failNext = true;
    await expect(spec.advanceTime("2s")).rejects.toThrow("store hiccup");
    await spec.send(commandMessage(T.SetSchedule, { key: "p", rule: ScheduleRule.after("1m"), command: { type: T.Touch, body: {} } }, ref));
    const sent = await spec.advanceTime("2m");
    expect(sent.map((s) => s.command.type)).toEqual([T.Touch]);
    await spec.stop();
  });
});
