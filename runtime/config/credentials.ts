// What makes a bearer credential usable: a token a request can send (RFC 6750's token68 characters,
// at least 16 of them), given once, and a tenant a request can name. Checked when the configuration
// is loaded and when a host is given credentials in code, so a credential that could never
// authenticate (or two that clash) is refused at start, not discovered at the first request.
import { isValidId } from "../model/ids.js";
import type { ConfigProblem, HttpCredential } from "./types.js";

/** RFC 6750 `b64token`: what `Authorization: Bearer <token>` carries. */
export const TOKEN_PATTERN = /^[A-Za-z0-9\-._~+/]+=*$/;
export const MIN_TOKEN_LENGTH = 16;

/** Problems of `credentials` (at JSON pointer `base`, e.g. `/wow/http/credentials`), each with its path. */
export function credentialProblems(credentials: readonly HttpCredential[], base: string, source: string): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const seen = new Map<string, number>();
  credentials.forEach((credential, i) => {
    const at = `${base}/${i}`;
    const token: unknown = credential.token;
    if (typeof token !== "string") problems.push({ path: `${at}/token`, message: "must be a string", source });
    else if (token.length < MIN_TOKEN_LENGTH) problems.push({ path: `${at}/token`, message: `must have at least ${MIN_TOKEN_LENGTH} characters`, source });
    else if (!TOKEN_PATTERN.test(token)) {
      problems.push({ path: `${at}/token`, message: "holds a character a bearer token cannot carry (space, quote, …): use letters, digits and - . _ ~ + /", source });
    } else {
      const first = seen.get(token);
      if (first !== undefined) problems.push({ path: `${at}/token`, message: `is the token of credential ${first} too: each token must be unique (one token, one scope)`, source });
      else seen.set(token, i);
    }
    const tenant: unknown = credential.tenant;
    if (tenant !== undefined && (typeof tenant !== "string" || !isValidId(tenant))) {
      problems.push({ path: `${at}/tenant`, message: `${JSON.stringify(tenant)} is not a tenant id a request can name (1 to 200 of letters, digits and . _ ~ : @ ! $ ' ( ) * + , ; = -)`, source });
    }
  });
  return problems;
}
