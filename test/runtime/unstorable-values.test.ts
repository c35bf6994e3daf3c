// What a journal stores is exactly what a JSON round trip of it gives back (SQLite keeps bodies as JSON):
// a value that would come back as something else (a Date as a string, a Map as {}, NaN as null, a function
// dropped) is refused with UnstorableCommitError naming the event or schedule and the value's path, on both
// journals alike, and a refused commit leaves no trace. An `undefined` object property is left out (as JSON
// and an optional field have it), -0 is stored as 0: both journals give back the same values.
import { describe, expect, it } from "vitest";
import { AggregateRegistry, CommandProcessor, Decision, ScheduleRule, aggregateRef, commandMessage, cronNext, type AggregateRegistration, type Commit, type EventMessage, type Store, type TimerSpec } from "../../runtime/index.js";
import { UnstorableCommitError } from "../../runtime/index.js";
import { buildCommit } from "../../runtime/processing/commit-builder.js";
import { aggregateSpec } from "../../runtime/testing/index.js";
import { VirtualClock } from "../../runtime/testing/virtual-clock.js";
import { stores } from "./fixtures/stores.js";

const START = Date.parse("2026-03-01T00:00:00Z");
const A = aggregateRef("u", "thing", "a-1", "t1");

function event(version: number, sequence: number, body: unknown, type: string): EventMessage {
  return { eventId: `e-${version}-${sequence}`, type, body, aggregate: A, version, sequence, commandId: `c${version}`, requestId: `r${version}`, createdAt: START };
}

/** `options.type`: every event's type (any value, undefined too), else "u.Happened". */
function commit(expectedVersion: number, bodies: readonly unknown[], timers: Commit["timers"] = [], options: { type?: unknown } = {}): Commit {
  const version = expectedVersion + 1;
  const type = ("type" in options ? options.type : "u.Happened") as string;
  return {
    aggregate: A,
    expectedVersion,
    events: bodies.map((body, i) => event(version, i + 1, body, type)),
    request: { requestId: `r${version}`, version: bodies.length > 0 ? version : expectedVersion, errorCode: "Ok" },
    timers,
  };
}

function timer(key: string, body: unknown): TimerSpec {
  return {
    id: `t-${key}`,
    owner: A,
    key,
    rule: ScheduleRule.at(START + 1000),
    command: { type: "u.Do", body },
    target: A,
    causation: { aggregate: A, version: 1, commandId: "c1", requestId: "r1" },
    slot: 1,
    due: START + 1000,
  };
}

class Money {
  constructor(readonly amount: number) {}
}
class Tags extends Array<string> {}
const cyclic = (): unknown => {
  const o: Record<string, unknown> = { b: 1 };
  o.self = { again: o };
  return o;
};

/** A body, and the path and description the refusal names. */
const unstorable: readonly [name: string, body: () => unknown, problem: string][] = [
  ["a Date", () => ({ since: new Date(START) }), "body.since: a Date"],
  ["a Map", () => ({ holds: new Map([["mug", 2]]) }), "body.holds: a Map"],
  ["a Set", () => ({ tags: new Set(["x"]) }), "body.tags: a Set"],
  ["a RegExp", () => ({ pattern: /x/ }), "body.pattern: a RegExp"],
  ["a class instance", () => ({ price: new Money(5) }), "body.price: a Money"],
  ["an array subclass", () => ({ tags: Tags.from(["x"]) }), "body.tags: an array of a subclass"],
  ["a typed array", () => ({ bytes: new Uint8Array(2) }), "body.bytes: a Uint8Array"],
  ["a function", () => ({ onDone: () => 1 }), "body.onDone: a function"],
  ["a symbol", () => ({ s: Symbol("s") }), "body.s: a symbol"],
  ["a BigInt", () => ({ n: 10n }), "body.n: a BigInt"],
  ["NaN", () => ({ amount: NaN }), "body.amount: NaN"],
  ["Infinity", () => ({ amount: Infinity }), "body.amount: Infinity"],
  ["-Infinity", () => ({ amount: -Infinity }), "body.amount: -Infinity"],
  ["undefined in an array", () => ({ items: [1, undefined, 3] }), "body.items[1]: undefined"],
  ["a hole in an array", () => ({ items: [1, , 3] }), "body.items[1]: undefined"], // eslint-disable-line no-sparse-arrays
  ["a cycle", cyclic, "body.self.again: a cycle"],
  ["a Date deep down", () => ({ lines: [{ sku: "a" }, { sku: "b", at: { when: new Date(START) } }], "odd key": 1 }), "body.lines[1].at.when: a Date"],
  ["an odd key", () => ({ "odd key": { "": NaN } }), 'body["odd key"][""]: NaN'],
  ["a Date as the whole body", () => new Date(START), "body: a Date"],
];

describe.each(stores)("unstorable values are refused, and what is stored is what JSON gives back: $name", (store) => {
  async function expectNothingWritten(journal: Store): Promise<void> {
    expect(await journal.events.load(A)).toEqual({ version: 0, deleted: false, events: [] });
    expect(await journal.events.read(0, 10)).toEqual([]);
    expect(await journal.events.findRequest(A, "r1")).toBeUndefined();
    expect(await journal.timers.timersOf(A)).toEqual([]);
  }

  it.each(unstorable)("an event body holding %s: UnstorableCommitError naming the event and the path; nothing written", async (_name, body, problem) => {
    const journal = store.open();
    try {
      const error: unknown = await journal.events.append(commit(0, [{ ok: true }, body()])).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(UnstorableCommitError);
      expect((error as UnstorableCommitError).where).toBe("event 2 (u.Happened)");
      expect((error as UnstorableCommitError).problem.startsWith(problem)).toBe(true);
      expect((error as Error).message).toContain(`request r1 on u.thing/a-1: event 2 (u.Happened): ${problem}`);
      await expectNothingWritten(journal);
      // and the journal goes on as if it never was: the next commit is version 1, position 1
      const appended = await journal.events.append(commit(0, [{ ok: true }]));
      expect([appended.version, appended.events[0]!.position]).toEqual([1, 1]);
    } finally {
      await journal.close();
    }
  });

  it("a refused second event leaves no trace of the first: not in the log (subscriptions), no version, no request id", async () => {
    const journal = store.open();
    try {
      await expect(journal.events.append(commit(0, [{ ok: true }, { onDone: () => 1 }]))).rejects.toThrow(UnstorableCommitError);
      await expectNothingWritten(journal);
      await journal.events.append(commit(0, [{ n: 1 }, { n: 2 }]));
      expect((await journal.events.read(0, 10)).map((e) => [e.position, e.sequence, e.body])).toEqual([
        [1, 1, { n: 1 }],
        [2, 2, { n: 2 }],
      ]);
    } finally {
      await journal.close();
    }
  });

  it("stores a body as a JSON round trip gives it back: undefined properties left out, -0 as 0 (the append's result is the decision's, on both)", async () => {
    const journal = store.open();
    try {
      const body = { a: undefined, b: 1, z: -0, nested: { c: undefined, list: [0, -0, null, "s", false] } };
      const original = structuredClone(body);
      const appended = await journal.events.append(commit(0, [body, undefined]));
      const stored = { b: 1, z: 0, nested: { list: [0, 0, null, "s", false] } };
      const [loaded, noBody] = (await journal.events.load(A)).events;
      expect(loaded!.body).toStrictEqual(stored);
      expect(Object.is((loaded!.body as { z: number }).z, 0)).toBe(true);
      expect(noBody!.body).toBeUndefined();
      expect((await journal.events.read(0, 10))[0]!.body).toStrictEqual(stored);
      expect(appended.events.map((e) => [e.position, e.body])).toStrictEqual([
        [1, body],
        [2, undefined],
      ]);
      expect(body).toStrictEqual(original); // the caller's value is not touched
    } finally {
      await journal.close();
    }
  });

  it("a schedule whose command holds a Date: UnstorableCommitError naming the schedule and the path; nothing written", async () => {
    const journal = store.open();
    try {
      const error: unknown = await journal.events.append(commit(0, [{ ok: true }], [{ kind: "set", timer: timer("k", { at: new Date(START) }) }])).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UnstorableCommitError);
      expect((error as UnstorableCommitError).where).toBe("schedule k");
      expect((error as UnstorableCommitError).problem).toMatch(/^command\.body\.at: a Date/);
      await expectNothingWritten(journal);
      expect(await journal.timers.list({ status: "pending" })).toEqual([]);
    } finally {
      await journal.close();
    }
  });

  it("stores a schedule's command as a JSON round trip gives it back", async () => {
    const journal = store.open();
    try {
      await journal.events.append(commit(0, [{ ok: true }], [{ kind: "set", timer: timer("k", { a: undefined, z: -0, n: 1 }) }]));
      const [row] = await journal.timers.timersOf(A);
      expect(row!.command).toStrictEqual({ type: "u.Do", body: { z: 0, n: 1 } });
      expect(row!.rule).toStrictEqual(ScheduleRule.at(START + 1000));
    } finally {
      await journal.close();
    }
  });

  it.each([
    ["undefined", undefined, "type: undefined"],
    ["empty", "", 'type: ""'],
    ["a number", 7, "type: 7"],
  ])("an event whose type is %s: UnstorableCommitError, nothing written", async (_name, type, problem) => {
    const journal = store.open();
    try {
      const error: unknown = await journal.events.append(commit(0, [{}], [], { type })).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UnstorableCommitError);
      expect((error as UnstorableCommitError).where).toBe("event 1");
      expect((error as UnstorableCommitError).problem).toBe(`${problem}, not a non-empty string`);
      await expectNothingWritten(journal);
    } finally {
      await journal.close();
    }
  });

  describe("through the command processor", () => {
    interface Loan {
      readonly since?: Date;
    }
    const EVENTS: Record<string, string> = { Started: "l.Started" };
    const loan: AggregateRegistration<Loan> = {
      context: "l",
      aggregate: "Loan",
      initialState: () => ({}),
      commands: {
        "l.Start": { decide: () => Decision.events({ type: "l.Started", body: { since: new Date(START) } }) },
        "l.Typo": { decide: () => Decision.events({ type: EVENTS.Strated as string, body: {} }) },
      },
      events: { "l.Started": (s, e) => ({ ...s, ...(e.body as Loan) }) },
    };
    const ref = aggregateRef("l", "Loan", "1");

    it.each([
      ["a Date in a body", "l.Start", "event 1 (l.Started): body.since: a Date"],
      ["an event type read from a misspelt constant", "l.Typo", "event 1: type: undefined, not a non-empty string"],
    ])("%s: the send fails with UnstorableCommitError, nothing is stored", async (_name, type, message) => {
      const journal = store.open();
      try {
        const processor = new CommandProcessor({ events: journal.events, registry: new AggregateRegistry([loan]), clock: new VirtualClock(START) });
        await expect(processor.send(commandMessage(type, {}, ref, { requestId: "R" }))).rejects.toThrow(message);
        expect(await journal.events.read(0, 10)).toEqual([]);
        expect(await journal.events.findRequest(ref, "R")).toBeUndefined();
      } finally {
        await journal.close();
      }
    });
  });
});

describe("buildCommit", () => {
  const command = commandMessage("u.Do", {}, A, { requestId: "R" });
  const build = (type: unknown) =>
    buildCommit({ command, expectedVersion: 0, events: [{ type: "u.Fine", body: {} }, { type: type as string, body: {} }], schedules: [], deletes: false, now: START, newId: () => "id", cronNext });

  it.each([undefined, null, "", 42, { type: "u.X" }])("refuses an event whose type is %j (UnstorableCommitError: the handler's bug, not a rejection)", (type) => {
    expect(() => build(type)).toThrow(UnstorableCommitError);
    expect(() => build(type)).toThrow(/event 2: type: .*, not a non-empty string/);
  });

  it("builds one whose types are strings", () => {
    expect(build("u.Other").events.map((e) => e.type)).toEqual(["u.Fine", "u.Other"]);
  });
});

describe("aggregateSpec refuses what production cannot store", () => {
  it("a given event with a Date fails the spec as SQLite would fail the command", async () => {
    const loan: AggregateRegistration<object> = { context: "l", aggregate: "Loan", initialState: () => ({}), commands: { "l.Age": { decide: () => Decision.noOp } }, events: { "l.Started": (s) => s } };
    await expect(aggregateSpec(loan).given({ type: "l.Started", body: { since: new Date(START) } }).when({ type: "l.Age", body: {} })).rejects.toThrow("body.since: a Date");
  });
});
