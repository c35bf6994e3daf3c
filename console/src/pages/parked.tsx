// Parked timers and events with their errors (the stack only for an operator's credential: the server
// gives a tenant's the first line), re-driven one at a time or as a selection, each with its result.
import { useState } from "preact/hooks";
import { ApiError, call, query } from "../api.js";
import type { Session } from "../app.js";
import { useLoad } from "../parts/load.js";
import { ErrorNotice, Loading } from "../parts/notice.js";
import { PagedTable, useCursors } from "../parts/paged-table.js";
import { local } from "../time.js";
import type { ParkedEvent, Timer } from "../types.js";
import { ErrorText } from "./runs.js";
import { aggregateLink } from "./timers.js";

type Result = { readonly state: "sending" } | { readonly state: "ok"; readonly text: string } | { readonly state: "failed"; readonly error: ApiError };

/** A re-driven timer is pending again, due now: its next delivery attempt says whether it was delivered. */
async function deliveryOf(id: string): Promise<string | undefined> {
  const { attempts } = await call<{ attempts: { outcome: string; at: string }[] }>(`/wow/timers/${encodeURIComponent(id)}/attempts?limit=1`);
  return attempts[0]?.outcome;
}

export function ParkedPage({ session }: { session: Session }) {
  return (
    <section>
      <h1>Parked work</h1>
      <p class="muted">{session.tenant === undefined ? "Errors with their stacks (an operator's credential)." : "Errors as their first line (a tenant's credential sees no stacks)."}</p>
      <ParkedList kind="timers" />
      <ParkedList kind="events" />
    </section>
  );
}

function ParkedList({ kind }: { kind: "timers" | "events" }) {
  const { cursors, cursor, setCursors } = useCursors();
  const [list, reload] = useLoad(() => call<{ timers?: Timer[]; events?: ParkedEvent[]; next?: string }>(`/wow/parked${query({ kind, cursor, limit: 50 })}`), JSON.stringify([kind, cursor]));
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [results, setResults] = useState<ReadonlyMap<string, Result>>(new Map());
  const title = kind === "timers" ? "Parked timers" : "Parked events";
  const setResult = (id: string, result: Result) => setResults((before) => new Map(before).set(id, result));
  const redrive = async (id: string) => {
    setResult(id, { state: "sending" });
    try {
      const body = await call<{ redriven: boolean; error?: string }>(`/wow/parked/${kind}/${encodeURIComponent(id)}/redrive`, { method: "POST" });
      if (kind === "events") {
        setResult(id, body.redriven ? { state: "ok", text: "re-driven: handled" } : { state: "failed", error: new ApiError(200, "Failed again", body.error ?? "the handler failed again: still parked") });
        return;
      }
      setResult(id, { state: "ok", text: "re-driven: pending, due now" });
      for (let i = 0; i < 40; i++) {
        await new Promise((r) => setTimeout(r, 250));
        const outcome = await deliveryOf(id).catch(() => undefined);
        if (outcome === "decided" || outcome === "duplicate") return setResult(id, { state: "ok", text: "re-driven: delivered" });
        if (outcome === "rejected") return setResult(id, { state: "ok", text: "re-driven: delivered, rejected by its target" });
        if (outcome === "parked" || outcome === "retrying") return setResult(id, { state: "failed", error: new ApiError(200, "Failed again", `the delivery failed again (${outcome})`) });
      }
    } catch (error) {
      setResult(id, { state: "failed", error: error instanceof ApiError ? error : new ApiError(0, "Error", String(error)) });
    }
  };
  const redriveSelected = async () => {
    await Promise.all([...selected].map(redrive));
    setSelected(new Set());
  };
  if (list.state === "loading") return <Loading />;
  if (list.state === "error") return <ErrorNotice error={list.error} />;
  const rows: { id: string; what: preact.ComponentChildren; error: string; attempts: number; at: string }[] =
    kind === "timers"
      ? (list.data.timers ?? []).map((t) => ({ id: t.id, what: <>timer <code>{t.key}</code> of {aggregateLink(t.owner)} → <code>{t.command}</code></>, error: t.lastError ?? "", attempts: t.attempts, at: t.parkedAt ?? t.due }))
      : (list.data.events ?? []).map((e) => ({ id: e.id, what: <><code>{e.eventType}</code> of {aggregateLink(e.aggregate)} in <code>{e.subscription}</code></>, error: e.error, attempts: e.attempts, at: e.parkedAt }));
  const toggle = (id: string) => setSelected((before) => {
    const next = new Set(before);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    return next;
  });
  return (
    <div class="block">
      <h2>{title}</h2>
      <div class="actions">
        <button type="button" disabled={selected.size === 0} onClick={() => void redriveSelected()}>
          Re-drive selected ({selected.size})
        </button>
        <button type="button" onClick={() => { setResults(new Map()); reload(); }}>
          Refresh
        </button>
      </div>
      <PagedTable
        testId={`parked-${kind}`}
        caption={title}
        columns={["Select", "What", "Parked at", "Attempts", "Error", "Re-drive"]}
        rows={rows}
        empty="Nothing parked."
        pages={{ cursors, next: list.data.next, onMove: setCursors, label: title }}
        row={(row) => {
          const result = results.get(row.id);
          return (
            <tr key={row.id} data-id={row.id}>
              <td>
                <input type="checkbox" aria-label={`Select ${row.id}`} checked={selected.has(row.id)} onChange={() => toggle(row.id)} />
              </td>
              <td>{row.what}</td>
              <td>{local(row.at)}</td>
              <td>{row.attempts}</td>
              <td>
                <ErrorText text={row.error} />
              </td>
              <td>
                <button type="button" onClick={() => void redrive(row.id)} disabled={result?.state === "sending"} aria-label={`Re-drive ${row.id}`}>
                  Re-drive
                </button>
                <span role="status" class={result?.state === "failed" ? "error-text" : "ok-text"} data-testid="redrive-result">
                  {result === undefined ? "" : result.state === "sending" ? " sending…" : result.state === "ok" ? ` ${result.text}` : ` ${result.error.code}: ${result.error.message}`}
                </span>
              </td>
            </tr>
          );
        }}
      />
    </div>
  );
}
