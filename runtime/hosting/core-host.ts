// The smallest runnable host: a command processor and a timer service over one store.
import { systemClock, type Clock } from "../clock.js";
import type { CronNext } from "../cron/cron-next.js";
import type { CommandResult } from "../model/command-result.js";
import type { CommandMessage } from "../model/messages.js";
import type { AggregateRegistration, Services } from "../model/registration.js";
import { SystemEvents, type ScheduleSetBody } from "../model/system-events.js";
import { CommandProcessor } from "../processing/command-processor.js";
import { AggregateRegistry } from "../processing/registry.js";
import type { RunStore } from "../store/run-store.js";
import type { Store } from "../store/store.js";
import { TimerService, type Delivery, type LostClaim } from "../timers/timer-service.js";
import type { TimerOptions } from "../timers/timer-options.js";

export interface HostOptions {
  readonly store: Store;
  readonly aggregates: readonly AggregateRegistration[];
  readonly services?: Services;
  readonly clock?: Clock;
  readonly timers?: TimerOptions & { readonly owner?: string };
  readonly maxConflictRetries?: number;
  readonly newId?: () => string;
  readonly cronNext?: CronNext;
  readonly onDelivery?: (delivery: Delivery) => void;
  /** Timer slots whose claim this host lost before writing them (see TimerService). */
  readonly onLost?: (lost: readonly LostClaim[]) => void;
  /** Where each delivery attempt is recorded (the run log). */
  readonly attempts?: RunStore;
  readonly onError?: (error: unknown) => void;
}

export class Host {
  readonly clock: Clock;
  readonly store: Store;
  readonly registry: AggregateRegistry;
  readonly processor: CommandProcessor;
  readonly timers: TimerService;

  constructor(options: HostOptions) {
    this.clock = options.clock ?? systemClock;
    this.store = options.store;
    this.registry = new AggregateRegistry(options.aggregates);
    this.processor = new CommandProcessor({
      events: options.store.events,
      registry: this.registry,
      clock: this.clock,
      ...(options.services ? { services: options.services } : {}),
      ...(options.maxConflictRetries === undefined ? {} : { maxConflictRetries: options.maxConflictRetries }),
      ...(options.newId ? { newId: options.newId } : {}),
      ...(options.cronNext ? { cronNext: options.cronNext } : {}),
    });
    const store = options.store;
    this.timers = new TimerService({
      ...options.timers,
      timers: store.timers,
      events: store.events,
      processor: this.processor,
      registry: this.registry,
      clock: this.clock,
      idle: async () => this.store.idle?.(),
      ...(options.cronNext ? { cronNext: options.cronNext } : {}),
      ...(options.onDelivery ? { onDelivery: options.onDelivery } : {}),
      ...(options.onLost ? { onLost: options.onLost } : {}),
      ...(options.attempts ? { attempts: options.attempts } : {}),
      ...(options.onError ? { onError: options.onError } : {}),
    });
  }

  /** Decides a command; a timer its commit set wakes this host's poller if it is due before the poller would look. */
  async send(command: CommandMessage): Promise<CommandResult> {
    const result = await this.processor.send(command);
    for (const event of result.events) if (event.type === SystemEvents.ScheduleSet) this.timers.wakeBy((event.body as ScheduleSetBody).due);
    return result;
  }

  start(): void {
    this.timers.start();
  }

  async stop(): Promise<void> {
    await this.timers.stop();
  }
}
