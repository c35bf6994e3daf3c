// Concurrency of commands to one aggregate, on both stores: the expected version
// (`Command-Aggregate-Version`) decided inside the decision, commands of one process serialized per
// aggregate, and retries of cross-process conflicts that decide each time on a pristine command.
import type { IncomingMessage } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { handleCommand } from "../../runtime/http/command-handler.js";
import { AggregateRegistry, CommandProcessor, Decision, ErrorCodes, ScheduleRule, aggregateRef, commandMessage, type AggregateRegistration, type CommandMessage, type CommandResult, type EventStore, type Store } from "../../runtime/index.js";
import { defaultConflictBackoff } from "../../runtime/processing/command-processor.js";
import { aggregateLocks, KeyedLock } from "../../runtime/processing/keyed-lock.js";
import { VirtualClock } from "../../runtime/testing/index.js";
import { harness, START, type Harness } from "./fixtures/harness.js";
import { T as O } from "./fixtures/order-domain.js";
import { stores } from "./fixtures/stores.js";

const T = { Open: "bank.Open", Deposit: "bank.Deposit", Add: "bank.Add", Opened: "bank.Opened", Deposited: "bank.Deposited" } as const;
const A1 = aggregateRef("bank", "account", "a1");
const A2 = aggregateRef("bank", "account", "a2");

/** One event-loop turn: lets every other pending send run as far as it can (no clock involved). */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

interface Probe {
  decides: number;
  /** Awaited by Deposit's handler (a turn by default), so concurrent sends interleave. */
  gate: (command: CommandMessage) => Promise<void>;
}

function account(probe: Probe): AggregateRegistration<{ balance: number }> {
  return {
    context: "bank",
    aggregate: "account",
    initialState: () => ({ balance: 0 }),
    commands: {
      [T.Open]: { create: true, decide: () => Decision.events({ type: T.Opened, body: {} }) },
      [T.Deposit]: {
        decide: async (_s, c) => {
          probe.decides++;
          await probe.gate(c);
          return Decision.events({ type: T.Deposited, body: { cents: (c.body as { amount: number }).amount } });
        },
      },
      // Normalises its body in place (euros → cents), as handlers do.
      [T.Add]: {
        decide: async (_s, c) => {
          probe.decides++;
          const body = c.body as { amount: number; tags: string[] };
          body.amount = Math.round(body.amount * 100);
          body.tags.push("seen");
          await probe.gate(c);
          return Decision.events({ type: T.Deposited, body: { cents: body.amount, tags: [...body.tags] } });
        },
      },
    },
    events: {
      [T.Deposited]: (s, e) => ({ balance: s.balance + (e.body as { cents: number }).cents }),
    },
  };
}

/** Appends, as another process would, one commit to `ref` on top of whatever it is at. */
async function foreignWrite(journal: Store, append: EventStore["append"], ref = A1, n = 0): Promise<void> {
  const v = (await journal.events.load(ref)).version;
  const requestId = `foreign-${v}-${n}`;
  await append({
    aggregate: ref,
    expectedVersion: v,
    events: [{ eventId: `e-${requestId}`, type: T.Deposited, body: { cents: 1 }, aggregate: ref, version: v + 1, sequence: 1, commandId: requestId, requestId, createdAt: START }],
    request: { requestId, version: v + 1, errorCode: "Ok" },
    timers: [],
  });
}

function request(headers: Record<string, string>): IncomingMessage {
  const lower: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) lower[k.toLowerCase()] = v;
  return { headers: lower } as IncomingMessage;
}
const depositRoute = { method: "PUT", context: "bank", aggregate: "account", type: T.Deposit, create: false } as never;

describe.each(stores)("commands to one aggregate: $name", (store) => {
  let journal: Store;
  let probe: Probe;
  let processor: CommandProcessor;
  const clock = new VirtualClock(START);

  function open(options: Partial<ConstructorParameters<typeof CommandProcessor>[0]> = {}): CommandProcessor {
    journal = store.open();
    probe = { decides: 0, gate: turn };
    processor = new CommandProcessor({ events: journal.events, registry: new AggregateRegistry([account(probe)]), clock, ...options });
    return processor;
  }
  async function opened(ref = A1): Promise<void> {
    expect((await processor.send(commandMessage(T.Open, {}, ref))).errorCode).toBe(ErrorCodes.Ok);
  }
  afterEach(async () => {
    await journal.close();
  });

  describe("the expected version (Command-Aggregate-Version)", () => {
    it("of N concurrent commands expecting the same version, exactly one is decided; the rest are CommandExpectVersionConflict, not decided", async () => {
      open();
      await opened();
      const rs = await Promise.all(Array.from({ length: 5 }, (_, i) => processor.send({ ...commandMessage(T.Deposit, { amount: i }, A1), expectedVersion: 1 })));
      expect(rs.filter((r) => r.outcome === "decided").map((r) => r.aggregateVersion)).toEqual([2]);
      const losers = rs.filter((r) => r.outcome !== "decided");
      expect(losers).toHaveLength(4);
      for (const r of losers) expect(r).toMatchObject({ outcome: "rejected", succeeded: false, errorCode: "CommandExpectVersionConflict", aggregateVersion: 2 });
      expect(probe.decides).toBe(1);
      expect((await journal.events.load(A1)).version).toBe(2);
    });

    it("over HTTP: 5 concurrent PUTs with Command-Aggregate-Version 1 → one 200, four 409", async () => {
      open();
      await opened();
      const rs = await Promise.all(Array.from({ length: 5 }, () => handleCommand(request({ "Command-Aggregate-Version": "1" }), depositRoute, A1.tenantId, "a1", { amount: 1 }, processor.send)));
      expect(rs.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
      expect(rs.filter((r) => r.status === 409).map((r) => r.errorCode)).toEqual(Array(4).fill("CommandExpectVersionConflict"));
      expect((await journal.events.load(A1)).version).toBe(2);
    });

    it("a conflict at commit (another process wrote since the load) is CommandExpectVersionConflict, not decided again", async () => {
      open();
      await opened();
      const append = journal.events.append.bind(journal.events);
      journal.events.append = async (commit) => {
        if (commit.request.requestId === "pay") await foreignWrite(journal, append);
        return append(commit);
      };
      const r = await processor.send({ ...commandMessage(T.Deposit, { amount: 5 }, A1, { requestId: "pay" }), expectedVersion: 1 });
      expect(r).toMatchObject({ outcome: "rejected", errorCode: "CommandExpectVersionConflict" });
      expect(probe.decides).toBe(1);
      expect((await journal.events.load(A1)).events.map((e) => e.requestId)).not.toContain("pay");
    });

    it("an identical re-send (same request id and version) of a decided command is DuplicateRequestId, not a version conflict", async () => {
      open();
      await opened();
      const headers = { "Command-Aggregate-Version": "1", "Command-Request-Id": "pay-42" };
      const first = await handleCommand(request(headers), depositRoute, A1.tenantId, "a1", { amount: 10 }, processor.send);
      const retry = await handleCommand(request(headers), depositRoute, A1.tenantId, "a1", { amount: 10 }, processor.send);
      expect([first.status, first.errorCode]).toEqual([200, ErrorCodes.Ok]);
      expect([retry.status, retry.errorCode]).toEqual([400, ErrorCodes.DuplicateRequestId]);
      expect(retry.result.aggregateVersion).toBe(2);
      expect(probe.decides).toBe(1);
    });

    it("a version conflict is not recorded: the same request with the version it now expects is decided", async () => {
      open();
      await opened();
      const stale = await processor.send({ ...commandMessage(T.Deposit, { amount: 1 }, A1, { requestId: "r" }), expectedVersion: 7 });
      expect(stale).toMatchObject({ outcome: "rejected", errorCode: "CommandExpectVersionConflict", aggregateVersion: 1 });
      const fresh = await processor.send({ ...commandMessage(T.Deposit, { amount: 1 }, A1, { requestId: "r" }), expectedVersion: 1 });
      expect(fresh).toMatchObject({ outcome: "decided", aggregateVersion: 2 });
    });

    it("expected version 0 creates; it conflicts once the aggregate exists", async () => {
      open();
      const create = (id: string) => processor.send({ ...commandMessage(T.Open, {}, A2, { requestId: id }), expectedVersion: 0 });
      expect(await create("c1")).toMatchObject({ outcome: "decided", aggregateVersion: 1 });
      expect(await create("c2")).toMatchObject({ outcome: "rejected", errorCode: "CommandExpectVersionConflict" });
    });
  });

  describe("in one process, commands to one aggregate are decided in turn", () => {
    it("50 concurrent sends are all decided, once each, with no version conflict", async () => {
      open();
      await opened();
      const rs = await Promise.all(Array.from({ length: 50 }, (_, i) => processor.send(commandMessage(T.Deposit, { amount: i }, A1))));
      expect(rs.map((r) => r.errorCode)).toEqual(Array(50).fill(ErrorCodes.Ok));
      expect(rs.map((r) => r.aggregateVersion).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 2));
      expect(probe.decides).toBe(50); // never decided twice
      expect((await journal.events.load(A1)).version).toBe(51);
    });

    it("processors over the same store (two hosts in one process) share the turn", async () => {
      open();
      await opened();
      const other = new CommandProcessor({ events: journal.events, registry: new AggregateRegistry([account(probe)]), clock, maxConflictRetries: 0 });
      const rs = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? processor : other).send(commandMessage(T.Deposit, { amount: i }, A1))));
      expect(rs.map((r) => r.errorCode)).toEqual(Array(20).fill(ErrorCodes.Ok));
      expect(probe.decides).toBe(20);
    });

    it("other aggregates do not wait: a slow decision on one does not hold another", async () => {
      open();
      await opened(A1);
      await opened(A2);
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      probe.gate = (c) => (c.aggregate.id === "a1" ? held : turn());
      const slow = processor.send(commandMessage(T.Deposit, { amount: 1 }, A1));
      await turn();
      expect(await processor.send(commandMessage(T.Deposit, { amount: 1 }, A2))).toMatchObject({ outcome: "decided" });
      release();
      expect(await slow).toMatchObject({ outcome: "decided" });
    });

    it("a failing or rejected command releases the turn", async () => {
      open();
      await opened();
      probe.gate = async (c) => {
        if ((c.body as { amount: number }).amount < 0) throw new Error("boom");
      };
      const [failed, ...rest] = await Promise.allSettled([
        processor.send(commandMessage(T.Deposit, { amount: -1 }, A1)),
        processor.send(commandMessage(T.Open, {}, A1)), // rejected: already exists
        processor.send(commandMessage(T.Deposit, { amount: 3 }, A1)),
      ]);
      expect(failed).toMatchObject({ status: "rejected", reason: { message: "boom" } });
      expect(rest.map((r) => r.status === "fulfilled" && r.value.outcome)).toEqual(["rejected", "decided"]);
    });

    it("each attempt decides on a pristine copy: a handler that mutates its command in place does not compound on a retry", async () => {
      open();
      await opened();
      const append = journal.events.append.bind(journal.events);
      let interfere = 2; // two conflicts from another process, then it goes through
      journal.events.append = async (commit) => {
        if (commit.request.requestId === "add" && interfere-- > 0) await foreignWrite(journal, append, A1, interfere);
        return append(commit);
      };
      const body = { amount: 2, tags: ["x"] };
      const r = await processor.send(commandMessage(T.Add, body, A1, { requestId: "add" }));
      expect(probe.decides).toBe(3);
      expect(r).toMatchObject({ outcome: "decided", aggregateVersion: 4 });
      expect(r.events.map((e) => e.body)).toEqual([{ cents: 200, tags: ["x", "seen"] }]);
      expect(body).toEqual({ amount: 2, tags: ["x"] }); // the caller's command is left as it was
    });

    it("the copy keeps a body key named __proto__ (as JSON.parse makes it) an own property, not the copy's prototype", async () => {
      open();
      await opened();
      const seen: unknown[] = [];
      probe.gate = async (command) => void seen.push(command.body);
      const body = JSON.parse('{"amount": 5, "__proto__": {"polluted": true}, "nested": {"__proto__": [1]}}') as Record<string, unknown>;
      expect((await processor.send(commandMessage(T.Deposit, body, A1))).outcome).toBe("decided");
      const copy = seen[0] as Record<string, unknown>;
      expect(copy).not.toBe(body);
      expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
      expect(Object.getOwnPropertyDescriptor(copy, "__proto__")).toMatchObject({ value: { polluted: true }, writable: true, enumerable: true, configurable: true });
      expect(copy["polluted"]).toBeUndefined();
      expect(Object.getOwnPropertyDescriptor(copy["nested"], "__proto__")?.value).toEqual([1]);
      expect(Object.keys(copy)).toEqual(["amount", "__proto__", "nested"]);
    });

    it("in-process concurrent mutating handlers: 1 € + 2 € is 300 cents", async () => {
      open();
      await opened();
      const rs = await Promise.all([1, 2].map((amount) => processor.send(commandMessage(T.Add, { amount, tags: [] }, A1))));
      expect(rs.map((r) => r.outcome)).toEqual(["decided", "decided"]);
      expect(probe.decides).toBe(2);
      const cents = (await journal.events.load(A1)).events.reduce((n, e) => n + ((e.body as { cents?: number }).cents ?? 0), 0);
      expect(cents).toBe(300);
    });
  });
});

describe.each(stores)("conflicts between processes: $name", (store) => {
  let journal: Store;
  afterEach(async () => {
    await journal.close();
  });

  it("are retried, bounded, after the backoff's waits (the first retry at once), then EventVersionConflict; the lock is free after", async () => {
    journal = store.open();
    const probe: Probe = { decides: 0, gate: turn };
    const waits: number[] = [];
    const processor = new CommandProcessor({ events: journal.events, registry: new AggregateRegistry([account(probe)]), clock: new VirtualClock(START), conflictBackoff: (retry) => (waits.push(retry), 0) });
    await processor.send(commandMessage(T.Open, {}, A1));
    const append = journal.events.append.bind(journal.events);
    let n = 0;
    journal.events.append = async (commit) => {
      if (commit.request.requestId === "hot") await foreignWrite(journal, append, A1, n++);
      return append(commit);
    };
    const r = await processor.send(commandMessage(T.Deposit, { amount: 1 }, A1, { requestId: "hot" }));
    expect(r).toMatchObject({ outcome: "rejected", errorCode: ErrorCodes.EventVersionConflict });
    expect(waits).toEqual([1, 2, 3, 4, 5]);
    expect(probe.decides).toBe(6);
    expect(aggregateLocks(journal.events).size).toBe(0);
  });

  it("back off on the processor's clock, without holding the aggregate's turn meanwhile", async () => {
    journal = store.open();
    const probe: Probe = { decides: 0, gate: turn };
    const clock = new VirtualClock(START);
    const processor = new CommandProcessor({ events: journal.events, registry: new AggregateRegistry([account(probe)]), clock, conflictBackoff: () => 60_000 });
    await processor.send(commandMessage(T.Open, {}, A1));
    const append = journal.events.append.bind(journal.events);
    let once = true;
    journal.events.append = async (commit) => {
      if (commit.request.requestId === "late" && once) {
        once = false;
        await foreignWrite(journal, append);
      }
      return append(commit);
    };
    let done = false;
    const late = processor.send(commandMessage(T.Deposit, { amount: 1 }, A1, { requestId: "late" })).finally(() => (done = true));
    while (clock.pending === 0) await turn();
    expect([done, probe.decides, aggregateLocks(journal.events).size]).toEqual([false, 1, 0]);
    // Meanwhile this process's other commands to the aggregate go on.
    expect(await processor.send(commandMessage(T.Deposit, { amount: 2 }, A1))).toMatchObject({ outcome: "decided", aggregateVersion: 3 });
    expect(done).toBe(false);
    await clock.advanceTime(60_000);
    expect(await late).toMatchObject({ outcome: "decided", aggregateVersion: 4 });
    expect(probe.decides).toBe(3);
  });
});

describe("the default conflict backoff", () => {
  it("retries the first conflict at once, then waits a jittered, doubling, capped time", () => {
    expect(defaultConflictBackoff(1, () => 0.7)).toBe(0);
    expect([defaultConflictBackoff(2, () => 0), defaultConflictBackoff(2, () => 1)]).toEqual([1, 2]);
    expect([defaultConflictBackoff(5, () => 0), defaultConflictBackoff(5, () => 1)]).toEqual([8, 16]);
    expect([defaultConflictBackoff(30, () => 0), defaultConflictBackoff(30, () => 1)]).toEqual([25, 50]);
  });
});

describe("KeyedLock", () => {
  it("runs one key's tasks in order, other keys' side by side, and forgets a key once its queue is empty", async () => {
    const lock = new KeyedLock();
    const log: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const first = lock.run("a", async () => {
      log.push("a1 start");
      await held;
      log.push("a1 end");
    });
    const second = lock.run("a", async () => {
      log.push("a2");
      throw new Error("a2 fails");
    });
    const third = lock.run("a", async () => log.push("a3"));
    await lock.run("b", async () => log.push("b"));
    expect(lock.size).toBe(1);
    release();
    await first;
    await expect(second).rejects.toThrow("a2 fails");
    await third;
    expect(log).toEqual(["a1 start", "b", "a1 end", "a2", "a3"]);
    expect(lock.size).toBe(0);
  });
});

describe.each(stores)("the timer service's batch path and in-process sends to the same aggregate: $name", (store) => {
  let h: Harness;
  afterEach(async () => {
    await h.spec.stop();
    await h.spec.store.close();
  });

  it("neither deadlock nor lose a command: every delivery and every send is decided once", async () => {
    h = harness(store);
    const o1 = aggregateRef("eshop-order", "order", "o-1");
    const o2 = aggregateRef("eshop-order", "order", "o-2");
    for (const ref of [o1, o2]) {
      expect((await h.spec.send(commandMessage(O.CreateOrder, { items: [] }, ref))).errorCode).toBe(ErrorCodes.Ok);
      for (let k = 0; k < 5; k++) {
        const set = await h.spec.send(commandMessage(O.SetSchedule, { key: `k${k}`, rule: ScheduleRule.at(START + 60_000), command: { type: O.Ping, body: { n: 100 + k } } }, ref));
        expect(set.errorCode).toBe(ErrorCodes.Ok);
      }
    }
    // While the batch decides o-1's first delivery, this process sends 10 more commands to o-1.
    const sends: Promise<CommandResult>[] = [];
    h.probe = async (c) => {
      if (c.schedule !== undefined && sends.length === 0 && c.aggregate.id === "o-1") {
        for (let n = 0; n < 10; n++) sends.push(h.spec.send(commandMessage(O.Ping, { n }, o1)));
        // A server's round trips take longer than the turn below: the sends are let through first.
        if (store.server) await Promise.all(sends);
      }
      h.spec.clock.now();
      await turn();
    };
    const timers = h.spec.store.timers;
    const commitBatch = timers.commitBatch.bind(timers);
    let refused = 0;
    timers.commitBatch = async (batch, entries) => {
      const outcomes = await commitBatch(batch, entries);
      refused += outcomes.filter((o) => !o.ok).length;
      return outcomes;
    };
    const sent = await h.spec.advanceTime("1m");
    const results = await Promise.all(sends);
    expect(sends).toHaveLength(10);
    expect(results.map((r) => r.errorCode)).toEqual(Array(10).fill(ErrorCodes.Ok));
    const delivered = sent.filter((d) => d.result !== undefined);
    expect(delivered.map((d) => d.result!.errorCode)).toEqual(Array(10).fill(ErrorCodes.Ok));
    const pings = (ref: typeof o1) => h.spec.store.events.load(ref).then((s) => s.events.filter((e) => e.type === O.Pinged).map((e) => (e.body as { n: number }).n).sort((a, b) => a - b));
    expect(await pings(o1)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 100, 101, 102, 103, 104]);
    expect(await pings(o2)).toEqual([100, 101, 102, 103, 104]);
    expect(await h.spec.store.timers.timersOf(o1)).toEqual([]);
    expect(refused).toBeGreaterThan(0); // the sends did come between the batch's load and its commit
    expect(aggregateLocks(h.spec.store.events).size).toBe(0);
  });
});
