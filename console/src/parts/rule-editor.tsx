// A cron rule being edited: the host's own engine previews it as it is typed (GET /wow/cron/preview),
// so the next fire times shown are those the host will schedule, and a rule it refuses is pointed at
// inline, before anything is sent.
import { useEffect, useState } from "preact/hooks";
import { ApiError, call, query } from "../api.js";
import { inZone, local, viewerZone } from "../time.js";
import type { Preview } from "../types.js";

export type RuleCheck = { readonly state: "checking" } | { readonly state: "ok"; readonly preview: Preview } | { readonly state: "invalid"; readonly error: ApiError };

export function useRuleCheck(expression: string, zone: string): RuleCheck {
  const [check, setCheck] = useState<RuleCheck>({ state: "checking" });
  useEffect(() => {
    setCheck({ state: "checking" });
    let current = true;
    const timer = setTimeout(() => {
      call<Preview>(`/wow/cron/preview${query({ expression, zone, count: 5 })}`).then(
        (preview) => current && setCheck({ state: "ok", preview }),
        (error: unknown) => current && setCheck({ state: "invalid", error: error instanceof ApiError ? error : new ApiError(0, "Error", String(error)) }),
      );
    }, 150);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [expression, zone]);
  return check;
}

/** The preview, or the error with a caret under the text at fault. */
export function RulePreview({ check, expression, id }: { check: RuleCheck; expression: string; id: string }) {
  if (check.state === "checking") return <p id={id} class="muted" role="status">Checking the rule…</p>;
  if (check.state === "invalid") {
    const { offset, length, field } = check.error.body as { offset?: number; length?: number; field?: string };
    return (
      <div id={id} role="alert" class="notice error" data-testid="rule-error">
        <strong>{check.error.code}</strong>: {check.error.message}
        {typeof offset === "number" && field !== "zone" && (
          <pre class="caret" aria-hidden="true">
            {expression}
            {"\n"}
            {" ".repeat(offset)}
            {"^".repeat(Math.max(1, length ?? 1))}
          </pre>
        )}
      </div>
    );
  }
  const { preview } = check;
  return (
    <div id={id} role="status" class="notice ok" data-testid="rule-preview">
      <p>
        <strong>{preview.words}</strong> ({preview.zone})
      </p>
      {preview.neverFires ? (
        <p>This rule never fires.</p>
      ) : (
        <ol class="fires">
          {preview.times.map((t) => (
            <li key={t}>
              <time dateTime={t}>{inZone(t, preview.zone)}</time>
              {preview.zone !== viewerZone && <span class="muted"> · {local(t)}</span>}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
