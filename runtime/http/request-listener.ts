// The HTTP API as a Node request listener `(req, res)`: mount it in `http.createServer`, Express
// (`app.use(listener)`), Fastify (`fastify.all("/*", (rq, rp) => listener(rq.raw, rp.raw))`) or Koa
// (`ctx.respond = false; listener(ctx.req, ctx.res)`). Every call needs a bearer credential.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { HttpConfig, HttpCredential } from "../config/types.js";
import { DEFAULT_TENANT } from "../model/aggregate-ref.js";
import type { CommandResult } from "../model/command-result.js";
import { ErrorCodes, UndeclaredOutputError } from "../model/errors.js";
import { StoreDamagedError } from "../store/errors.js";
import type { CommandMessage } from "../model/messages.js";
import type { HttpHost } from "./host-api.js";
import { listJobs, listParked, listTimers, redriveEvent, redriveTimer, scheduleCommand, type Reply } from "./admin-handler.js";
import { health, hosts, jobDetail, jobRuns, latenessMinutes, metrics, ready, timerAttempts, type TextReply } from "./ops-handler.js";
import { cronPreview } from "./cron-preview.js";
import { overview } from "./overview.js";
import { aggregateView } from "./aggregate-view.js";
import { credentialsOf, requireTenant } from "./auth.js";
import { ClientAbortedError, DEFAULT_BODY_LIMIT, readJsonObject } from "./body.js";
import { bodyCheck } from "./body-schema.js";
import { checkId, handleCommand, Headers } from "./command-handler.js";
import { awaitStage, waitRequestOf } from "./wait-stage.js";
import { HttpError } from "./http-error.js";
import { commandRoutes, routeKey, routeTable } from "./routes.js";
import { consoleServer } from "./console-files.js";

export type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

export interface HttpOptions {
  /** `wow.http` of the config. */
  readonly config?: HttpConfig;
  /** Credentials in addition to the config's. */
  readonly credentials?: readonly HttpCredential[];
  readonly bodyLimit?: number;
  /** Called for each 5xx (a server fault); default: console.error. */
  readonly onServerError?: (error: unknown) => void;
  /** Called for a request whose client went away before it was read (nothing to answer; not a fault). */
  readonly onClientAbort?: (error: unknown) => void;
  /** The built console's folder, instead of the package's (`wow.http.console` turns it off or moves it). */
  readonly consoleFolder?: string;
}

// `#` arrives only percent-encoded (`%23`): it names a sharded job's instance, `shards#0`. Ids
// elsewhere refuse it (checkId).
const SEGMENT = /^[A-Za-z0-9._~:@!$'()*+,;=#-]+$/;

/** Splits a request path into decoded segments; path tricks (`..`, empty or encoded slashes, control characters) are a 400. */
export function pathSegments(url: string | undefined): string[] {
  const raw = (url ?? "/").split("?")[0]!;
  if (!raw.startsWith("/") || raw.length > 2048) throw new HttpError(400, ErrorCodes.IllegalArgument, "bad request path");
  const parts = raw.slice(1).split("/");
  if (parts.length > 0 && parts[parts.length - 1] === "") parts.pop();
  return parts.map((part) => {
    let decoded = part;
    if (part.includes("%")) {
      try {
        decoded = decodeURIComponent(part);
      } catch {
        throw new HttpError(400, ErrorCodes.IllegalArgument, "bad percent-encoding in the path");
      }
    }
    if (decoded === "" || decoded === "." || decoded === ".." || !SEGMENT.test(decoded)) {
      throw new HttpError(400, ErrorCodes.IllegalArgument, `bad path segment ${JSON.stringify(decoded.slice(0, 60))}`);
    }
    return decoded;
  });
}

export function createRequestListener(host: HttpHost, options: HttpOptions = {}): RequestListener {
  const credentials = credentialsOf([...(options.config?.credentials ?? []), ...(options.credentials ?? [])], options.credentials ? "createHost's http.credentials and the configuration" : "the configuration");
  const bodyLimit = options.bodyLimit ?? options.config?.["body-limit"] ?? DEFAULT_BODY_LIMIT;
  const onServerError = options.onServerError ?? ((error: unknown) => console.error("wow.http: server error", error));
  const onClientAbort = options.onClientAbort ?? (() => {});
  const routes = routeTable(host.aggregates);
  const consoleConfig = options.config?.console;
  const serveConsole = consoleServer({ ...consoleConfig, ...(options.consoleFolder === undefined ? {} : { folder: options.consoleFolder }) });

  const dispatch = async (req: IncomingMessage): Promise<Reply | TextReply> => {
    const method = req.method ?? "GET";
    const segments = pathSegments(req.url);
    const [first, second, third, fourth] = segments;
    // Probes of orchestrators and load balancers: no credential, and nothing but the verdict.
    if (method === "GET" && first === "wow" && segments.length === 2 && second === "health") return health();
    if (method === "GET" && first === "wow" && segments.length === 2 && second === "ready") return ready(host);
    const principal = credentials.authenticate(req);
    const body = method === "GET" || method === "HEAD" ? {} : await readJsonObject(req, bodyLimit);
    if (first === "wow") {
      const listed = (name: string) => method === "GET" && segments.length === 2 && second === name;
      if (listed("jobs")) return listJobs(host, principal, req.url);
      if (listed("timers")) return listTimers(host, principal, req.url);
      if (listed("parked")) return listParked(host, principal, req.url);
      if (listed("metrics")) return metrics(host, principal, req.url);
      if (listed("hosts")) return hosts(host, principal, req.url);
      if (method === "GET" && segments.length === 3 && second === "metrics" && third === "lateness") return latenessMinutes(host, principal, req.url);
      if (method === "GET" && segments.length === 4 && second === "jobs" && fourth === "runs") return jobRuns(host, principal, third!, req.url);
      if (method === "GET" && segments.length === 3 && second === "jobs") return jobDetail(host, principal, third!, req.url);
      if (listed("overview")) return overview(host, principal, req.url);
      // Who the credential is, for a page to show (and to learn, at sign-in, whether it is known).
      if (listed("session")) return { status: 200, body: { name: principal.name, ...(principal.tenant === undefined ? {} : { tenant: principal.tenant }) } };
      if (method === "GET" && segments.length === 3 && second === "cron" && third === "preview") return cronPreview(host.clock, req.url);
      if (method === "GET" && segments.length === 6 && second === "aggregates") return aggregateView(host, principal, segments.slice(2), req.url);
      if (method === "GET" && segments.length === 4 && second === "timers" && fourth === "attempts") return timerAttempts(host, principal, checkId("timer id", third!), req.url);
      if (method === "GET" && segments.length === 2 && second === "routes") return { status: 200, body: { routes: commandRoutes(host.aggregates).map(({ method: m, path, type }) => ({ method: m, path, type })) } };
      if (method === "POST" && segments.length === 5 && second === "parked" && segments[4] === "redrive") {
        if (third === "timers") return redriveTimer(host, principal, checkId("timer id", fourth!));
        if (third === "events") return redriveEvent(host, principal, checkId("parked event id", fourth!));
      }
      throw new HttpError(404, ErrorCodes.NotFound, `no route ${method} ${req.url?.slice(0, 100)}`);
    }
    if (segments.length === 4 && second === "schedule") {
      if (method !== "POST") throw new HttpError(405, "MethodNotAllowed", "schedule commands are POST");
      const tenant = req.headers[Headers.TenantId];
      return scheduleCommand(host, principal, first!, third!, fourth!, typeof tenant === "string" ? checkId("Command-Tenant-Id", tenant) : undefined, body);
    }
    const route = routes.get(routeKey(method, segments, false)) ?? routes.get(routeKey(method, segments, true));
    if (!route || second !== "tenant") throw new HttpError(404, ErrorCodes.NotFound, `no route ${method} ${req.url?.slice(0, 100)}`);
    const tenantId = checkId("tenant id", third ?? DEFAULT_TENANT);
    requireTenant(principal, tenantId);
    const pathId = route.create ? undefined : checkId("aggregate id", segments[4]!);
    const decoded = route.bodySchema === undefined ? body : bodyCheck(route.bodySchema)(body);
    const wait = waitRequestOf(req);
    try {
      let processed: CommandResult | undefined;
      const send = async (command: CommandMessage) => (processed = await host.send(command));
      const { status, result, errorCode } = await handleCommand(req, route, tenantId, pathId, decoded, send);
      const stage = processed === undefined ? "PROCESSED" : await awaitStage(host, wait, processed);
      result.stage = stage;
      return { status, body: result, errorCode };
    } catch (error) {
      // Without a body schema nothing checked the body, so a handler that throws on a body it did not
      // expect blames the body. With one, the body fitted its declaration: a handler's TypeError (a
      // failed fetch, a bug) is a technical failure, a 500 that is logged, never the client's 400.
      if (route.bodySchema === undefined && (error instanceof TypeError || error instanceof RangeError || error instanceof SyntaxError)) {
        throw new HttpError(400, ErrorCodes.CommandValidation, `the command's body does not fit ${route.type}: ${error.message}`);
      }
      throw error;
    }
  };

  return (req, res) => {
    let served: Promise<Reply | TextReply | undefined>;
    try {
      // The console's files need no credential (they hold no data); its pages' calls do.
      served = serveConsole?.(req, res) === true ? Promise.resolve(undefined) : dispatch(req);
    } catch (error) {
      served = Promise.reject(error);
    }
    served
      .then((reply) => {
        if (reply === undefined) return;
        if ("text" in reply) return respondText(req, res, reply);
        respond(req, res, reply.status, reply.body, reply.errorCode ?? (reply.status < 400 ? ErrorCodes.Ok : undefined));
      })
      .catch((error: unknown) => {
        if (error instanceof ClientAbortedError) return onClientAbort(error);
        if (error instanceof HttpError) {
          const details = typeof error.details === "object" && error.details !== null ? error.details : {};
          respond(req, res, error.status, { ...details, errorCode: error.code, errorMsg: error.message, succeeded: false }, error.code);
          if (error.status === 413) res.once("finish", () => req.destroy());
          return;
        }
        onServerError(error);
        // A handler that broke its declaration: a fault of the server's code, named for the caller too.
        if (error instanceof UndeclaredOutputError) respond(req, res, 500, { errorCode: error.code, errorMsg: error.message, succeeded: false }, error.code);
        else if (error instanceof StoreDamagedError) respond(req, res, 503, { errorCode: "StoreDamaged", errorMsg: "the host's store is damaged: it decides nothing until an operator restores it", succeeded: false }, "StoreDamaged");
        else respond(req, res, 500, { errorCode: "InternalError", errorMsg: "the server failed; see its log", succeeded: false }, "InternalError");
      });
  };
}

function respond(req: IncomingMessage, res: ServerResponse, status: number, body: unknown, errorCode: string | undefined): void {
  if (res.headersSent) return;
  const text = JSON.stringify(body);
  const headers: Record<string, string | number> = { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(text), "cache-control": "no-store", "x-content-type-options": "nosniff" };
  if (errorCode !== undefined) headers["wow-error-code"] = errorCode;
  if (status === 401) headers["www-authenticate"] = 'Bearer realm="wow"';
  // A body left unread (refused before reading it) must not be parsed as the next request.
  if (!req.complete) {
    headers.connection = "close";
    req.resume();
  }
  res.writeHead(status, headers);
  res.end(text);
}

function respondText(req: IncomingMessage, res: ServerResponse, reply: TextReply): void {
  if (res.headersSent) return;
  if (!req.complete) req.resume();
  res.writeHead(reply.status, { "content-type": reply.contentType, "content-length": Buffer.byteLength(reply.text), "cache-control": "no-store", "x-content-type-options": "nosniff" });
  res.end(reply.text);
}
