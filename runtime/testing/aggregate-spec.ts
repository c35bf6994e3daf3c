import { deepStrictEqual, fail, ok } from "node:assert/strict";
import { randomUUID } from "node:crypto";
import type { Clock } from "../clock.js";
import { MemoryStore } from "../store/memory/memory-store.js";
import type { EventStore } from "../store/event-store.js";
import { aggregateRef, type AggregateRef, type TargetRef } from "../model/aggregate-ref.js";
import type { CommandResult } from "../model/command-result.js";
import type { EventDraft } from "../model/decision.js";
import { commandMessage, type CommandDraft, type CommandMessage, type CommandOptions, type EventMessage } from "../model/messages.js";
import type { AggregateRegistration, Services } from "../model/registration.js";
import { toEpochMs, type InstantInput, type ScheduleRule } from "../model/schedule-rule.js";
import { SystemEvents, type ScheduleCancelledBody, type ScheduleSetBody } from "../model/system-events.js";
import { CommandProcessor } from "../processing/command-processor.js";
import { replay } from "../processing/decide.js";
import { AggregateRegistry } from "../processing/registry.js";
import type { CronNext } from "../cron/cron-next.js";
import { VirtualClock } from "./virtual-clock.js";

export interface AggregateSpecOptions {
  readonly services?: Services;
  /** The virtual clock's start (default 2026-01-01T00:00:00Z). */
  readonly start?: number | string | Date;
  readonly tenantId?: string;
  readonly id?: string;
  readonly cronNext?: CronNext;
}

/** A schedule as a spec expects it; `target` left out means "this aggregate", `due` left out is not compared. */
export interface ExpectedSchedule {
  readonly key: string;
  readonly rule: ScheduleRule;
  readonly command: CommandDraft;
  readonly target?: TargetRef;
  /** When its command is first due (the first slot of a cron rule), e.g. `"2026-01-01T00:15:00Z"`. */
  readonly due?: InstantInput;
}

/** A schedule the command set: `due` is its first slot's due time (epoch ms). */
export interface SpecSchedule {
  readonly key: string;
  readonly rule: ScheduleRule;
  readonly command: CommandDraft;
  readonly target: AggregateRef;
  readonly due: number;
}

/**
 * Given events, when a command, expect events, schedules and cancellations, or a rejection.
 *
 *     const then = await aggregateSpec(order).given(created).when(confirm);
 *     then.expectEvents(confirmed).expectSchedules({ key, rule, command });
 */
export function aggregateSpec<S>(registration: AggregateRegistration<S>, options: AggregateSpecOptions = {}): AggregateSpec<S> {
  return new AggregateSpec(registration, options);
}

export class AggregateSpec<S> {
  private readonly history: EventDraft[] = [];
  readonly clock: VirtualClock;
  readonly ref: AggregateRef;

  constructor(private readonly registration: AggregateRegistration<S>, private readonly options: AggregateSpecOptions) {
    this.clock = new VirtualClock(options.start ?? "2026-01-01T00:00:00Z");
    this.ref = aggregateRef(registration.context, registration.aggregate, options.id ?? "spec-aggregate", options.tenantId);
  }

  /**
   * The aggregate's history: each event its own commit, at versions 1, 2, … as a store holds them
   * after as many commands. Events only, as in Wow's test spec: schedules that the commands deciding
   * them would have set are not set (`pendingTimers` holds those of the `when` command alone).
   */
  given(...events: EventDraft[]): this {
    this.history.push(...events);
    return this;
  }

  async when(command: CommandDraft, options: CommandOptions = {}): Promise<SpecOutcome<S>> {
    const store = new MemoryStore();
    if (this.history.length > 0) await seed(store.events, this.ref, this.history, this.clock);
    const processor = new CommandProcessor({
      events: store.events,
      registry: new AggregateRegistry([this.registration]),
      clock: this.clock as Clock,
      ...(this.options.services ? { services: this.options.services } : {}),
      ...(this.options.cronNext ? { cronNext: this.options.cronNext } : {}),
    });
    const message = commandMessage(command.type, command.body, this.ref, options);
    const result = await processor.send(message);
    const stream = await store.events.load(this.ref);
    return new SpecOutcome(this.ref, message, result, replay(this.registration, stream.events), await store.timers.timersOf(this.ref));
  }
}

/** Appends `events` to `ref`'s stream, one commit (and version) per event. */
async function seed(store: EventStore, ref: AggregateRef, events: readonly EventDraft[], clock: Clock): Promise<void> {
  for (const [index, event] of events.entries()) {
    const commandId = `given-${randomUUID()}`;
    const version = index + 1;
    const message: EventMessage = {
      eventId: randomUUID(),
      type: event.type,
      body: event.body,
      aggregate: ref,
      version,
      sequence: 1,
      commandId,
      requestId: commandId,
      createdAt: clock.now(),
    };
    await store.append({ aggregate: ref, expectedVersion: index, events: [message], request: { requestId: commandId, version, errorCode: "Ok" }, timers: [] });
  }
}

/** What a `when` produced, with assertions that throw on a mismatch (and chain). */
export class SpecOutcome<S> {
  /** The domain events committed (system events left out). */
  readonly events: readonly EventDraft[];
  readonly schedules: readonly SpecSchedule[];
  readonly cancellations: readonly string[];

  constructor(
    readonly ref: AggregateRef,
    readonly command: CommandMessage,
    readonly result: CommandResult,
    readonly state: S,
    readonly pendingTimers: readonly { key: string }[],
  ) {
    this.events = result.events.filter((e) => !e.type.startsWith("wow.")).map((e) => ({ type: e.type, body: e.body }));
    this.schedules = result.events
      .filter((e) => e.type === SystemEvents.ScheduleSet)
      .map((e) => {
        const body = e.body as ScheduleSetBody;
        return { key: body.key, rule: body.rule, command: body.command, target: body.target, due: body.due };
      });
    this.cancellations = result.events.filter((e) => e.type === SystemEvents.ScheduleCancelled).map((e) => (e.body as ScheduleCancelledBody).key);
  }

  expectEvents(...expected: EventDraft[]): this {
    this.expectDecided();
    deepStrictEqual(this.events, expected.map((e) => ({ type: e.type, body: e.body })), "events");
    return this;
  }

  expectEventTypes(...types: string[]): this {
    this.expectDecided();
    deepStrictEqual(this.events.map((e) => e.type), types, "event types");
    return this;
  }

  expectNoEvents(): this {
    return this.expectEvents();
  }

  /**
   * Exactly these schedules were set (in order); a target left out is this aggregate, and a due time
   * left out is not compared: `{ key, rule, command, due: "2026-01-01T00:15:00Z" }` also checks when.
   */
  expectSchedules(...expected: ExpectedSchedule[]): this {
    this.expectDecided();
    const normal = expected.map((s) => ({
      key: s.key,
      rule: s.rule,
      command: { type: s.command.type, body: s.command.body },
      target: s.target ? { ...s.target, tenantId: s.target.tenantId ?? this.ref.tenantId } : this.ref,
      ...(s.due === undefined ? {} : { due: toEpochMs(s.due) }),
    }));
    const actual = this.schedules.map(({ due, ...schedule }, i) => (expected[i]?.due === undefined ? schedule : { ...schedule, due }));
    deepStrictEqual(actual, normal, "schedules");
    return this;
  }

  expectNoSchedules(): this {
    return this.expectSchedules();
  }

  expectCancellations(...keys: string[]): this {
    this.expectDecided();
    deepStrictEqual(this.cancellations, keys, "cancelled schedules");
    return this;
  }

  expectRejection(code?: string): this {
    if (this.result.outcome !== "rejected") fail(`expected a rejection${code ? ` (${code})` : ""}, but the command was ${this.result.outcome}`);
    if (code !== undefined) deepStrictEqual(this.result.errorCode, code, "rejection code");
    return this;
  }

  /**
   * The state after the command: equal to `expected`, or passing `expected(state)`, a function that
   * asserts (throws) or answers; an answer of `false` fails, as a predicate would be read.
   */
  expectState(expected: S | ((state: S) => boolean | void)): this {
    if (typeof expected === "function") {
      const answer = (expected as (state: S) => boolean | void)(this.state);
      ok(answer !== false, `expected the state to pass ${expected.toString().slice(0, 120)}, but it did not: ${JSON.stringify(this.state)}`);
    } else deepStrictEqual(this.state, expected, "state");
    return this;
  }

  private expectDecided(): void {
    ok(this.result.outcome === "decided", `expected the command to be decided, but it was ${this.result.outcome}: ${this.result.errorCode} ${this.result.errorMsg}`);
  }
}
