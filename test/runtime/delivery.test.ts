// The runtime's promise "Delivery of a scheduled command", on both stores, on the virtual clock.
import { afterEach, describe, expect, it } from "vitest";
import { ScheduleRule, aggregateRef, type CommandMessage } from "../../runtime/index.js";
import { harness, START, type Harness } from "./fixtures/harness.js";
import { GRACE_KEY, T } from "./fixtures/order-domain.js";
import { stores } from "./fixtures/stores.js";

const ORDER = aggregateRef("eshop-order", "order", "o-1");
const MIN = 60_000;

describe.each(stores)("delivery: $name", (store) => {
  let h: Harness;
  afterEach(async () => {
    await h.spec.stop();
    await h.spec.store.close();
  });

  async function order(timers = {}): Promise<void> {
    h = harness(store, timers);
    await h.spec.send(h.cmd(T.CreateOrder, { items: ["mug"] }));
  }
  const schedule = (key: string, rule: ScheduleRule, command: { type: string; body: unknown } = { type: T.Ping, body: { n: 1 } }, id = "o-1") =>
    h.spec.send(h.cmd(T.SetSchedule, { key, rule, command }, id));

  it("after(duration): due that long after the commit that set it, never before", async () => {
    await order();
    await h.spec.advanceTime("2m"); // the commit happens at START + 2m
    await h.spec.send(h.cmd(T.ConfirmOrder));
    expect(await h.spec.advanceTime(15 * MIN - 1)).toEqual([]);
    const sent = await h.spec.advanceTime(1);
    expect(sent.map((s) => [s.command.type, s.at - START])).toEqual([[T.CancelOrder, 17 * MIN]]);
    expect(sent[0]!.command.schedule!.due).toBe(START + 17 * MIN);
  });

  it("at(instant): due at that instant", async () => {
    await order();
    await schedule("k", ScheduleRule.at(START + 90_500));
    expect(await h.spec.advanceTime(90_499)).toEqual([]);
    expect((await h.spec.advanceTime(1)).map((s) => s.at)).toEqual([START + 90_500]);
  });

  it("cron(expression, zone): due when the expression matches, read in the zone", async () => {
    await order();
    // 06:30 in New York on 2026-03-01 (EST, UTC-5) is 11:30Z
    await schedule("morning", ScheduleRule.cron("0 30 6 * * *", "America/New_York"));
    const sent = await h.spec.advanceTime("12h");
    expect(sent.map((s) => new Date(s.at).toISOString())).toEqual(["2026-03-01T11:30:00.000Z"]);
    expect(sent[0]!.command.schedule).toMatchObject({ slot: 1, due: Date.parse("2026-03-01T11:30:00Z") });
    const next = await h.spec.store.timers.timersOf(ORDER);
    expect(next.map((t) => [t.slot, new Date(t.due).toISOString()])).toEqual([[2, "2026-03-02T11:30:00.000Z"]]);
  });

  it("a timer set while the poller sleeps is delivered within the poll interval of its due time", async () => {
    await order({ pollInterval: "5s" });
    await h.spec.advanceTime(2_300); // the poller is mid-sleep
    await schedule("k", ScheduleRule.at(START + 3_000));
    const sent = await h.spec.advanceTime("10s");
    expect(sent).toHaveLength(1);
    expect(sent[0]!.at).toBeGreaterThanOrEqual(START + 3_000);
    expect(sent[0]!.at - (START + 3_000)).toBeLessThanOrEqual(5_000);
  });

  it("sends with request id timer#slot and command.schedule; the target decides it once", async () => {
    await order();
    const r = await schedule("k", ScheduleRule.at(START + 1_000));
    const timer = r.events[0]!.eventId;
    const [sent] = await h.spec.advanceTime("1s");
    expect(sent!.command).toMatchObject({ requestId: `${timer}#1`, schedule: { timer, slot: 1, due: START + 1_000 } });
    expect(sent!.result).toMatchObject({ outcome: "decided" });
    // a second send of the same slot is recognised, not decided again
    expect(await h.spec.send(sent!.command)).toMatchObject({ outcome: "duplicate", errorCode: "DuplicateRequestId" });
    expect((await h.spec.store.events.load(ORDER)).events.filter((e) => e.type === T.Pinged)).toHaveLength(1);
  });

  it("at least once: a crash after the target committed (before the timer settled) redelivers; the duplicate is recognised, the timer completes", async () => {
    await order({ lease: "10s" });
    await schedule("k", ScheduleRule.at(START + 1_000));
    // simulate the crash: deliver and commit by hand as a dying poller would, never settling
    const [claimed] = (await h.spec.store.timers.claimDue(START + 1_000, 10, { owner: "dead-node", until: START + 11_000 })).timers;
    const requestId = `${claimed!.id}#1`;
    await h.spec.send({ commandId: requestId, requestId, type: claimed!.command.type, body: claimed!.command.body, aggregate: claimed!.target, schedule: { timer: claimed!.id, slot: 1, due: claimed!.due } });
    // A shared store leased it to the dead host until the lease ends; one host's store left it due.
    if (store.shared) expect(await h.spec.advanceTime("5s")).toEqual([]);
    const sent = await h.spec.advanceTime(store.shared ? "10s" : "5s");
    expect(sent.map((s) => s.result?.outcome)).toEqual(["duplicate"]);
    expect(await h.spec.store.timers.timersOf(ORDER)).toEqual([]);
    expect((await h.spec.store.events.load(ORDER)).events.filter((e) => e.type === T.Pinged)).toHaveLength(1);
  });

  it("the target decides on its state at that time: a rejection ends a one-shot timer, no retry, not parked", async () => {
    await order();
    await h.spec.send(h.cmd(T.ConfirmOrder));
    await h.spec.send(h.cmd(T.PayOrder, { keepSchedule: true }));
    const sent = await h.spec.advanceTime("16m");
    expect(sent.map((s) => [s.result?.outcome, s.result?.errorCode])).toEqual([["rejected", "OrderNotCancellable"]]);
    expect(await h.spec.store.timers.timersOf(ORDER)).toEqual([]);
    expect(await h.spec.store.timers.list({ status: "parked" })).toEqual([]);
    expect(await h.spec.advanceTime("1h")).toEqual([]);
  });

  it("a rejection moves a cron timer to its next slot", async () => {
    await order();
    await schedule("cancel-hourly", ScheduleRule.cron("0 0 * * * *"), { type: T.CancelOrder, body: { reason: "X" } });
    const sent = await h.spec.advanceTime("3h");
    expect(sent.map((s) => [s.command.schedule!.slot, s.result?.outcome])).toEqual([
      [1, "decided"],
      [2, "rejected"],
      [3, "rejected"],
    ]);
    expect((await h.spec.store.timers.timersOf(ORDER)).map((t) => t.slot)).toEqual([4]);
  });

  it("technical failures are retried with exponential backoff, then parked with the error; an operator re-drives", async () => {
    await order({ maxAttempts: 3, backoff: { initial: "1s", factor: 2 } });
    const attempts: number[] = [];
    h.probe = (c: CommandMessage) => {
      attempts.push(h.spec.clock.now() - START);
      throw new Error(`broker unavailable for ${c.requestId}`);
    };
    await schedule("k", ScheduleRule.at(START + 10_000));
    await h.spec.advanceTime("1m");
    expect(attempts).toEqual([10_000, 11_000, 13_000]); // due, +1 s, +2 s
    const parked = await h.spec.store.timers.list({ status: "parked" });
    expect(parked).toHaveLength(1);
    expect(parked[0]).toMatchObject({ status: "parked", attempts: 3, key: "k" });
    expect(parked[0]!.lastError).toContain("broker unavailable");
    expect(await h.spec.advanceTime("1h")).toEqual([]); // parked: nothing is retried, nothing dropped
    h.probe = () => {};
    expect(await h.spec.host.timers.redrive(parked[0]!.id)).toBe(true);
    const sent = await h.spec.advanceTime("1s");
    expect(sent.map((s) => [s.result?.outcome, s.command.requestId])).toEqual([["decided", `${parked[0]!.id}#1`]]);
    expect(await h.spec.store.timers.list({ status: "parked" })).toEqual([]);
  });

  it("a delivery the target could not decide for version conflicts (retries exhausted) is retried later, not ended", async () => {
    await order({ backoff: { initial: "1s", factor: 2 } });
    let conflicts = 6; // more than the processor's 5 conflict retries: the first delivery gives up
    h.probe = async () => {
      if (conflicts-- <= 0) return;
      const { version } = await h.spec.store.events.load(ORDER);
      const bump = { eventId: `bump-${conflicts}`, type: T.Pinged, body: { n: -1 }, aggregate: ORDER, version: version + 1, sequence: 1, commandId: `bump-${conflicts}`, requestId: `bump-${conflicts}`, createdAt: 0 };
      await h.spec.store.events.append({ aggregate: ORDER, expectedVersion: version, events: [bump], timers: [], request: { requestId: bump.requestId, version: version + 1, errorCode: "Ok" } });
    };
    await schedule("k", ScheduleRule.at(START + 10_000));
    const sent = await h.spec.advanceTime("1m");
    expect(sent.map((s) => s.result?.outcome ?? "failed")).toEqual(["failed", "decided"]);
    expect(sent[1]!.at - START).toBe(11_000); // after the backoff
    expect(await h.spec.store.timers.timersOf(ORDER)).toEqual([]);
  });

  it("carries the tenant of the commit that set it and that commit as its causation", async () => {
    h = harness(store);
    await h.spec.send(h.cmd(T.CreateOrder, { items: [] }, "o-7", { tenantId: "acme" }));
    const r = await h.spec.send(
      h.cmd(T.SetSchedule, { key: "k", rule: ScheduleRule.after("1s"), command: { type: T.Increment, body: {} }, target: { context: "eshop-order", aggregate: "counter", id: "c-7" } }, "o-7", { tenantId: "acme", commandId: "set-cmd" }),
    );
    const [sent] = await h.spec.advanceTime("1s");
    expect(sent!.command.aggregate).toEqual(aggregateRef("eshop-order", "counter", "c-7", "acme"));
    expect(sent!.command.causation).toEqual({ aggregate: aggregateRef("eshop-order", "order", "o-7", "acme"), version: r.aggregateVersion, commandId: "set-cmd", requestId: "set-cmd" });
    expect(sent!.result).toMatchObject({ outcome: "decided" });
  });

  it("is not part of the wait of the command that scheduled it", async () => {
    await order();
    let release!: () => void;
    const blocked = new Promise<void>((resolve) => (release = resolve));
    let deliveries = 0;
    h.probe = async () => {
      deliveries++;
      await blocked; // the scheduled command's target never finishes deciding…
    };
    await schedule("k", ScheduleRule.at(START)); // …due at once
    await h.spec.advanceTime(0);
    expect(deliveries).toBe(1);
    // …yet the scheduling command has returned, and other commands are decided meanwhile
    expect(await h.spec.send(h.cmd(T.Touch))).toMatchObject({ outcome: "decided" });
    release();
    await h.spec.advanceTime(0);
    expect((await h.spec.store.events.load(ORDER)).events.filter((e) => e.type === T.Pinged)).toHaveLength(1);
  });

  it("cron COALESCE: after downtime only the latest missed slot runs, then the series goes on", async () => {
    await order();
    await schedule("tick", ScheduleRule.cron("0 */10 * * * *", "UTC", "COALESCE"));
    await h.spec.advanceTime("10m");
    await h.spec.stop(); // no node runs it for an hour
    await h.spec.clock.advanceTime("61m");
    h.spec.start();
    const sent = await h.spec.advanceTime("1s");
    expect(sent.map((s) => [s.command.schedule!.slot, new Date(s.command.schedule!.due).toISOString()])).toEqual([[7, "2026-03-01T01:10:00.000Z"]]);
    const next = await h.spec.advanceTime("10m");
    expect(next.map((s) => s.command.schedule!.slot)).toEqual([8]);
  });

  it("cron CATCH_UP: after downtime every missed slot runs, in order", async () => {
    await order();
    await schedule("tick", ScheduleRule.cron("0 */10 * * * *", "UTC", "CATCH_UP"));
    await h.spec.advanceTime("10m");
    await h.spec.stop();
    await h.spec.clock.advanceTime("61m");
    h.spec.start();
    const sent = await h.spec.advanceTime("1s");
    expect(sent.map((s) => s.command.schedule!.slot)).toEqual([2, 3, 4, 5, 6, 7]);
    expect(sent.every((s) => s.at >= s.command.schedule!.due)).toBe(true);
  });

  it("polls again at once after a full batch: a backlog drains without waiting on the clock", async () => {
    await order({ batchSize: 3 });
    for (let i = 0; i < 8; i++) await schedule(`k${i}`, ScheduleRule.at(START + 1_000 + i));
    await h.spec.stop();
    await h.spec.clock.advanceTime("2s"); // no poller ran meanwhile: all 8 are due
    void h.spec.start();
    // the clock stands still: only the event loop turns (and a server store's round trips go on meanwhile)
    const until = performance.now() + 10_000;
    for (let turn = 0; (turn < 50 || (store.server && performance.now() < until)) && h.spec.sent.length < 8; turn++) await new Promise<void>((resolve) => setImmediate(resolve));
    expect(h.spec.sent.map((s) => s.command.schedule!.due - START)).toEqual([1000, 1001, 1002, 1003, 1004, 1005, 1006, 1007]);
  });

  it("journal housekeeping (Journal.idle: SQLite's WAL checkpoint) runs only when nothing is due before the next poll", async () => {
    await order({ batchSize: 3 });
    const journal = h.spec.store;
    const original = journal.idle?.bind(journal);
    const calls: number[] = []; // deliveries sent when it ran
    journal.idle = async () => {
      calls.push(h.spec.sent.length);
      await original?.();
    };
    await schedule("soon", ScheduleRule.at(START + 400));
    await h.spec.advanceTime(399);
    expect(calls).toEqual([]); // something due within the poll interval: no housekeeping
    for (let i = 0; i < 8; i++) await schedule(`k${i}`, ScheduleRule.at(START + 3_000 + i));
    await h.spec.advanceTime("5s");
    expect(h.spec.sent).toHaveLength(9);
    // Before the backlog and after it, never between its batches.
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((sent) => sent <= 1 || sent === 9)).toBe(true);
    expect(calls).toContain(9);
  });

  it("drains a backlog larger than a batch at once, never before due, in due order", async () => {
    await order({ batchSize: 7 });
    const dues = Array.from({ length: 40 }, (_, i) => START + 1_000 + ((i * 37) % 23) * 100);
    for (const [i, due] of dues.entries()) await schedule(`k${i}`, ScheduleRule.at(due));
    const sent = await h.spec.advanceTime("5s");
    expect(sent).toHaveLength(40);
    expect(sent.every((s) => s.at >= s.command.schedule!.due)).toBe(true);
    expect(sent.every((s) => s.at - s.command.schedule!.due <= 1_000)).toBe(true);
  });
});
