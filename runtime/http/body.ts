import type { IncomingMessage } from "node:http";
import { HttpError } from "./http-error.js";

export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** Reads a JSON object body (empty → `{}`), at most `limit` bytes: 413 beyond, 400 for anything but a JSON object. */
export async function readJsonObject(req: IncomingMessage, limit: number): Promise<Record<string, unknown>> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    throw new HttpError(413, "PayloadTooLarge", `the body is larger than ${limit} bytes`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      req.resume();
      throw new HttpError(413, "PayloadTooLarge", `the body is larger than ${limit} bytes`);
    }
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString("utf8").trim();
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
