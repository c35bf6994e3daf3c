import type { IncomingMessage } from "node:http";
import { HttpError } from "./http-error.js";

export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** JSON, in UTF-8: `application/json` or a `+json` type, without a charset or with utf-8. */
const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;\s*charset\s*=\s*"?utf-8"?\s*)?$/i;

/** The client went away before its request was read: not the server's fault, and nobody to answer. */
export class ClientAbortedError extends Error {
  constructor(cause: unknown) {
    super("the client closed the connection before its request was read", { cause });
    this.name = "ClientAbortedError";
  }
}

/**
 * Reads a JSON object body (empty → `{}`), at most `limit` bytes: 413 beyond, 415 for a body that is
 * not declared JSON, 400 for anything but a JSON object.
 */
export async function readJsonObject(req: IncomingMessage, limit: number): Promise<Record<string, unknown>> {
  const declared = Number(req.headers["content-length"]);
  const hasBody = req.headers["transfer-encoding"] !== undefined || (Number.isFinite(declared) && declared > 0);
  if (hasBody && !JSON_TYPE.test(req.headers["content-type"] ?? "")) {
    req.resume();
    const given = req.headers["content-type"];
    throw new HttpError(415, "UnsupportedMediaType", `the body must be JSON (Content-Type: application/json), got ${given === undefined ? "no Content-Type" : JSON.stringify(given.slice(0, 80))}`);
  }
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    throw new HttpError(413, "PayloadTooLarge", `the body is larger than ${limit} bytes`);
  }
  const text = (await readText(req, limit)).trim();
  if (text === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new HttpError(400, "IllegalArgument", `the body is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new HttpError(400, "IllegalArgument", `the body must be a JSON object, got ${Array.isArray(value) ? "an array" : value === null ? "null" : typeof value}`);
  }
  return value as Record<string, unknown>;
}

/**
 * The body as UTF-8 text, by the stream's own events (an async iterator costs several objects and
 * turns per request): 413 once it passes `limit`, ClientAbortedError if the client goes away first.
 */
function readText(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    if (req.destroyed) return reject(new ClientAbortedError(new Error("the connection closed before the body was read")));
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      done();
      req.resume();
      reject(new HttpError(413, "PayloadTooLarge", `the body is larger than ${limit} bytes`));
    };
    const onEnd = () => {
      done();
      resolve(chunks.length === 1 ? chunks[0]!.toString("utf8") : Buffer.concat(chunks).toString("utf8"));
    };
    const onAbort = (error?: unknown) => {
      done();
      reject(new ClientAbortedError(error ?? new Error("the connection closed before the body ended")));
    };
    const onClose = () => {
      if (!req.complete) onAbort();
    };
    const done = () => {
      req.off("data", onData).off("end", onEnd).off("error", onAbort).off("close", onClose);
    };
    req.on("data", onData).on("end", onEnd).on("error", onAbort).on("close", onClose);
  });
}
