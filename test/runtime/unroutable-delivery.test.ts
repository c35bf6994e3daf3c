// The runtime's promise "Delivery of a scheduled command": nothing is dropped silently. A scheduled command that no
// aggregate of this deploy handles (a typo'd type, or a type removed since the timer was set) is a
// technical failure, not a rejection: retried with backoff, then parked with its error, so an operator
// sees it and can re-drive it once a deploy handles it. A real target's rejection still ends the timer.
import { afterEach, describe, expect, it } from "vitest";
import { Decision, Host, ScheduleRule, aggregateRef, commandMessage, reject, type AggregateRegistration, type CommandMessage, type Delivery, type Store } from "../../runtime/index.js";
import { storeOnClock, VirtualClock } from "../../runtime/testing/index.js";
import { stores } from "./fixtures/stores.js";

const START = Date.parse("2026-03-01T00:00:00Z");
const A1 = aggregateRef("u", "thing", "a1");

/** `u.Set` schedules the command it is given; `u.Fire` decides an event, `u.Refuse` rejects. `extra`: commands a later deploy adds. */
function thing(extra: AggregateRegistration<object>["commands"] = {}): AggregateRegistration<object> {
  return {
    context: "u",
    aggregate: "thing",
    initialState: () => ({}),
    commands: {
      "u.Set": {
        decide: (_s, c: CommandMessage<{ type: string }>, scope) => {
          scope.schedule("k", ScheduleRule.at(START + 1000), { type: c.body.type, body: {} });
          return Decision.noOp;
        },
      },
      "u.Fire": { decide: () => Decision.events({ type: "u.Fired", body: {} }) },
      "u.Refuse": { decide: () => reject("NotNow") },
      ...extra,
    },
    events: {},
  };
}

describe.each(stores)("an unroutable scheduled command: $name", (store) => {
  let journal: Store;
  let hosts: Host[] = [];
  /** Whole-poll failures: none expected (the failure is the delivery's). */
  let errors: unknown[] = [];
  afterEach(async () => {
    for (const host of hosts) await host.stop();
    hosts = [];
    expect(errors).toEqual([]);
    errors = [];
    await journal.close();
  });

  function host(clock: VirtualClock, deliveries: Delivery[], aggregate: AggregateRegistration<object>): Host {
    const h = new Host({
      store: storeOnClock(journal, clock),
      aggregates: [aggregate],
      clock,
      timers: { pollInterval: 1000, maxAttempts: 3, backoff: { initial: 1000, factor: 2 } },
      onDelivery: (d) => deliveries.push({ ...d, sentAt: clock.now() }),
      onError: (e) => errors.push(e),
    });
    hosts.push(h);
    return h;
  }

  it("retried with backoff, parked with its error; re-driven once a deploy handles it", async () => {
    journal = store.open();
    const clock = new VirtualClock(START);
    const deliveries: Delivery[] = [];
    const first = host(clock, deliveries, thing());
    first.start();
    await first.send(commandMessage("u.Set", { type: "u.Fyre" }, A1));
    await clock.advanceTime("1m");
    expect(deliveries.map((d) => [d.sentAt - START, d.result?.outcome ?? "failed", d.parked])).toEqual([
      [1000, "failed", false],
      [2000, "failed", false],
      [4000, "failed", true],
    ]);
    expect(String(deliveries[0]!.error)).toContain("no aggregate u.thing handles u.Fyre");
    const parked = await journal.timers.list({ status: "parked" });
    expect(parked.map((t) => [t.key, t.command.type, t.attempts])).toEqual([["k", "u.Fyre", 3]]);
    expect(parked[0]!.lastError).toContain("no aggregate u.thing handles u.Fyre");

    // the next deploy handles it: the operator re-drives, and it is decided
    await first.stop();
    const next = host(clock, deliveries, thing({ "u.Fyre": { decide: () => Decision.events({ type: "u.Fired", body: {} }) } }));
    next.start();
    expect(await next.timers.redrive(parked[0]!.id)).toBe(true);
    await clock.advanceTime("1s");
    expect(deliveries.at(-1)!.result).toMatchObject({ outcome: "decided" });
    expect((await journal.events.load(A1)).events.filter((e) => e.type === "u.Fired")).toHaveLength(1);
    expect(await journal.timers.list({ status: "parked" })).toEqual([]);
    expect(await journal.timers.timersOf(A1)).toEqual([]);
  });

  it("a real target's rejection still ends the timer (no retry, not parked)", async () => {
    journal = store.open();
    const clock = new VirtualClock(START);
    const deliveries: Delivery[] = [];
    const h = host(clock, deliveries, thing());
    h.start();
    await h.send(commandMessage("u.Set", { type: "u.Refuse" }, A1));
    await clock.advanceTime("1m");
    expect(deliveries.map((d) => [d.result?.outcome, d.result?.errorCode])).toEqual([["rejected", "NotNow"]]);
    expect(await journal.timers.timersOf(A1)).toEqual([]);
    expect(await journal.timers.list({ status: "parked" })).toEqual([]);
  });
});
