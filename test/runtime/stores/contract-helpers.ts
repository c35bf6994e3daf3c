// Building blocks of the store contract: commits, events and timers as a decision would make them.
import { ScheduleRule, aggregateRef, type AggregateRef, type Commit, type EventMessage, type TimerSettlement, type TimerSpec } from "../../../runtime/index.js";

export const A = aggregateRef("ctx", "agg", "a-1", "t1");
export const B = aggregateRef("ctx", "agg", "b-1", "t1");
export const LEASE = { owner: "me", until: 40_000 };

export function event(ref: AggregateRef, version: number, sequence: number, type = "ctx.Happened"): EventMessage {
  return { eventId: `${ref.id}-${version}-${sequence}`, type, body: { n: sequence }, aggregate: ref, version, sequence, commandId: `c${version}`, requestId: `r${version}`, createdAt: 1000 };
}

export function commit(ref: AggregateRef, expectedVersion: number, requestId: string, count = 1, timers: Commit["timers"] = []): Commit {
  const events = Array.from({ length: count }, (_, i) => event(ref, expectedVersion + 1, i + 1));
  return { aggregate: ref, expectedVersion, events, request: { requestId, version: count > 0 ? expectedVersion + 1 : expectedVersion, errorCode: "Ok" }, timers };
}

export function timer(id: string, key: string, due: number, owner: AggregateRef = A): TimerSpec {
  return {
    id,
    owner,
    key,
    rule: ScheduleRule.at(due),
    command: { type: "ctx.Do", body: { id } },
    target: owner,
    causation: { aggregate: owner, version: 1, commandId: "c", requestId: "r" },
    slot: 1,
    due,
  };
}

export const set = (t: TimerSpec) => ({ kind: "set" as const, timer: t });
export const done = (id: string, slot = 1): TimerSettlement => ({ id, slot, outcome: { kind: "done" } });
