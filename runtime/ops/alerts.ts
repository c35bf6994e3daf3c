// Alerts: a host's hooks (`onJobFailed`, `onParked`) and its webhook hear of every failed job run
// (retrying, failed or parked) and every parked timer or event. The hooks are called at once; the
// webhook posts from a queue of its own, so a slow or dead receiver never holds a delivery up.
import type { JobRun } from "../store/run-store.js";
import type { Logger } from "./log.js";
import { errorField } from "./log.js";
import type { Webhook } from "./webhook.js";

export const ALERT_TYPES = ["job.failed", "timer.parked", "event.parked"] as const;
export type AlertType = (typeof ALERT_TYPES)[number];

/** A parked timer as an alert tells it. */
export interface ParkedTimerAlert {
  readonly kind: "timer";
  readonly id: string;
  readonly slot: number;
  readonly due: number;
  readonly command: string;
  readonly commandId: string;
  readonly target: { readonly context: string; readonly aggregate: string; readonly id: string; readonly tenantId: string };
  readonly attempts: number;
  readonly error: string;
}

/** A parked subscription event as an alert tells it. */
export interface ParkedEventAlert {
  readonly kind: "event";
  readonly id: string;
  readonly subscription: string;
  readonly position: number;
  readonly eventId: string;
  readonly eventType: string;
  readonly aggregate: { readonly context: string; readonly aggregate: string; readonly id: string; readonly tenantId: string };
  readonly attempts: number;
  readonly error: string;
}

export type ParkedAlert = ParkedTimerAlert | ParkedEventAlert;

export interface AlertHooks {
  /** A job's run failed: its handler threw or timed out (`retrying`, or `parked` after the last attempt), or a command it sent was refused (`failed`). */
  readonly onJobFailed?: (run: JobRun) => void;
  /** A timer or an event was parked after its last attempt: it waits for an operator. */
  readonly onParked?: (parked: ParkedAlert) => void;
}

export class Alerts {
  constructor(
    private readonly hooks: AlertHooks,
    private readonly log: Logger,
    private readonly webhook: Webhook | undefined,
  ) {}

  jobFailed(run: JobRun): void {
    this.call("onJobFailed", () => this.hooks.onJobFailed?.(run));
    this.webhook?.send("job.failed", { run });
  }

  parked(parked: ParkedAlert): void {
    this.call("onParked", () => this.hooks.onParked?.(parked));
    this.webhook?.send(parked.kind === "timer" ? "timer.parked" : "event.parked", { parked });
  }

  /** Stops the webhook's queue (what it holds is logged as not sent). */
  stop(): Promise<void> {
    return this.webhook?.stop() ?? Promise.resolve();
  }

  /** A hook that throws is the host's code failing: logged, never the delivery's failure. */
  private call(hook: string, fn: () => void): void {
    try {
      fn();
    } catch (error) {
      this.log.error({ event: "alert.hook-failed", hook, err: errorField(error) }, `${hook} threw`);
    }
  }
}
