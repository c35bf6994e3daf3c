// A job instance's run log: outcome, duration, error, derived commands and host, newest first, with
// filters by outcome and time and cursor pages.
import { useState } from "preact/hooks";
import { call, query } from "../api.js";
import { Outcome } from "../parts/job-state.js";
import { useLoad } from "../parts/load.js";
import { ErrorNotice, Loading } from "../parts/notice.js";
import { PagedTable, useCursors } from "../parts/paged-table.js";
import { href } from "../router.js";
import { fromLocalInput, local, viewerZone } from "../time.js";
import type { Run } from "../types.js";

const OUTCOMES = ["succeeded", "failed", "retrying", "parked", "skipped", "scheduled", "manual", "backfill"];

export function RunsPage({ context, instance, tenant }: { context: string; instance: string; tenant: string | undefined }) {
  return (
    <section>
      <h1>
        Runs of <a href={href(["jobs", context, instance], { tenant })}>{instance}</a>
      </h1>
      <RunLog context={context} instance={instance} tenant={tenant} round={0} />
    </section>
  );
}

export function RunLog({ context, instance, tenant, round }: { context: string; instance: string; tenant: string | undefined; round: number }) {
  const [filter, setFilter] = useState<{ outcome?: string; from?: string; to?: string }>({});
  const { cursors, cursor, setCursors } = useCursors();
  const [runs, reload] = useLoad(
    () => call<{ runs: Run[]; next?: string }>(`/wow/jobs/${encodeURIComponent(instance)}/runs${query({ context, tenant, ...filter, cursor, limit: 25 })}`),
    JSON.stringify([context, instance, tenant, filter, cursor, round]),
  );
  const apply = (e: Event) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget as HTMLFormElement);
    const pick = (name: string) => ((form.get(name) as string | null) || undefined);
    const from = pick("from");
    const to = pick("to");
    setCursors([]);
    setFilter({ ...(pick("outcome") ? { outcome: pick("outcome")! } : {}), ...(from ? { from: fromLocalInput(from)! } : {}), ...(to ? { to: fromLocalInput(to)! } : {}) });
  };
  return (
    <div>
      <form class="filters" onSubmit={apply} aria-label="Filter runs">
        <label>
          Outcome or kind
          <select name="outcome">
            <option value="">any</option>
            {OUTCOMES.map((o) => (
              <option key={o} value={o}>
                {o}
              </option>
            ))}
          </select>
        </label>
        <label>
          Due from ({viewerZone}) <input name="from" type="datetime-local" step={1} />
        </label>
        <label>
          Due before ({viewerZone}) <input name="to" type="datetime-local" step={1} />
        </label>
        <button type="submit">Filter</button>
        <button type="button" onClick={reload}>
          Refresh
        </button>
      </form>
      {runs.state === "loading" ? (
        <Loading />
      ) : runs.state === "error" ? (
        <ErrorNotice error={runs.error} />
      ) : (
        <PagedTable
          testId="runs-table"
          caption="Runs, newest first"
          columns={["Started", "Slot due", "Kind", "Outcome and duration", "Attempt", "Error", "Derived commands", "Host"]}
          rows={runs.data.runs}
          empty="No run matches."
          pages={{ cursors, next: runs.data.next, onMove: setCursors, label: "Runs" }}
          row={(r) => (
            <tr key={r.id} data-kind={r.kind} data-outcome={r.outcome}>
              <td>{local(r.started)}</td>
              <td>{local(r.due)}</td>
              <td>{r.kind}</td>
              <td>
                <Outcome run={r} />
              </td>
              <td>{r.attempt}</td>
              <td>{r.error ? <ErrorText text={r.error} /> : <span class="muted">—</span>}</td>
              <td>{r.commands.length === 0 ? <span class="muted">none</span> : <code>{r.commands.join(", ")}</code>}</td>
              <td>{r.host}</td>
            </tr>
          )}
        />
      )}
    </div>
  );
}

/** An error's first line; its stack (given to an operator's credential only) behind a disclosure. */
export function ErrorText({ text }: { text: string }) {
  const [first, ...rest] = text.split("\n");
  if (rest.length === 0) return <span class="error-text">{first}</span>;
  return (
    <details>
      <summary class="error-text">{first}</summary>
      <pre class="stack">{rest.join("\n")}</pre>
    </details>
  );
}
