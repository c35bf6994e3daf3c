// A partition's subscription whose handler is failing when the partition goes to another host (this
// host paused, or lost the store) stops there: the event is neither retried nor parked by this host
// (parking is a write under the lost lease), and its checkpoint does not move; the new owner takes it.
import { expect, it } from "vitest";
import { aggregateRef, commandMessage, Decision, Host, MemoryStore, MemorySubscriptionStore, SubscriptionService, type AggregateRegistration } from "../../../runtime/index.js";
import { VirtualClock } from "../../../runtime/testing/index.js";

const thing: AggregateRegistration<object> = {
  context: "f",
  aggregate: "thing",
  initialState: () => ({}),
  commands: { "f.Make": { decide: () => Decision.events({ type: "f.Made", body: {} }) } },
  events: {},
};

it.each(["last attempt", "backoff"])("a failing handler whose partition was lost during its %s parks nothing and stops retrying", async (when) => {
  const clock = new VirtualClock("2026-01-01T00:00:00Z");
  const store = new MemoryStore();
  await new Host({ store, aggregates: [thing], clock }).send(commandMessage("f.Make", {}, aggregateRef("f", "thing", "a")));
  let owned = true;
  const attempts: number[] = [];
  const parked: unknown[] = [];
  const checkpoints = new MemorySubscriptionStore();
  const service = new SubscriptionService({
    events: store,
    store: checkpoints,
    clock,
    maxAttempts: 2,
    backoff: { initial: 1_000, factor: 2, max: 1_000 },
    onParked: (entry) => parked.push(entry),
    subscriptions: [
      {
        name: "f.handler#0",
        accepts: () => true,
        active: () => owned,
        handle: async (_event, attempt) => {
          attempts.push(attempt.number);
          // Lost while the last attempt runs, or while the first one's backoff is waited out.
          if (when === "last attempt" ? attempt.last : attempt.number === 1) owned = false;
          throw new Error("the service is down");
        },
      },
    ],
  });
  const pass = service.pollOnce();
  await clock.advanceTime("2s");
  await pass;
  expect(attempts).toEqual(when === "last attempt" ? [1, 2] : [1]);
  expect(parked).toEqual([]);
  expect(await checkpoints.parked()).toEqual([]);
  expect(await checkpoints.checkpoint("f.handler#0")).toBe(0);
});
