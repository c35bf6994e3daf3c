// What an action did, or the server's refusal in its own words: announced to screen readers.
import type { ApiError } from "../api.js";

export type Outcome = { readonly kind: "done"; readonly text: string } | { readonly kind: "failed"; readonly error: ApiError } | undefined;

export function Notice({ outcome }: { outcome: Outcome }) {
  if (outcome === undefined) return <div role="status" aria-live="polite" class="notice-slot" />;
  if (outcome.kind === "done")
    return (
      <div role="status" aria-live="polite" class="notice ok" data-testid="notice">
        {outcome.text}
      </div>
    );
  return <ErrorNotice error={outcome.error} />;
}

export function ErrorNotice({ error }: { error: ApiError }) {
  return (
    <div role="alert" class="notice error" data-testid="error">
      <strong>{error.status === 404 ? "Not found" : error.code}</strong>: {error.message}
    </div>
  );
}

/** A loading line, or the error a page could not load for. */
export function Loading() {
  return (
    <p role="status" aria-live="polite" class="muted">
      Loading…
    </p>
  );
}
