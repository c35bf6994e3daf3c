// A host's operations, from its options and `wow.runs`/`wow.log`/`wow.metrics`/`wow.alerts`: its id,
// log, metrics, alerts (hooks and webhook) and the run log's retention.
import { hostname } from "node:os";
import { randomUUID } from "node:crypto";
import type { Clock } from "../clock.js";
import type { WowConfig } from "../config/types.js";
import { PollLoop } from "../loop/poll-loop.js";
import { parseDuration } from "../model/duration.js";
import { Alerts, type AlertHooks } from "../ops/alerts.js";
import { createLogger, errorField, type Logger, type LogLevel } from "../ops/log.js";
import { HostMetrics, noMetrics, type MetricSources, type MetricsSink } from "../ops/metrics.js";
import { Webhook } from "../ops/webhook.js";
import type { RunStore } from "../store/run-store.js";

export interface HostOpsOptions extends AlertHooks {
  readonly hostId?: string;
  /** A logger of the host's own (pino's, or one with its methods); default: pino to standard output. */
  readonly logger?: Logger;
}

export interface HostOps {
  readonly host: string;
  readonly log: Logger;
  /** Undefined when `wow.metrics.enabled` is false. */
  readonly metrics: HostMetrics | undefined;
  readonly sink: MetricsSink;
  readonly alerts: Alerts;
  readonly webhook: Webhook | undefined;
  /** The run log, or undefined when `wow.runs.enabled` is false. */
  readonly runs: RunStore | undefined;
  /** Prunes the run log now and then (hourly). */
  readonly retention: PollLoop | undefined;
}

const DAY = 86_400_000;
const RETENTION_INTERVAL = 3_600_000;

/** The level when neither the config nor a logger says: `WOW_LOG__LEVEL` (what the config loader reads too), else info. */
function defaultLevel(): LogLevel {
  const level = process.env.WOW_LOG__LEVEL;
  return level === "trace" || level === "debug" || level === "info" || level === "warn" || level === "error" || level === "fatal" || level === "silent" ? level : "info";
}

export function hostOps(options: HostOpsOptions, config: WowConfig | undefined, clock: Clock, runs: RunStore, sources: MetricSources): HostOps {
  const host = options.hostId ?? `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  const wow = config?.wow;
  const log = options.logger?.child({ host }) ?? createLogger({ level: wow?.log?.level ?? defaultLevel(), clock, base: { host } });
  const metrics = wow?.metrics?.enabled === false ? undefined : new HostMetrics(() => clock.now(), sources);
  const hook = wow?.alerts?.webhook;
  const webhook =
    hook === undefined
      ? undefined
      : new Webhook({
          url: hook.url,
          secret: hook.secret,
          ...(hook.events === undefined ? {} : { events: hook.events }),
          ...(hook["max-attempts"] === undefined ? {} : { maxAttempts: hook["max-attempts"] }),
          ...(hook.timeout === undefined ? {} : { timeout: parseDuration(hook.timeout) }),
          clock,
          log,
          host,
        });
  const alerts = new Alerts(options, log, webhook);
  const runLog = wow?.runs?.enabled === false ? undefined : runs;
  const keep = wow?.runs?.keep === undefined ? 30 * DAY : parseDuration(wow.runs.keep);
  const perInstance = wow?.runs?.["per-instance"] ?? 10_000;
  const retention =
    runLog === undefined
      ? undefined
      : new PollLoop({
          name: "run log retention",
          clock,
          interval: RETENTION_INTERVAL,
          poll: async () => {
            const removed = await runLog.prune(clock.now() - keep, perInstance);
            if (removed > 0) log.info({ event: "runs.pruned", removed }, `run log: ${removed} old entries removed`);
            return {};
          },
          onError: (error) => log.error({ event: "store.error", loop: "run log retention", err: errorField(error) }, "run log retention failed"),
        });
  return { host, log, metrics, sink: metrics ?? noMetrics, alerts, webhook, runs: runLog, retention };
}
