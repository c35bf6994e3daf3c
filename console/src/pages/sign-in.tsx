// Sign-in with a credential of wow.http.credentials; kept for this tab's session only.
import { useState } from "preact/hooks";
import { ApiError, call, keepCredential } from "../api.js";
import type { Session } from "../app.js";
import type { SessionInfo } from "../types.js";
import { ErrorNotice } from "../parts/notice.js";

export function SignIn({ onSignedIn }: { onSignedIn: (session: Session) => void }) {
  const [token, setToken] = useState("");
  const [error, setError] = useState<ApiError | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const who = await call<SessionInfo>("/wow/session", { token: token.trim() });
      keepCredential(token.trim());
      onSignedIn(who.tenant === undefined ? {} : { tenant: who.tenant });
    } catch (err) {
      setError(err instanceof ApiError ? err : new ApiError(0, "Error", String(err)));
    } finally {
      setBusy(false);
    }
  };
  return (
    <main id="main" class="sign-in">
      <h1>Sign in to the wow console</h1>
      <p>Use a bearer credential of this host's configuration (<code>wow.http.credentials</code>). It is kept for this browser tab only, until you sign out or close it.</p>
      <form onSubmit={submit}>
        <label for="credential">Credential</label>
        <input id="credential" name="credential" type="password" autocomplete="current-password" required minLength={16} value={token} onInput={(e) => setToken(e.currentTarget.value)} />
        <button type="submit" disabled={busy}>
          {busy ? "Signing in…" : "Sign in"}
        </button>
      </form>
      {error && <ErrorNotice error={error.status === 401 ? new ApiError(401, "Refused", `this credential is not known to the host (${error.message})`) : error} />}
    </main>
  );
}
