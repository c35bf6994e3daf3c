// Bearer credentials: every call needs one (401 without, or with an unknown one); a credential bound
// to a tenant reaches only that tenant (403 otherwise). Tokens are compared by their SHA-256 digests,
// all of them, so the time taken tells nothing of a token's length or of which one matched.
import { hash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { WowConfigError } from "../config/config-error.js";
import { credentialProblems } from "../config/credentials.js";
import type { HttpCredential } from "../config/types.js";
import { HttpError } from "./http-error.js";

export interface Principal {
  readonly name: string;
  /** Undefined: an operator of every tenant. */
  readonly tenant?: string;
}

export interface Credentials {
  authenticate(req: IncomingMessage): Principal;
}

const digest = (token: string): Buffer => hash("sha256", token, "buffer");

/** The credentials checked (WowConfigError naming each unusable or clashing one) and ready to authenticate requests. */
export function credentialsOf(credentials: readonly HttpCredential[], source: string): Credentials {
  const problems = credentialProblems(credentials, "/wow/http/credentials", source);
  if (problems.length > 0) throw new WowConfigError(problems);
  const known = credentials.map((c) => ({
    digest: digest(c.token),
    principal: c.tenant === undefined ? { name: c.name ?? "operator" } : { name: c.name ?? `tenant ${c.tenant}`, tenant: c.tenant },
  }));
  return {
    authenticate(req) {
      const header = req.headers.authorization;
      const match = typeof header === "string" ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
      if (!match) throw new HttpError(401, "Unauthorized", "a bearer credential is required (Authorization: Bearer <token>)");
      const given = digest(match[1]!);
      let found: Principal | undefined;
      for (const c of known) if (timingSafeEqual(c.digest, given) && found === undefined) found = c.principal;
      if (found === undefined) throw new HttpError(401, "Unauthorized", "unknown credential");
      return found;
    },
  };
}

/** 403 unless the principal may act in `tenantId`. */
export function requireTenant(principal: Principal, tenantId: string): void {
  if (principal.tenant !== undefined && principal.tenant !== tenantId) {
    throw new HttpError(403, "Forbidden", `this credential reaches tenant ${principal.tenant} only`);
  }
}
