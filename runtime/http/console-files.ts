// The operator console's static files (built by `npm run build` into dist/console), served by the
// host at `wow.http.console.path` (default /wow/console) without a credential: the files hold no
// data, and every call the pages make needs one. The files are read once, into memory: a request
// names one of them or nothing, so no path from a URL ever reaches the file system.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { extname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { IncomingMessage, ServerResponse } from "node:http";
import { ErrorCodes } from "../model/errors.js";
import { HttpError } from "./http-error.js";

export const DEFAULT_CONSOLE_PATH = "/wow/console";

/** The routes of the API under /wow: a console path there must not hide one. */
const API_NAMES = ["health", "ready", "jobs", "timers", "parked", "metrics", "routes", "overview", "cron", "aggregates", "session"];

const TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
};

/** Its own files only: no inline script, no request to another origin, no framing. */
const SECURITY_HEADERS = {
  "content-security-policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
};

interface ConsoleFile {
  readonly body: Buffer;
  readonly type: string;
  /** Vite names the bundle's assets by their content: cached for good. */
  readonly immutable: boolean;
}

/** Where the built console is: the package's dist/console, from the sources or from dist itself. */
function builtFolder(): string | undefined {
  for (const candidate of ["../../dist/console/", "../../console/"]) {
    const dir = fileURLToPath(new URL(candidate, import.meta.url));
    if (existsSync(join(dir, "manifest.json"))) return dir;
  }
  return undefined;
}

function readFiles(dir: string): Map<string, ConsoleFile> {
  const files = new Map<string, ConsoleFile>();
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path);
      else {
        const rel = relative(dir, path).split(sep).join("/");
        files.set(rel, { body: readFileSync(path), type: TYPES[extname(name)] ?? "application/octet-stream", immutable: rel.startsWith("assets/") });
      }
    }
  };
  walk(dir);
  return files;
}

export interface ConsoleOptions {
  readonly enabled?: boolean;
  readonly path?: string;
  /** The built console's folder (default: the package's). */
  readonly folder?: string;
}

/** A console path: absolute, plain segments, not the API's own routes. Throws a teaching Error otherwise. */
export function checkConsolePath(path: string): string {
  if (!/^(\/[A-Za-z0-9._~-]+)+$/.test(path)) throw new Error(`wow.http.console.path ${JSON.stringify(path)}: expected an absolute path of plain segments, such as "/wow/console" or "/ops"`);
  const [first, second] = path.slice(1).split("/");
  if (first === "wow" && second !== undefined && API_NAMES.includes(second)) throw new Error(`wow.http.console.path ${JSON.stringify(path)} would hide the API's /wow/${second} routes: choose another, such as "/wow/console"`);
  return path;
}

export type ConsoleServer = (req: IncomingMessage, res: ServerResponse) => boolean;

/** Serves the console's files under its path; answers false for any other request (the API's). */
export function consoleServer(options: ConsoleOptions = {}): ConsoleServer | undefined {
  if (options.enabled === false) return undefined;
  const base = checkConsolePath(options.path ?? DEFAULT_CONSOLE_PATH);
  const folder = options.folder ?? builtFolder();
  const files = folder === undefined || !existsSync(folder) ? undefined : readFiles(folder);
  return (req, res) => {
    const url = req.url ?? "/";
    if (!url.startsWith(base)) return false;
    const path = url.split("?")[0]!;
    if (path !== base && !path.startsWith(`${base}/`)) return false;
    if (req.method !== "GET" && req.method !== "HEAD") throw new HttpError(405, "MethodNotAllowed", "the console's files are read with GET");
    if (files === undefined) throw new HttpError(404, ErrorCodes.NotFound, "the console is not built in this installation: `npm run build` writes it into dist/console");
    // The pages' links are relative to the folder: `/wow/console` is sent on to `/wow/console/`.
    if (path === base) {
      res.writeHead(308, { location: `${base}/`, "content-length": 0 });
      res.end();
      return true;
    }
    const name = path.slice(base.length + 1) || "index.html";
    const file = files.get(name);
    if (file === undefined || name === "manifest.json") throw new HttpError(404, ErrorCodes.NotFound, `the console has no file ${JSON.stringify(name.slice(0, 100))}`);
    res.writeHead(200, {
      ...SECURITY_HEADERS,
      "content-type": file.type,
      "content-length": file.body.length,
      "cache-control": file.immutable ? "public, max-age=31536000, immutable" : "no-cache",
    });
    res.end(req.method === "HEAD" ? undefined : file.body);
    return true;
  };
}
