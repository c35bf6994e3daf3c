// `Command-Wait-Stage` and `Command-Wait-Timeout`: how far a command's processing goes before the
// API answers. Commands are decided in the request, so PROCESSED (and SENT, which it passes) come at
// once; EVENT_HANDLED and SAGA_HANDLED wait until this host's subscriptions (every one, or the sagas'
// event handlers) have handled the command's events, up to the timeout; the answer's `stage` says
// what was reached. This runtime keeps no snapshots or projections: SNAPSHOT and PROJECTED are refused.
import type { IncomingMessage } from "node:http";
import type { CommandResult } from "../model/command-result.js";
import { ErrorCodes } from "../model/errors.js";
import type { HttpHost } from "./host-api.js";
import { header, Headers } from "./command-handler.js";
import { HttpError } from "./http-error.js";

export type WaitStage = "SENT" | "PROCESSED" | "EVENT_HANDLED" | "SAGA_HANDLED";

const SUPPORTED: readonly WaitStage[] = ["SENT", "PROCESSED", "EVENT_HANDLED", "SAGA_HANDLED"];

/** How long a wait for handlers lasts without `Command-Wait-Timeout`. */
export const DEFAULT_WAIT_TIMEOUT_MS = 10_000;
const MAX_WAIT_TIMEOUT_MS = 300_000;

export interface WaitRequest {
  readonly stage: WaitStage;
  readonly timeoutMs: number;
}

/** The wait a request asks for (default PROCESSED); a stage or timeout it cannot have is a 400. */
export function waitRequestOf(req: IncomingMessage): WaitRequest {
  const stageText = header(req, Headers.WaitStage)?.trim().toUpperCase() ?? "PROCESSED";
  if (stageText === "SNAPSHOT" || stageText === "PROJECTED") {
    throw new HttpError(400, ErrorCodes.IllegalArgument, `Command-Wait-Stage ${stageText}: this runtime keeps no snapshots or projections; wait for ${SUPPORTED.join(", ")}`);
  }
  if (!(SUPPORTED as readonly string[]).includes(stageText)) {
    throw new HttpError(400, ErrorCodes.IllegalArgument, `Command-Wait-Stage ${JSON.stringify(stageText.slice(0, 40))} is not a stage: use ${SUPPORTED.join(", ")}`);
  }
  const timeoutText = header(req, Headers.WaitTimeout);
  let timeoutMs = DEFAULT_WAIT_TIMEOUT_MS;
  if (timeoutText !== undefined) {
    timeoutMs = /^\d{1,9}$/.test(timeoutText.trim()) ? Number(timeoutText.trim()) : NaN;
    if (!(timeoutMs >= 1 && timeoutMs <= MAX_WAIT_TIMEOUT_MS)) {
      throw new HttpError(400, ErrorCodes.IllegalArgument, `Command-Wait-Timeout must be milliseconds from 1 to ${MAX_WAIT_TIMEOUT_MS}`);
    }
  }
  return { stage: stageText as WaitStage, timeoutMs };
}

/** Waits for the stage after the command was processed; returns the stage reached. */
export async function awaitStage(host: HttpHost, wait: WaitRequest, result: CommandResult): Promise<WaitStage> {
  if (wait.stage === "SENT" || wait.stage === "PROCESSED") return "PROCESSED";
  const last = Math.max(0, ...result.events.map((event) => event.position ?? 0));
  if (result.outcome !== "decided" || last === 0) return wait.stage; // nothing for a handler to handle
  return (await host.waitForHandlers(last, wait.stage === "SAGA_HANDLED", wait.timeoutMs, result.events)) ? wait.stage : "PROCESSED";
}
