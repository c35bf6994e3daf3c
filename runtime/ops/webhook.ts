// The alert webhook (`wow.alerts.webhook`): each alert POSTed as JSON, signed with the shared secret
// (`Wow-Signature: t=<epoch ms>,v1=<hex HMAC-SHA256 of "<t>.<body>">`), retried with backoff on a
// network error, a timeout, a 5xx, 408 or 429, from a queue of its own: a receiver that is down
// never holds a delivery up. Alerts live in memory: the run log is their durable record.
import { createHmac, randomUUID } from "node:crypto";
import type { Clock } from "../clock.js";
import { backoffDelay } from "../model/backoff.js";
import type { Backoff } from "../model/option-values.js";
import { errorField, type Logger } from "./log.js";

export interface WebhookOptions {
  readonly url: string;
  /** The alert types it gets (`job.failed`, `timer.parked`, `event.parked`; default: every one). */
  readonly events?: readonly string[];
  readonly secret: string;
  /** Attempts per alert (default 8). */
  readonly maxAttempts?: number;
  /** How long one POST may take (default 10 s). */
  readonly timeout?: number;
  readonly backoff?: Backoff;
  /** Alerts held at most; beyond, the oldest is dropped and logged (default 10,000). */
  readonly queueLimit?: number;
  readonly clock: Clock;
  readonly log: Logger;
  /** On every body (the host's id). */
  readonly host: string;
}

interface Pending {
  readonly id: string;
  readonly type: string;
  readonly body: string;
  attempts: number;
}

const DEFAULT_BACKOFF: Backoff = { initial: 1_000, factor: 2, max: 300_000 };

/** The signature header's value for `body` sent at `t`. */
export function webhookSignature(secret: string, t: number, body: string): string {
  return `t=${t},v1=${createHmac("sha256", secret).update(`${t}.${body}`).digest("hex")}`;
}

export class Webhook {
  private readonly queue: Pending[] = [];
  private readonly stopping = new AbortController();
  private worker: Promise<void> | undefined;
  /** While waiting out a backoff: when the next attempt goes (epoch ms on the clock). */
  private retryAt: number | undefined;
  private readonly events: ReadonlySet<string> | undefined;

  constructor(private readonly options: WebhookOptions) {
    this.events = options.events === undefined ? undefined : new Set(options.events);
  }

  /** Queues the alert; returns at once. */
  send(type: string, payload: Record<string, unknown>): void {
    if (this.stopping.signal.aborted || (this.events !== undefined && !this.events.has(type))) return;
    const id = randomUUID();
    const body = JSON.stringify({ id, type, at: new Date(this.options.clock.now()).toISOString(), host: this.options.host, ...payload });
    this.queue.push({ id, type, body, attempts: 0 });
    if (this.queue.length > (this.options.queueLimit ?? 10_000)) {
      const dropped = this.queue.shift()!;
      this.options.log.warn({ event: "alert.dropped", alert: dropped.id, type: dropped.type }, "alert queue full: the oldest alert was dropped");
    }
    this.worker ??= this.drain().finally(() => (this.worker = undefined));
  }

  /** What it holds: alerts queued, and when the next retry goes if it is waiting out a backoff. */
  pending(): { readonly queued: number; readonly retryAt?: number } {
    return this.retryAt === undefined ? { queued: this.queue.length } : { queued: this.queue.length, retryAt: this.retryAt };
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    await this.worker;
    if (this.queue.length > 0) this.options.log.warn({ event: "alert.unsent", count: this.queue.length }, "alerts not sent at stop");
  }

  private async drain(): Promise<void> {
    const signal = this.stopping.signal;
    while (this.queue.length > 0 && !signal.aborted) {
      const alert = this.queue[0]!;
      alert.attempts++;
      const outcome = await this.post(alert);
      if (outcome === "sent" || outcome === "refused" || alert.attempts >= (this.options.maxAttempts ?? 8)) {
        this.queue.shift();
        if (outcome !== "sent") this.options.log.error({ event: "alert.failed", alert: alert.id, type: alert.type, attempts: alert.attempts }, "alert webhook gave up");
        continue;
      }
      const delay = backoffDelay(alert.attempts, this.options.backoff ?? DEFAULT_BACKOFF);
      this.retryAt = this.options.clock.now() + delay;
      await this.options.clock.sleep(delay, signal);
      this.retryAt = undefined;
    }
  }

  private async post(alert: Pending): Promise<"sent" | "retry" | "refused"> {
    const t = this.options.clock.now();
    try {
      const response = await fetch(this.options.url, {
        method: "POST",
        headers: { "content-type": "application/json", "wow-signature": webhookSignature(this.options.secret, t, alert.body), "wow-alert-id": alert.id, "wow-alert-attempt": String(alert.attempts) },
        body: alert.body,
        signal: AbortSignal.any([AbortSignal.timeout(this.options.timeout ?? 10_000), this.stopping.signal]),
      });
      await response.arrayBuffer().catch(() => undefined);
      if (response.ok) return "sent";
      const retry = response.status >= 500 || response.status === 408 || response.status === 429;
      this.options.log.warn({ event: "alert.refused", alert: alert.id, status: response.status, attempt: alert.attempts }, `alert webhook answered ${response.status}`);
      return retry ? "retry" : "refused";
    } catch (error) {
      this.options.log.warn({ event: "alert.unreachable", alert: alert.id, attempt: alert.attempts, err: errorField(error) }, "alert webhook unreachable");
      return "retry";
    }
  }
}
