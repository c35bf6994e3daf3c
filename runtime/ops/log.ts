// The host's structured log: JSON lines through pino (`wow.log.level`, default info), one per job
// run, park, re-drive, admin action, lease change and store error, with the ids that join them
// (command id, request id, causation). A host that has a logger of its own passes it (pino's, or
// anything with these methods).
import { pino } from "pino";
import type { Clock } from "../clock.js";

export type LogLevel = "trace" | "debug" | "info" | "warn" | "error" | "fatal" | "silent";
export const LOG_LEVELS: readonly LogLevel[] = ["trace", "debug", "info", "warn", "error", "fatal", "silent"];

type LogFn = (fields: Record<string, unknown>, message: string) => void;

/** What the runtime logs through: pino's shape (a pino logger is one). */
export interface Logger {
  debug: LogFn;
  info: LogFn;
  warn: LogFn;
  error: LogFn;
  isLevelEnabled(level: string): boolean;
  child(bindings: Record<string, unknown>): Logger;
}

export interface LoggerOptions {
  readonly level?: LogLevel;
  readonly clock: Clock;
  /** Fields on every line (the host's id). */
  readonly base?: Record<string, unknown>;
  /** Where lines go (default: standard output). */
  readonly destination?: { write(line: string): void };
}

/** A pino logger writing JSON lines with the level's name and the host clock's time. */
export function createLogger(options: LoggerOptions): Logger {
  const settings = {
    level: options.level ?? "info",
    base: options.base ?? {},
    // The host's clock: a test kit's line carries its virtual time.
    timestamp: () => `,"time":"${new Date(options.clock.now()).toISOString()}"`,
    formatters: { level: (label: string) => ({ level: label }) },
  };
  return (options.destination === undefined ? pino(settings) : pino(settings, options.destination)) as Logger;
}

/** Nothing logged. */
export const silentLogger: Logger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
  isLevelEnabled: () => false,
  child: () => silentLogger,
};

/** An error as a log field: its name, message and stack (pino's `err` shape). */
export function errorField(error: unknown): Record<string, unknown> {
  if (error instanceof Error) return { type: error.name, message: error.message, ...(error.stack ? { stack: error.stack } : {}) };
  return { message: String(error) };
}
