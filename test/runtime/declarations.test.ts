// The runtime holds each decision to its declaration (the generated registrations list what a handler
// may produce, schedule and send): an undeclared event, schedule or saga/job command fails the decision,
// nothing of it is committed, and the caller sees why. A host refuses sagas and jobs that would send to
// aggregates it does not register; a command no aggregate takes at run time is parked, never dropped.
import { describe, expect, it } from "vitest";
import { Decision, ScheduleRule, UndeclaredOutputError, aggregateRef, commandMessage, createHost, type AggregateRegistration, type SagaRegistration } from "../../runtime/index.js";
import { scheduleSpec } from "../../runtime/testing/index.js";
import { order, probe, receiveJob, S, shopSaga, stock } from "./sagas/saga-domain.js";

const START = "2026-10-20T00:00:00Z";
const mug = aggregateRef("shop", "Stock", "mug");

/** `stock`, with `shop.Receive` declared to produce only `shop.Received` and schedule nothing; `shop.Sneak` breaks both. */
const declaredStock: AggregateRegistration<{ available: number }> = {
  ...stock,
  commands: {
    ...stock.commands,
    [S.Receive]: { ...stock.commands[S.Receive]!, produces: [S.Received], schedules: [] },
    "shop.Sneak": {
      produces: [S.Received],
      schedules: [S.Release],
      decide: (_s, c, scope) => {
        const body = c.body as { event?: boolean; schedule?: boolean };
        if (body.schedule) scope.schedule("k", ScheduleRule.after("1m"), { type: S.Reserve, body: { order: "o", quantity: 1 } });
        return body.event ? Decision.events({ type: S.Reserved, body: { order: "o", quantity: 1 } }) : Decision.events({ type: S.Received, body: { quantity: 1 } });
      },
    },
  },
};

describe("an aggregate's decision is held to its declaration", () => {
  it("an undeclared event or schedule fails the send with its code and what to change; nothing is committed", async () => {
    const spec = scheduleSpec({ aggregates: [declaredStock], start: START });
    await spec.send(commandMessage(S.Receive, { quantity: 5 }, mug));
    const event = spec.send(commandMessage("shop.Sneak", { event: true }, mug));
    await expect(event).rejects.toBeInstanceOf(UndeclaredOutputError);
    await expect(event).rejects.toMatchObject({ code: "UndeclaredEvent", type: S.Reserved, declared: [S.Received] });
    await expect(event).rejects.toThrow("shop.Sneak produces the event shop.Reserved, which its declaration does not list (produces = [shop.Received])");
    await expect(spec.send(commandMessage("shop.Sneak", { schedule: true }, mug))).rejects.toMatchObject({ code: "UndeclaredSchedule", type: S.Reserve });
    expect((await spec.store.events.load(mug)).version).toBe(1);
    expect(await spec.store.timers.timersOf(mug)).toEqual([]);
    expect((await spec.send(commandMessage("shop.Sneak", {}, mug))).succeeded).toBe(true); // the declared output is fine
    await spec.stop();
  });

  it("a scheduled delivery that breaks the declaration is retried, then parked with the reason; nothing of it is committed", async () => {
    const spec = scheduleSpec({ aggregates: [declaredStock], start: START, timers: { maxAttempts: 2, backoff: { initial: "1s" } } });
    await spec.send(commandMessage(S.Receive, { quantity: 5 }, mug));
    await spec.send(commandMessage("wow.ScheduleCommand", { key: "k", rule: ScheduleRule.after("1m"), command: { type: "shop.Sneak", body: { event: true } } }, mug));
    const sent = await spec.advanceTime("2m");
    expect(sent.map((s) => [s.parked, s.error instanceof UndeclaredOutputError && s.error.code])).toEqual([
      [false, "UndeclaredEvent"],
      [true, "UndeclaredEvent"],
    ]);
    const [parked] = await spec.store.timers.list({ status: "parked" });
    expect(parked!.lastError).toContain("UndeclaredEvent");
    expect((await spec.store.events.load(mug)).events.filter((e) => e.type === S.Reserved)).toEqual([]);
    await spec.stop();
  });
});

describe("a saga's and a job's commands are held to their declarations", () => {
  it("a saga handler returning an undeclared command sends nothing, and its event is parked with the reason", async () => {
    const saga = shopSaga(probe());
    const sneaky: SagaRegistration = {
      ...saga,
      events: { ...saga.events, [S.OrderCreated]: { ...saga.events[S.OrderCreated]!, handle: (_e, context) => [context.command(mug, { type: S.Receive, body: { quantity: 1 } })] } },
    };
    const spec = scheduleSpec({ aggregates: [order, stock], sagas: [sneaky], start: START, subscriptions: { maxAttempts: 1 } });
    await spec.send(commandMessage(S.CreateOrder, { product: "mug", quantity: 1 }, aggregateRef("shop", "Order", "o-1")));
    await spec.advanceTime("1s");
    const { events } = await spec.app.parked();
    expect(events.map((e) => [e.subscription, e.error.split("\n")[0]])).toEqual([
      ["ShopSaga.onOrderCreated", "UndeclaredCommand: ShopSaga.onOrderCreated sends the command shop.Receive, which its declaration does not list (commands = [shop.Reserve]): add it to the .wow declaration, or stop sending it"],
    ]);
    expect(await spec.store.events.load(mug)).toMatchObject({ version: 0 });
    await spec.stop();
  });

  it("a job returning an undeclared command sends nothing, and its tick is parked", async () => {
    const job = receiveJob({ cron: "0 * * * * *", commands: [S.Release] }); // it sends shop.Receive
    const spec = scheduleSpec({ aggregates: [order, stock], sagas: [shopSaga(probe(), [job])], services: { "shop.Suppliers": { delivered: async () => ["mug"] } }, start: START, timers: { maxAttempts: 1 } });
    await spec.advanceTime("1m");
    const { events } = await spec.app.parked();
    expect(events.map((e) => [e.subscription, e.error.split(":")[0]])).toEqual([["ShopSaga.receive", "UndeclaredCommand"]]);
    expect(await spec.store.events.load(mug)).toMatchObject({ version: 0 });
    await spec.stop();
  });

  it("a command no aggregate of its target's kind takes is parked with its reason, not dropped", async () => {
    const saga = shopSaga(probe());
    const astray: SagaRegistration = {
      ...saga,
      events: {
        ...saga.events,
        [S.OrderCreated]: { ...saga.events[S.OrderCreated]!, handle: (_e, context) => [context.command({ context: "shop", aggregate: "Warehouse", id: "w" }, { type: S.Reserve, body: { order: "o-1", quantity: 1 } })] },
      },
    };
    const spec = scheduleSpec({ aggregates: [order, stock], sagas: [astray], start: START, subscriptions: { maxAttempts: 1 } });
    await spec.send(commandMessage(S.CreateOrder, { product: "mug", quantity: 1 }, aggregateRef("shop", "Order", "o-1")));
    await spec.advanceTime("1s");
    const { events } = await spec.app.parked();
    expect(events.map((e) => e.error.split("\n")[0])).toEqual(["UnroutableCommandError: no aggregate shop.Warehouse handles shop.Reserve"]);
    await spec.stop();
  });
});

describe("createHost refuses sagas and jobs that send to aggregates it does not register", () => {
  it("names each command and who sends it", () => {
    const make = () => createHost({ registrations: [order, shopSaga(probe(), [receiveJob()])], store: ":memory:", services: { "shop.Suppliers": {} } });
    expect(make).toThrow(
      "no registered aggregate handles the commands shop.Reserve (sent by ShopSaga.onOrderCreated); shop.Release (sent by ShopSaga.onOrderCreated); shop.Receive (sent by ShopSaga.receive): register the aggregates that handle them in createHost's `registrations`",
    );
  });
});
