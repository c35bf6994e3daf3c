// The host's JSON API as the pages call it: the credential from this tab's session, errors as the
// server words them (its code, message and the fields it names), nothing fetched from anywhere else.

const KEY = "wow.console.credential";

export function credential(): string | null {
  return sessionStorage.getItem(KEY);
}

export function keepCredential(token: string): void {
  sessionStorage.setItem(KEY, token);
}

export function forgetCredential(): void {
  sessionStorage.removeItem(KEY);
}

/** A refusal or failure the server answered (or the network's, status 0). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** Called when the host no longer knows the credential (401): the app signs out. */
let onUnauthorized: () => void = () => {};
export function whenUnauthorized(handler: () => void): void {
  onUnauthorized = handler;
}

export interface CallOptions {
  readonly method?: "GET" | "POST";
  readonly body?: unknown;
  /** The tenant a schedule command acts in (`Command-Tenant-Id`). */
  readonly tenant?: string;
  /** A credential to try instead of the session's (signing in). */
  readonly token?: string;
}

export async function call<T>(path: string, options: CallOptions = {}): Promise<T> {
  const token = options.token ?? credential();
  const headers: Record<string, string> = { accept: "application/json" };
  if (token) headers.authorization = `Bearer ${token}`;
  if (options.body !== undefined) headers["content-type"] = "application/json";
  if (options.tenant !== undefined) headers["command-tenant-id"] = options.tenant;
  let response: Response;
  try {
    response = await fetch(path, { method: options.method ?? "GET", headers, ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }), cache: "no-store" });
  } catch (error) {
    throw new ApiError(0, "Network", `the host did not answer (${error instanceof Error ? error.message : String(error)})`);
  }
  const text = await response.text();
  let json: Record<string, unknown> = {};
  try {
    json = text === "" ? {} : (JSON.parse(text) as Record<string, unknown>);
  } catch {
    json = { errorMsg: text.slice(0, 200) };
  }
  if (!response.ok || json.succeeded === false) {
    if (response.status === 401 && options.token === undefined) onUnauthorized();
    const code = typeof json.errorCode === "string" ? json.errorCode : `HTTP ${response.status}`;
    const message = typeof json.errorMsg === "string" ? json.errorMsg : response.statusText;
    throw new ApiError(response.status, code, message, json);
  }
  return json as T;
}

/** `?a=1&b=2` of the defined values. */
export function query(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== "") search.set(key, String(value));
  const text = search.toString();
  return text === "" ? "" : `?${text}`;
}

/** A schedule command on a job instance: `POST /{context}/schedule/{instance}/wow.schedule.{verb}`. */
export function scheduleCommand(context: string, instance: string, verb: string, tenant: string, body: Record<string, unknown> = {}): Promise<CommandResult> {
  return call<CommandResult>(`/${encodeURIComponent(context)}/schedule/${encodeURIComponent(instance)}/wow.schedule.${verb}`, { method: "POST", body, tenant });
}

export interface CommandResult {
  readonly outcome?: string;
  readonly errorCode?: string;
  readonly errorMsg?: string;
  readonly commandId?: string;
}
