import { systemClock, type Clock } from "./clock.js";
import type { Journal } from "./journal/journal.js";
import type { CommandResult } from "./model/command-result.js";
import type { CommandMessage } from "./model/messages.js";
import { SystemEvents } from "./model/system-events.js";
import type { AggregateRegistration, Services } from "./model/registration.js";
import { BatchDecider } from "./processing/batch-decider.js";
import { CommandProcessor, DEFAULT_CONFLICT_RETRIES, type CommandSender } from "./processing/command-processor.js";
import type { CronNext } from "./timers/cron-next.js";
import { TimerService, type Delivery } from "./timers/timer-service.js";
import type { TimerOptions } from "./timers/timer-options.js";

export interface HostOptions {
  readonly journal: Journal;
  readonly aggregates: readonly AggregateRegistration[];
  readonly services?: Services;
  readonly clock?: Clock;
  readonly timers?: TimerOptions & { readonly owner?: string };
  readonly maxConflictRetries?: number;
  readonly newId?: () => string;
  readonly cronNext?: CronNext;
  /** Wraps what the timer service sends through (tests record or fail deliveries here). */
  readonly timerSend?: (send: CommandSender) => CommandSender;
  readonly onDelivery?: (delivery: Delivery) => void;
  readonly onError?: (error: unknown) => void;
}

/** A command processor and a timer service over one journal: the smallest runnable host. */
export class Host {
  readonly clock: Clock;
  readonly journal: Journal;
  readonly processor: CommandProcessor;
  readonly timers: TimerService;

  constructor(options: HostOptions) {
    this.clock = options.clock ?? systemClock;
    this.journal = options.journal;
    this.processor = new CommandProcessor({
      journal: options.journal,
      aggregates: options.aggregates,
      clock: this.clock,
      ...(options.services ? { services: options.services } : {}),
      ...(options.maxConflictRetries === undefined ? {} : { maxConflictRetries: options.maxConflictRetries }),
      ...(options.newId ? { newId: options.newId } : {}),
      ...(options.cronNext ? { cronNext: options.cronNext } : {}),
    });
    const send = options.timerSend ? options.timerSend(this.processor.send) : this.processor.send;
    this.timers = new TimerService({
      ...options.timers,
      journal: options.journal,
      clock: this.clock,
      send,
      // The set-based batch path decides without `send`, so only where `send` is not wrapped.
      ...(options.timerSend ? {} : { batch: this.batchDecider(options) }),
      ...(options.cronNext ? { cronNext: options.cronNext } : {}),
      ...(options.onDelivery ? { onDelivery: options.onDelivery } : {}),
      ...(options.onError ? { onError: options.onError } : {}),
    });
  }

  /** The timer service's set-based path; a batch's refused commit retries through a processor with one conflict retry fewer. */
  private batchDecider(options: HostOptions): BatchDecider {
    const maxConflictRetries = Math.max(0, (options.maxConflictRetries ?? DEFAULT_CONFLICT_RETRIES) - 1);
    const afterConflict = new CommandProcessor({ ...options, clock: this.clock, maxConflictRetries }).send;
    return new BatchDecider({ ...options, clock: this.clock, afterConflict });
  }

  /** Decides a command; a commit that set a timer wakes this node's poller (other nodes find it by polling). */
  async send(command: CommandMessage): Promise<CommandResult> {
    const result = await this.processor.send(command);
    if (result.events.some((e) => e.type === SystemEvents.ScheduleSet)) this.timers.wake();
    return result;
  }

  start(): void {
    this.timers.start();
  }

  async stop(): Promise<void> {
    await this.timers.stop();
  }
}
