import type { Clock } from "../clock.js";
import { Host } from "../host.js";
import type { Journal } from "../journal/journal.js";
import { MemoryJournal } from "../journal/memory-journal.js";
import type { CommandResult } from "../model/command-result.js";
import type { DurationInput } from "../model/duration.js";
import type { CommandMessage } from "../model/messages.js";
import type { AggregateRegistration, Services } from "../model/registration.js";
import type { InstantInput } from "../model/schedule-rule.js";
import type { CronNext } from "../timers/cron-next.js";
import type { TimerOptions } from "../timers/timer-options.js";
import { VirtualClock } from "./virtual-clock.js";

export interface ScheduleSpecOptions {
  readonly aggregates: readonly AggregateRegistration[];
  readonly services?: Services;
  /** The virtual clock's start (default 2026-01-01T00:00:00Z). */
  readonly start?: InstantInput;
  /** Default: a fresh MemoryJournal. */
  readonly journal?: Journal;
  readonly timers?: TimerOptions;
  readonly cronNext?: CronNext;
}

/** A scheduled command the timer service sent, and what came of it. */
export interface SentCommand {
  readonly command: CommandMessage;
  readonly at: number;
  readonly result?: CommandResult;
  readonly error?: unknown;
}

/**
 * A host (command processor + running timer service) on a virtual clock:
 *
 *     const spec = scheduleSpec({ aggregates: [order], start: "2026-10-20T00:00:00Z" });
 *     await spec.send(confirm);
 *     const sent = await spec.advanceTime("15m");   // the scheduled commands sent meanwhile
 */
export function scheduleSpec(options: ScheduleSpecOptions): ScheduleSpec {
  return new ScheduleSpec(options);
}

export class ScheduleSpec {
  readonly clock: VirtualClock;
  readonly journal: Journal;
  readonly host: Host;
  /** Every scheduled command sent so far, in order. */
  readonly sent: SentCommand[] = [];
  /** Polls that failed as a whole (a store error): `advanceTime` rethrows the first. */
  readonly errors: unknown[] = [];
  private started = false;

  constructor(options: ScheduleSpecOptions) {
    this.clock = new VirtualClock(options.start ?? "2026-01-01T00:00:00Z");
    this.journal = options.journal ?? new MemoryJournal();
    this.host = new Host({
      journal: this.journal,
      aggregates: options.aggregates,
      clock: this.clock as Clock,
      ...(options.services ? { services: options.services } : {}),
      ...(options.timers ? { timers: options.timers } : {}),
      ...(options.cronNext ? { cronNext: options.cronNext } : {}),
      onDelivery: (d) => this.sent.push({ command: d.command, at: d.sentAt, ...(d.result ? { result: d.result } : {}), ...(d.error === undefined ? {} : { error: d.error }) }),
      onError: (error) => this.errors.push(error),
    });
  }

  /** Sends a command now (starting the host on first use). */
  send(command: CommandMessage): Promise<CommandResult> {
    this.start();
    return this.host.send(command);
  }

  /** Moves the virtual clock on; returns the scheduled commands sent meanwhile. */
  async advanceTime(duration: DurationInput): Promise<SentCommand[]> {
    this.start();
    const from = this.sent.length;
    await this.clock.advanceTime(duration);
    if (this.errors.length > 0) throw this.errors[0];
    return this.sent.slice(from);
  }

  /** The scheduled commands sent so far (bodies and addresses). */
  get commands(): CommandMessage[] {
    return this.sent.map((s) => s.command);
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.host.start();
  }

  /** Stops the host ("downtime" until `start()`), e.g. to test misfires. */
  async stop(): Promise<void> {
    this.started = false;
    await this.host.stop();
  }
}
