// Bearer credentials: every call needs one (401 without, or with an unknown one); a credential bound
// to a tenant reaches only that tenant (403 otherwise).
import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { HttpCredential } from "../config/types.js";
import { HttpError } from "./http-error.js";

export interface Principal {
  readonly name: string;
  /** Undefined: an operator of every tenant. */
  readonly tenant?: string;
}

export function authenticate(req: IncomingMessage, credentials: readonly HttpCredential[]): Principal {
  const header = req.headers.authorization;
  const match = typeof header === "string" ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  if (!match) throw new HttpError(401, "Unauthorized", "a bearer credential is required (Authorization: Bearer <token>)");
  const given = Buffer.from(match[1]!, "utf8");
  for (const c of credentials) {
    const expected = Buffer.from(c.token, "utf8");
    if (expected.length === given.length && timingSafeEqual(expected, given)) {
      return c.tenant === undefined ? { name: c.name ?? "operator" } : { name: c.name ?? `tenant ${c.tenant}`, tenant: c.tenant };
    }
  }
  throw new HttpError(401, "Unauthorized", "unknown credential");
}

/** 403 unless the principal may act in `tenantId`. */
export function requireTenant(principal: Principal, tenantId: string): void {
  if (principal.tenant !== undefined && principal.tenant !== tenantId) {
    throw new HttpError(403, "Forbidden", `this credential reaches tenant ${principal.tenant} only`);
  }
}
