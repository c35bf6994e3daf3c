// The runtime's promise "misfire = COALESCE: of the slots missed while no node ran the job, only the latest runs
// and `skipped` counts the rest" — however short the downtime: a slot whose next slot is due too was missed.
import { afterEach, describe, expect, it } from "vitest";
import { cronNext, ScheduleRule, type TimerRow } from "../../runtime/index.js";
import { planSlot } from "../../runtime/timers/slot-plan.js";
import { harness, START, type Harness } from "./fixtures/harness.js";
import { T } from "./fixtures/order-domain.js";
import { stores } from "./fixtures/stores.js";

describe.each(stores)("COALESCE after a downtime shorter than a minute ($name)", (store) => {
  let h: Harness;
  afterEach(async () => {
    await h.spec.stop();
    await h.spec.store.close();
  });

  async function downtime(rule: ScheduleRule, runFor: string, downFor: string) {
    h = harness(store, { pollInterval: "1s" });
    await h.spec.send(h.cmd(T.CreateOrder, { items: ["mug"] }));
    await h.spec.send(h.cmd(T.SetSchedule, { key: "tick", rule, command: { type: T.Ping, body: { n: 1 } } }));
    const before = await h.spec.advanceTime(runFor);
    await h.spec.stop(); // no node runs the timer
    await h.spec.clock.advanceTime(downFor);
    h.spec.start();
    const after = await h.spec.advanceTime("1ms");
    const slots = (sent: typeof before) => sent.map((s) => [s.command.schedule!.slot, (s.command.schedule!.due - START) / 1000]);
    return { before: slots(before), after: slots(after), slots };
  }

  it("every 10 s, down 55 s: slots 2..6 were missed, only slot 6 runs, then the series goes on", async () => {
    const { before, after, slots } = await downtime(ScheduleRule.cron("*/10 * * * * *", "UTC", "COALESCE"), "10s", "55s");
    expect(before).toEqual([[1, 10]]);
    expect(after).toEqual([[6, 60]]);
    expect(slots(await h.spec.advanceTime("5s"))).toEqual([[7, 70]]);
  });

  it("every second, down 59 s: one run, not 59", async () => {
    const { after } = await downtime(ScheduleRule.cron("* * * * * *", "UTC", "COALESCE"), "1s", "59s");
    expect(after).toEqual([[60, 60]]);
  });

  it("CATCH_UP is unchanged: every missed slot runs, in order", async () => {
    const { after } = await downtime(ScheduleRule.cron("*/10 * * * * *", "UTC", "CATCH_UP"), "10s", "55s");
    expect(after).toEqual([
      [2, 20],
      [3, 30],
      [4, 40],
      [5, 50],
      [6, 60],
    ]);
  });

  it("a running node delivers every slot of a fast cron: none is coalesced", async () => {
    h = harness(store, { pollInterval: "1s" });
    await h.spec.send(h.cmd(T.CreateOrder, { items: ["mug"] }));
    await h.spec.send(h.cmd(T.SetSchedule, { key: "tick", rule: ScheduleRule.cron("* * * * * *"), command: { type: T.Ping, body: { n: 1 } } }));
    const sent = await h.spec.advanceTime("5s");
    expect(sent.map((s) => s.command.schedule!.slot)).toEqual([1, 2, 3, 4, 5]);
  });
});

describe("planSlot", () => {
  const T0 = Date.UTC(2026, 0, 1);
  const row = (misfire: "COALESCE" | "CATCH_UP", expression = "* * * * * *", slot = 1, due = T0) =>
    ({ slot, due, rule: { kind: "cron", expression, zone: "UTC", misfire } }) as unknown as TimerRow;

  it("on time (the following slot not yet due): delivers the slot itself", () => {
    expect(planSlot(row("COALESCE"), T0 + 999, cronNext)).toEqual({ deliver: { slot: 1, due: T0 }, next: { slot: 2, due: T0 + 1000 } });
  });

  it("the following slot due exactly now: this one was missed, the following one runs", () => {
    expect(planSlot(row("COALESCE"), T0 + 1000, cronNext)).toEqual({ deliver: { slot: 2, due: T0 + 1000 }, next: { slot: 3, due: T0 + 2000 } });
  });

  it("30 days of per-second slots missed: the latest runs, and every skipped slot is counted", () => {
    const days = 30;
    const plan = planSlot(row("COALESCE", "* * * * * *", 7), T0 + days * 86_400_000 + 500, cronNext);
    expect(plan.deliver).toEqual({ slot: 7 + days * 86_400, due: T0 + days * 86_400_000 });
    expect(plan.next).toEqual({ slot: 8 + days * 86_400, due: T0 + days * 86_400_000 + 1000 });
  });

  it("CATCH_UP delivers the missed slot itself", () => {
    expect(planSlot(row("CATCH_UP"), T0 + 5000, cronNext).deliver).toEqual({ slot: 1, due: T0 });
  });
});
